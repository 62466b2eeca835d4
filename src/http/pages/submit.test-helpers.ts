/** @module Shared set-up for the submission page tests: an app with a fake LLM screener, forms. */
import { createHttpLlmScreener } from "../../services/screening/index.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { type FakeChatServer, startFakeChatServer } from "../../testing/chat-server.ts";
import { paperInput } from "../../testing/factories.ts";
import { csrfTokenIn, type PageClient, type PageResponse } from "../../testing/page-client.ts";

export interface SubmitTestApp {
  test: TestApp;
  llm: FakeChatServer;
  close(): Promise<void>;
}

/** The real app over a fresh database, its LLM screener a loopback fake (pass by default). */
export async function startSubmitApp(): Promise<SubmitTestApp> {
  const llm = await startFakeChatServer();
  const test = await createTestApp({
    services: {
      screener: createHttpLlmScreener({
        url: llm.url,
        model: "judge-1",
        timeoutMs: 500,
        retries: 1,
        backoffMs: 5,
      }),
    },
  });
  return {
    test,
    llm,
    close: async () => {
      await llm.close();
      await test.close();
    },
  };
}

/** A valid paper as the form sends it (keywords comma-separated), unique to this call. */
export function paperForm(overrides: Record<string, string> = {}): Record<string, string> {
  const input = paperInput();
  return {
    title: input.title,
    abstract: input.abstract,
    body: input.body,
    ai_model: input.ai_model,
    license: input.license,
    keywords: input.keywords.join(", "),
    ...overrides,
  };
}

export function prefix(lang: "en" | "es"): string {
  return lang === "es" ? "/es" : "";
}

/** Loads the form page, then posts the form to `action` with its CSRF token. */
export async function postPaperForm(
  client: PageClient,
  action: string,
  fields: Record<string, string>,
  intent: "submit" | "preview" = "submit",
): Promise<PageResponse> {
  const page = await client.get(action);
  const token = csrfTokenIn(page.html, action);
  return client.post(action, { _csrf: token, intent, ...fields });
}

/** The paper id a submission redirected to (`…/my/papers/{id}?notice=…`). */
export function redirectedPaperId(res: PageResponse): string {
  const id = /\/my\/papers\/(\d{4}\.\d{5})\?notice=/.exec(res.location ?? "")?.[1];
  if (!id) throw new Error(`not redirected to a paper: ${res.status} ${res.location}\n${res.html}`);
  return id;
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
