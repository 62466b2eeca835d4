/**
 * @module Test support: the site in a real browser. Debian's Chromium (/usr/bin/chromium, never
 * a downloaded one) driven by playwright-core: one browser per test file, a fresh context per
 * test, axe-core checks, full-page screenshots, a dialog watcher, console errors and page
 * weight; and `serveSite`, a real `quire serve` with an SMTP sink and the sample papers.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Result as AxeResult } from "axe-core";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
  type Request,
} from "playwright-core";
import type { Lang } from "../http/pages/i18n/index.ts";
import { csrfTokenIn, overHttp, PageClient, shownKey } from "./page-client.ts";
import { runQuire } from "./quire-cli.ts";
import { createScratchDatabase } from "./scratch.ts";
import { type ServedQuire, serveQuire } from "./serve.ts";
import { type ReceivedMail, type SmtpSink, startSmtpSink } from "./smtp-sink.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOTS = join(ROOT, "artifacts", "screenshots");

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 740 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/** The browser locale per site language (it sets Accept-Language and Intl in the page). */
const LOCALES: Record<Lang, string> = { en: "en-GB", es: "es-ES" };

/**
 * Launches Debian's Chromium. A missing browser is a failure, not a skip: these tests are
 * part of the suite, and CI installs the package.
 */
export async function launchChromium(executablePath = CHROMIUM): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new Error(
      `The browser tests need Chromium at ${executablePath}, which is missing. ` +
        "Install Debian's package: `apt-get update && apt-get install chromium` (CI installs it).",
    );
  }
  return chromium.launch({
    executablePath,
    // Chromium's sandbox cannot start as root (containers, CI, this machine run tests as root):
    // only then is it switched off. The pages under test are our own, served on loopback.
    args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
  });
}

export interface Tab {
  page: Page;
  context: BrowserContext;
  lang: Lang;
  viewport: ViewportName;
  /** Messages of every dialog (alert, confirm, prompt) the page opened: each is a script that ran. */
  dialogs: string[];
  /** Console errors and uncaught exceptions, with the URL they came from. */
  consoleErrors: string[];
  /** Bytes of HTML, CSS and JS transferred (headers and encoded bodies) since opening or `resetWeight`. */
  weight(): Promise<number>;
  resetWeight(): void;
  close(): Promise<void>;
}

export interface TabOptions {
  lang?: Lang;
  viewport?: ViewportName;
  /** Cookies (a signed-in owner) from `context.storageState()`. */
  storageState?: BrowserContextOptions["storageState"];
  colorScheme?: "light" | "dark";
  /** Turns the page's CSP off, so a test sees what the markup alone lets through. */
  bypassCSP?: boolean;
}

/** A fresh context (no cookies, cache or storage from other tests) and one page in it. */
export async function openTab(browser: Browser, options: TabOptions = {}): Promise<Tab> {
  const lang = options.lang ?? "en";
  const viewport = options.viewport ?? "desktop";
  const context = await browser.newContext({
    locale: LOCALES[lang],
    viewport: VIEWPORTS[viewport],
    isMobile: viewport === "phone",
    hasTouch: viewport === "phone",
    colorScheme: options.colorScheme ?? "light",
    bypassCSP: options.bypassCSP ?? false,
    ...(options.storageState ? { storageState: options.storageState } : {}),
  });
  const page = await context.newPage();
  const dialogs = watchDialogs(page);
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") {
      consoleErrors.push(`${message.text()} (${message.location().url})`);
    }
  });
  page.on("pageerror", (error) => consoleErrors.push(`uncaught: ${error.message}`));
  let transfers: Promise<number>[] = [];
  page.on("requestfinished", (request) => {
    transfers.push(transferredBytes(request));
  });
  return {
    page,
    context,
    lang,
    viewport,
    dialogs,
    consoleErrors,
    weight: async () => (await Promise.all(transfers)).reduce((a, b) => a + b, 0),
    resetWeight: () => {
      transfers = [];
    },
    close: () => context.close(),
  };
}

const WEIGHED = new Set(["document", "stylesheet", "script"]);

async function transferredBytes(request: Request): Promise<number> {
  if (!WEIGHED.has(request.resourceType())) return 0;
  const sizes = await request.sizes();
  return sizes.responseHeadersSize + sizes.responseBodySize;
}

/**
 * Records (and dismisses) every dialog the page opens. The site has no dialogs of its own,
 * so any entry means a script of someone else's ran: an XSS.
 */
function watchDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on("dialog", (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  return seen;
}

/** Evaluates an expression in the page (strings: this project's type check has no DOM lib). */
export function inPage<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate(expression) as Promise<T>;
}

let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  /** CSS selectors of the offending elements. */
  targets: string[];
}

/**
 * Runs axe-core on the page (every rule, or only `rules`) and returns its serious and critical violations as plain
 * objects, so `expect(v).toEqual([])` prints rule, impact, selectors and help on failure.
 * axe is injected through the DevTools protocol, which the page's CSP does not govern.
 */
export async function axeCheck(
  page: Page,
  options: { rules?: string[] } = {},
): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  const loaded = await inPage<boolean>(page, "typeof window.axe === 'object'");
  if (!loaded) await page.evaluate(axeSource);
  const runOptions = {
    resultTypes: ["violations"],
    ...(options.rules ? { runOnly: { type: "rule", values: options.rules } } : {}),
  };
  const results = await inPage<AxeResult[]>(
    page,
    `axe.run(document, ${JSON.stringify(runOptions)}).then((r) => r.violations)`,
  );
  return results
    .filter((r) => r.impact === "serious" || r.impact === "critical")
    .map((r) => ({
      id: r.id,
      impact: r.impact ?? "",
      help: r.help,
      targets: r.nodes.map((n) => n.target.join(" ")),
    }));
}

/** Saves a full-page PNG to artifacts/screenshots/<the page's lang>/<name>.png; returns the path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const lang = (await page.getAttribute("html", "lang")) || "unknown";
  const path = join(SCREENSHOTS, lang, `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** What a reader sees: the rendered text of the body. */
export function visibleText(page: Page): Promise<string> {
  return inPage<string>(page, "document.body.innerText");
}

/** How far the page is wider than `width` (0 when nothing scrolls sideways). */
export async function horizontalOverflow(page: Page, width: number): Promise<number> {
  const scrollWidth = await inPage<number>(page, "document.documentElement.scrollWidth");
  return Math.max(0, scrollWidth - width);
}

// --- the served site ---

export interface Site {
  base: string;
  sink: SmtpSink;
  server: ServedQuire;
  /** The next mail sent to `to` (waiting up to `timeoutMs`). */
  mailTo(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

/**
 * A real `quire serve` with the sample papers, sending its mail to a loopback SMTP sink, on
 * the engine this run uses: a scratch PostgreSQL database when TEST_DATABASE_URL is set, else
 * PGlite in a temporary DATA_DIR.
 */
export async function serveSite(
  prefix: string,
  options: {
    /**
     * Runs with the engine's environment (DATA_DIR, or DATABASE_URL) before `quire serve`
     * starts: PGlite's data directory is single-process, so CLI set-up (`quire owners ...`)
     * must happen while nothing else holds it.
     */
    beforeServe?: (env: Record<string, string>) => Promise<void>;
    /** More of the server's environment (an LLM screener's SCREENER_URL, say). */
    env?: Record<string, string>;
  } = {},
): Promise<Site> {
  const workDir = await mkdtemp(join(tmpdir(), `quire-${prefix}-`));
  const sink = await startSmtpSink();
  const engine: Record<string, string> = { DATA_DIR: join(workDir, "data") };
  let dropDatabase: (() => Promise<void>) | undefined;
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL, `quire_${prefix}`);
    dropDatabase = scratch.drop;
    engine.DATABASE_URL = scratch.url;
  }
  let server: ServedQuire;
  try {
    await options.beforeServe?.({ ...engine });
    server = await serveQuire({
      ...options.env,
      ...engine,
      SEED_SAMPLES: "true",
      SMTP_URL: sink.url,
    });
  } catch (error) {
    await sink.close();
    await dropDatabase?.();
    await rm(workDir, { recursive: true, force: true });
    throw error;
  }
  const mailbox: ReceivedMail[] = [];
  const waiting: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];
  void (async () => {
    for (;;) {
      const mail = await sink.next();
      const i = waiting.findIndex((w) => mail.to.includes(w.to));
      if (i >= 0) waiting.splice(i, 1)[0]!.resolve(mail);
      else mailbox.push(mail);
    }
  })();
  return {
    base: server.base,
    sink,
    server,
    mailTo: (to, timeoutMs = 20_000) => {
      const i = mailbox.findIndex((m) => m.to.includes(to));
      if (i >= 0) return Promise.resolve(mailbox.splice(i, 1)[0]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiting.push({
          to,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        });
      });
    },
    stop: async () => {
      await server.stop();
      await sink.close();
      await dropDatabase?.();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** The verification link in an account mail. */
export function verificationLink(mail: ReceivedMail): string {
  const link = /https?:\/\/\S+\/verify-email\?token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no verification link in:\n${mail.text}`);
  return link;
}

export interface Owner {
  handle: string;
  email: string;
  password: string;
}

/**
 * An owner made over plain HTTP (the browser flows test the forms themselves): signed up,
 * and verified by the mailed link unless `verified` is false.
 */
export async function createOwnerOverHttp(
  site: Site,
  handle: string,
  options: { verified?: boolean } = {},
): Promise<Owner> {
  const owner = { handle, email: `${handle}@example.org`, password: "a browser test passphrase" };
  const client = new PageClient(overHttp(site.base));
  const mailed = site.mailTo(owner.email);
  const res = await client.submit("/sign-up", "/sign-up", owner);
  if (res.status !== 303) throw new Error(`sign-up of ${handle} failed: ${res.status}`);
  const link = new URL(verificationLink(await mailed));
  if (options.verified ?? true) {
    const token = link.searchParams.get("token") ?? "";
    const page = await client.get(`${link.pathname}${link.search}`);
    const done = await client.post("/verify-email", {
      _csrf: csrfTokenIn(page.html, "/verify-email"),
      token,
    });
    if (done.status !== 303) throw new Error(`verification of ${handle} failed: ${done.status}`);
  }
  return owner;
}

/**
 * `quire owners create --verified` and `quire owners set-role … moderator`, against the engine
 * in `env`: a `beforeServe` step, since only the operator grants the role. The CLI makes
 * owners without a password; `setPasswordOverHttp` gives them one once the site runs.
 */
export async function createModeratorWithCli(
  env: Record<string, string>,
  moderator: Owner,
): Promise<void> {
  const steps = [
    ["owners", "create", "--handle", moderator.handle, "--email", moderator.email, "--verified"],
    ["owners", "set-role", moderator.handle, "moderator"],
  ];
  for (const args of steps) {
    const result = await runQuire(args, env);
    if (result.code !== 0) {
      throw new Error(`quire ${args.join(" ")} failed (${result.code}):\n${result.stderr}`);
    }
  }
}

/** Sets an owner's password through the mailed reset link, as one who never had one would. */
export async function setPasswordOverHttp(site: Site, owner: Owner): Promise<void> {
  const client = new PageClient(overHttp(site.base));
  const mailed = site.mailTo(owner.email);
  const asked = await client.submit("/forgot-password", "/forgot-password", {
    email: owner.email,
  });
  if (asked.status !== 303) throw new Error(`reset request failed: ${asked.status}`);
  const link = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/.exec((await mailed).text);
  if (!link) throw new Error(`no reset link mailed to ${owner.email}`);
  const url = new URL(link[0]);
  const form = await client.get(`${url.pathname}${url.search}`);
  const done = await client.post("/reset-password", {
    _csrf: csrfTokenIn(form.html, "/reset-password"),
    token: url.searchParams.get("token") ?? "",
    password: owner.password,
  });
  if (done.status !== 303) throw new Error(`password reset failed: ${done.status}`);
}

/**
 * Registers an agent through the /agents form of a signed-in owner and returns its id (the
 * key, shown once, is let go: the browser tests never act as the agent).
 */
export async function createAgentOverHttp(
  owner: PageClient,
  name: string,
  model = "test-model-1",
): Promise<string> {
  const res = await owner.submit("/agents", "/agents", { name, model });
  if (res.status !== 303) throw new Error(`creating agent ${name} failed: ${res.status}`);
  await owner.get("/agents"); // shows the key once, and forgets it
  const { html } = await owner.get("/agents");
  const row = new RegExp(`id="agent-(agt_[A-Za-z0-9]+)"(?:(?!</tr>).)*>${name}<`, "s");
  const id = row.exec(html)?.[1];
  if (!id) throw new Error(`agent ${name} is not listed on /agents`);
  return id;
}

/**
 * An agent of a signed-in owner (registered through the /agents form, its key read from the
 * page that shows it once) posts `body` as a comment on `paperId` through the API; returns
 * the comment's id. The reader-report flow reports it.
 */
export async function commentOverHttp(
  site: Site,
  owner: PageClient,
  paperId: string,
  body: string,
  name = "commenting-agent",
): Promise<{ commentId: string; agentName: string }> {
  const made = await owner.submit("/agents", "/agents", { name, model: "test-model-1" });
  if (made.status !== 303) throw new Error(`creating agent ${name} failed: ${made.status}`);
  const key = shownKey((await owner.get("/agents")).html);
  if (!key) throw new Error(`the key of agent ${name} was not shown`);
  const res = await fetch(`${site.base}/api/v1/papers/${paperId}/comments`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ body }),
  });
  const json = (await res.json()) as { comment?: { id?: string } };
  if (res.status !== 201 || !json.comment?.id) {
    throw new Error(`commenting failed: ${res.status} ${JSON.stringify(json)}`);
  }
  return { commentId: json.comment.id, agentName: name };
}

/** A client signed in as `owner` over plain HTTP (through the sign-in form's POST). */
export async function signInOverHttp(site: Site, owner: Owner): Promise<PageClient> {
  const client = new PageClient(overHttp(site.base));
  const res = await client.submit("/sign-in", "/sign-in", {
    email: owner.email,
    password: owner.password,
    next: "/agents",
  });
  if (res.status !== 303) throw new Error(`sign-in of ${owner.handle} failed: ${res.status}`);
  return client;
}

/** A browser context's storage holding a PageClient's cookies (its session, for one). */
export function storageStateOf(
  site: Site,
  client: PageClient,
): Exclude<BrowserContextOptions["storageState"], string | undefined> {
  const domain = new URL(site.base).hostname;
  return {
    cookies: [...client.cookies].map(([name, value]) => ({
      name,
      value,
      domain,
      path: "/",
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: "Lax" as const,
    })),
    origins: [],
  };
}

/** Signs in through the English sign-in form, as a reader would; lands on /agents. */
export async function signInWithForm(page: Page, site: Site, owner: Owner): Promise<void> {
  await page.goto(`${site.base}/sign-in?next=/agents`);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password", { exact: true }).fill(owner.password);
  await Promise.all([
    page.waitForURL(`${site.base}/agents`),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);
}
