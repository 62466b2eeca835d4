/** @module Shared set-up for the submission page tests: an app with a fake LLM screener, forms. */
import sharp from "sharp";
import type { ServiceContext } from "../../services/context.ts";
import { createHttpLlmScreener } from "../../services/screening/index.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { makeZip } from "../../testing/bundles.ts";
import { type FakeChatServer, startFakeChatServer } from "../../testing/chat-server.ts";
import { paperInput } from "../../testing/factories.ts";
import { csrfTokenIn, type PageClient, type PageResponse } from "../../testing/page-client.ts";

export interface SubmitTestApp {
  test: TestApp;
  llm: FakeChatServer;
  close(): Promise<void>;
}

/**
 * The real app over a fresh database, its LLM screener a loopback fake (pass by default).
 * `services` adds ports (a LaTeX converter, say); without one LaTeX bundles are refused.
 */
export async function startSubmitApp(
  services: Partial<Omit<ServiceContext, "db">> = {},
): Promise<SubmitTestApp> {
  const llm = await startFakeChatServer();
  const test = await createTestApp({
    services: {
      ...services,
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

/** A file as a browser sends it from a file input. */
export interface Upload {
  name: string;
  bytes: Uint8Array;
}

/**
 * Loads the form page, then posts it as a browser does when the form has a file input:
 * multipart, the bundle in `source` (an empty file part when none is chosen).
 */
export async function postBundleForm(
  client: PageClient,
  action: string,
  fields: Record<string, string>,
  bundle: Upload | null,
  intent: "submit" | "preview" = "submit",
): Promise<PageResponse> {
  const page = await client.get(action);
  const token = csrfTokenIn(page.html, action);
  const form = new FormData();
  for (const [k, v] of Object.entries({ _csrf: token, intent, ...fields })) form.append(k, v);
  form.append(
    "source",
    bundle
      ? new File([bundle.bytes as Uint8Array<ArrayBuffer>], bundle.name, {
          type: "application/zip",
        })
      : new File([], "", { type: "application/octet-stream" }),
  );
  return client.request(action, { method: "POST", body: form });
}

/** A small PNG: a plot's stand-in. */
async function pngFigure(shade = 128): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({
      create: { width: 160, height: 100, channels: 3, background: { r: shade, g: 170, b: 187 } },
    })
      .png()
      .toBuffer(),
  );
}

/**
 * A Markdown bundle (`paper.md`, a PNG figure, a CSV) whose text is unique to this call, so
 * the screener never takes two for duplicates; returns the archive and its Markdown.
 */
export async function markdownBundle(
  extra: Record<string, string | Uint8Array> = {},
): Promise<{ upload: Upload; body: string }> {
  const body = `${paperInput().body}
## Figures

The estimate settles after a few steps (Figure [1](#figure-1)).

![Figure 1: Estimated gap against steps.](figures/plot.png) {#figure-1}

The data are in \`data/estimates.csv\`.
`;
  const bytes = makeZip({
    "paper.md": body,
    "figures/plot.png": await pngFigure(),
    "data/estimates.csv": "d,estimate\n3,2.831\n",
    ...extra,
  });
  return { upload: { name: "paper.zip", bytes }, body };
}
