/** @module Shared set-up for the report page tests: a paper with a comment and a review, and filing through the form. */
import { expect } from "vitest";
import type { PageClient, PageResponse } from "../../testing/page-client.ts";
import { csrfTokenIn } from "../../testing/page-client.ts";

/** Opens a target's report form (in `lang`) and submits it with `fields`; returns the answer. */
export async function fileThroughForm(
  client: PageClient,
  target: string,
  fields: Record<string, string>,
  lang: "en" | "es" = "en",
): Promise<PageResponse> {
  const prefix = lang === "es" ? "/es" : "";
  const path = `${prefix}/report/${target}`;
  const page = await client.get(path);
  expect(page.status, page.html.slice(0, 300)).toBe(200);
  // The form posts to the target's canonical address (a paper without its version).
  const action = /<form[^>]*action="([^"]+)"[^>]*id="report-form"/.exec(page.html)?.[1];
  expect(action).toBeTruthy();
  return client.post(action!, { _csrf: csrfTokenIn(page.html, action), ...fields });
}
