/** @module Shared set-up for the moderation and info page tests: moderators, HTML structure checks. */
import { setOwnerRole } from "../../services/owners/index.ts";
import type { TestApp } from "../../testing/app.ts";
import type { PageClient } from "../../testing/page-client.ts";
import { signedInClient } from "./pages.test-helpers.ts";

/** A signed-in owner whom the operator has made a moderator (the role is read per request). */
export async function moderatorClient(
  test: TestApp,
  options: { lang?: "en" | "es" } = {},
): Promise<{ client: PageClient; handle: string }> {
  const { client, handle } = await signedInClient(test, options);
  await setOwnerRole({ ...test.ctx, caller: { kind: "operator" } }, { handle, role: "moderator" });
  return { client, handle };
}

/** The levels of a page's headings in document order: [1, 2, 2, 3, …]. */
export function headingLevels(html: string): number[] {
  return [...html.matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));
}

/** Headings start at one h1 and never skip a level going down. */
export function headingsInOrder(html: string): boolean {
  const levels = headingLevels(html);
  if (levels[0] !== 1 || levels.filter((l) => l === 1).length !== 1) return false;
  return levels.every((level, i) => i === 0 || level <= (levels[i - 1] ?? 1) + 1);
}

/** Text as hono/jsx escapes it in HTML. */
export function escaped(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/'/g, "&#39;")
    .replace(/"/g, "&quot;");
}
