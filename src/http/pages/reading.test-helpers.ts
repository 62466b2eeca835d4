/** @module Shared set-up for the reading-page tests: papers with versions, comments and reviews. */
import { expect } from "vitest";
import { createOwner, hashPassword } from "../../services/owners/index.ts";
import { type PublishInput, publishVersion } from "../../services/papers/index.ts";
import type { TestAgent } from "../../testing/agents.ts";
import type { TestApp } from "../../testing/app.ts";
import { paperInput } from "../../testing/factories.ts";
import { PageClient } from "../../testing/page-client.ts";
import { PASSWORD } from "./pages.test-helpers.ts";

let hash: Promise<string> | undefined;
let n = 0;

/** An owner (with id) and a client signed in as them, for reviews of and by owners. */
export async function signedInOwner(
  test: TestApp,
  options: { verified?: boolean; lang?: "en" | "es" } = {},
): Promise<{ client: PageClient; id: string; handle: string }> {
  hash ??= hashPassword(PASSWORD);
  n++;
  const handle = `reader_${process.pid}_${n}`;
  const email = `${handle}@example.org`;
  const owner = await createOwner(
    { ...test.ctx, caller: { kind: "operator" } },
    { handle, email, verified: options.verified ?? true, passwordHash: await hash },
  );
  const client = new PageClient(test);
  const prefix = options.lang === "es" ? "/es" : "";
  const res = await client.submit(`${prefix}/sign-in`, `${prefix}/sign-in`, {
    email,
    password: PASSWORD,
    next: "/agents",
  });
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}`);
  return { client, id: owner.id, handle };
}

/** Publishes a paper as the operator (optionally owned by `ownerId`) and returns its id. */
export async function publish(test: TestApp, overrides: Partial<PublishInput> = {}) {
  const result = await publishVersion(
    { ...test.ctx, caller: { kind: "operator" } },
    paperInput(overrides),
  );
  if (result.outcome !== "published") {
    throw new Error(`paper not published: ${JSON.stringify(result)}`);
  }
  return result.paper_id;
}

/** Publishes a new version of a paper with the given changes. */
export async function newVersion(
  test: TestApp,
  paperId: string,
  changes: Partial<PublishInput> & { changelog?: string },
) {
  const base = paperInput();
  const result = await publishVersion(
    { ...test.ctx, caller: { kind: "operator" } },
    { ...base, ...changes, paperId },
  );
  if (result.outcome !== "published") {
    throw new Error(`version not published: ${JSON.stringify(result)}`);
  }
  return result.version;
}

export async function postComment(test: TestApp, agent: TestAgent, paperId: string, body: string) {
  const res = await test.app.request(`/api/v1/papers/${paperId}/comments`, {
    method: "POST",
    headers: { ...agent.auth, "content-type": "application/json" },
    body: JSON.stringify({ body }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { comment: { id: string } }).comment.id;
}

export interface Scores {
  soundness: number;
  presentation: number;
  contribution: number;
  confidence: number;
  overall: number;
}

export async function postAiReview(
  test: TestApp,
  agent: TestAgent,
  paperId: string,
  scores: Scores,
  body: string,
) {
  const res = await test.app.request(`/api/v1/papers/${paperId}/reviews`, {
    method: "POST",
    headers: { ...agent.auth, "content-type": "application/json" },
    body: JSON.stringify({ ...scores, body }),
  });
  expect(res.status).toBe(201);
}

/** The review form's fields as a browser sends them. */
export function reviewForm(scores: Scores, body: string): Record<string, string> {
  return {
    soundness: String(scores.soundness),
    presentation: String(scores.presentation),
    contribution: String(scores.contribution),
    confidence: String(scores.confidence),
    overall: String(scores.overall),
    body,
  };
}

/** Text as the pages escape it. */
export function escaped(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/'/g, "&#39;")
    .replace(/"/g, "&quot;");
}

/** The `<main>` of a page (what the page itself says, without the shell). */
export function mainOf(html: string): string {
  return /<main\b[\s\S]*<\/main>/.exec(html)?.[0] ?? "";
}

/** The content of an element with this id (first match; enough for the sections tested). */
export function sectionById(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  if (start < 0) return "";
  const open = html.lastIndexOf("<", start);
  const tag = /^<([a-z0-9]+)/.exec(html.slice(open))?.[1] ?? "section";
  const end = html.indexOf(`</${tag}>`, start);
  return html.slice(open, end < 0 ? undefined : end);
}

/** The parsed JSON-LD block of a page. */
export function jsonLdOf(html: string): unknown {
  const m = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  if (!m?.[1]) throw new Error("no JSON-LD block");
  return JSON.parse(m[1]);
}

/** name → content of every `citation_*` meta tag, in order. */
export function citationTags(html: string): { name: string; content: string }[] {
  return [...html.matchAll(/<meta name="(citation_[a-z_]+)" content="([^"]*)"\/>/g)].map((m) => ({
    name: m[1] ?? "",
    content: (m[2] ?? "")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&"),
  }));
}
