/**
 * @module The checks every page in PAGES gets, for one language (a test file per language
 * keeps each file short): at desktop and phone widths, in Chromium against a real
 * `quire serve`, the right status and `<html lang>`, no serious or critical axe-core
 * violations, nothing scrolling sideways, under 100 KB of HTML, CSS and JS, no console errors
 * or dialogs, and on Spanish pages none of the site's English sentences. A screenshot of each
 * goes to artifacts/screenshots/<lang>/<name>-<width>.png; at desktop width the page is also
 * checked for contrast, and shot, in the dark colour scheme.
 */
import type { Browser, BrowserContextOptions } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../../src/http/pages/i18n/en.ts";
import { es } from "../../src/http/pages/i18n/es.ts";
import { type Lang, localePath } from "../../src/http/pages/i18n/index.ts";
import {
  axeCheck,
  createAgentOverHttp,
  createModeratorWithCli,
  createOwnerOverHttp,
  horizontalOverflow,
  launchChromium,
  type Owner,
  openTab,
  type Site,
  screenshot,
  serveSite,
  setPasswordOverHttp,
  signInOverHttp,
  storageStateOf,
  VIEWPORTS,
  type ViewportName,
  visibleText,
} from "../../src/testing/browser.ts";
import { type FakeChatServer, startFakeChatServer } from "../../src/testing/chat-server.ts";
import { csrfTokenIn } from "../../src/testing/page-client.ts";
import { fillModeration } from "./moderation-content.ts";
import { PAGES, type SitePage, type Visitor } from "./pages.ts";

const MAX_PAGE_BYTES = 100 * 1024;
const SENTINEL = "\u0000";

/**
 * The English catalog's sentences (string leaves, and the fixed parts of message functions)
 * of more than three words that the Spanish catalog does not also use.
 */
export function englishSentences(): string[] {
  const fragments = (node: unknown, out: Set<string>) => {
    if (typeof node === "string") out.add(node);
    else if (typeof node === "function") {
      // Formatters of structured params (the Spanish screening details) cannot take the
      // sentinel; they have no English counterpart to exclude, so they are passed over.
      let text: string;
      try {
        text = String((node as (...args: unknown[]) => unknown)(SENTINEL, SENTINEL));
      } catch {
        return out;
      }
      for (const part of text.split(SENTINEL)) out.add(part);
    } else if (node && typeof node === "object") {
      for (const value of Object.values(node)) fragments(value, out);
    }
    return out;
  };
  const normal = (s: string) => s.replace(/\s+/g, " ").trim();
  const spanish = new Set([...fragments(es, new Set())].map(normal));
  return [...fragments(en, new Set())]
    .map(normal)
    .filter((s) => s.split(" ").length > 3 && !spanish.has(s));
}

/** Registers the file's set-up (browser, server, signed-in owners) and a test per page and width. */
export function describeEveryPage(lang: Lang): void {
  let browser: Browser;
  let site: Site;
  /** The site's LLM screener: the moderation set-up makes it fail and flag papers. */
  let chat: FakeChatServer;
  const states: Partial<Record<Visitor, BrowserContextOptions["storageState"]>> = {};
  /** What `{paper}`, `{agent}` … in PAGES' paths stand for. */
  const ids: Record<string, string> = {};
  const english = lang === "es" ? englishSentences() : [];
  const moderator: Owner = {
    handle: "pages-moderator",
    email: "pages-moderator@example.org",
    password: "a moderator browser passphrase",
  };

  beforeAll(async () => {
    chat = await startFakeChatServer();
    [browser, site] = await Promise.all([
      launchChromium(),
      serveSite(`browser_pages_${lang}`, {
        beforeServe: (env) => createModeratorWithCli(env, moderator),
        env: { SCREENER_URL: chat.url, SCREENER_MODEL: "screener-test-1" },
      }),
    ]);
    // The newest sample paper, taken before the moderation set-up publishes any of its own.
    const listed = await fetch(`${site.base}/api/v1/papers?limit=1`);
    const { papers } = (await listed.json()) as { papers: { id: string }[] };
    ids.paper = papers[0]?.id ?? "";
    if (!ids.paper) throw new Error("the sample papers were not loaded");

    // Owners are made and signed in over HTTP (flows.e2e.test.ts does it by hand).
    const [verified, unverified, author] = await Promise.all([
      createOwnerOverHttp(site, "pages-owner"),
      createOwnerOverHttp(site, "pages-unverified", { verified: false }),
      createOwnerOverHttp(site, "pages-author"),
      setPasswordOverHttp(site, moderator),
    ]);
    const owner = await signInOverHttp(site, verified);
    // Two agents, one of them with its key revoked, so the table shows both kinds of row.
    await createAgentOverHttp(owner, "Reader bot");
    const retired = await createAgentOverHttp(owner, "Retired bot");
    const revoke = `/agents/${retired}/revoke`;
    const { html } = await owner.get("/agents");
    await owner.post(revoke, { _csrf: csrfTokenIn(html, revoke) });
    states.owner = storageStateOf(site, owner);
    states["unverified-owner"] = storageStateOf(site, await signInOverHttp(site, unverified));

    const moderatorClient = await signInOverHttp(site, moderator);
    const made = await fillModeration(chat, await signInOverHttp(site, author), moderatorClient);
    Object.assign(ids, made);
    states.moderator = storageStateOf(site, moderatorClient);
  });

  afterAll(async () => {
    await browser?.close();
    await site?.stop();
    await chat?.close();
  });

  /** The URL of a page (path with query) in this file's language. */
  function urlOf(page: SitePage): string {
    const full = page.path.replace(/\{([a-z-]+)\}/g, (_, name: string) => {
      const id = ids[name];
      if (!id) throw new Error(`no id for {${name}} in ${page.path}`);
      return id;
    });
    const q = full.indexOf("?");
    const path = q >= 0 ? full.slice(0, q) : full;
    const query = q >= 0 ? full.slice(q) : "";
    return `${site.base}${localePath(lang, path)}${query}`;
  }

  describe.each(Object.keys(VIEWPORTS) as ViewportName[])(
    `every page in ${lang} at %s width`,
    (viewport) => {
      it.each(PAGES)("$name", async (sitePage) => {
        const tab = await openTab(browser, { lang, viewport, storageState: states[sitePage.as] });
        try {
          const { page } = tab;
          const url = urlOf(sitePage);
          const res = await page.goto(url);
          expect(res?.status()).toBe(sitePage.status ?? 200);
          expect(page.url()).toBe(url);
          expect(await page.getAttribute("html", "lang")).toBe(lang);
          await screenshot(page, `${sitePage.name}-${viewport}`);

          expect(await axeCheck(page)).toEqual([]);
          expect(await horizontalOverflow(page, VIEWPORTS[viewport].width)).toBe(0);
          expect(await tab.weight()).toBeLessThan(MAX_PAGE_BYTES);
          if (lang === "es") {
            const text = (await visibleText(page)).replace(/\s+/g, " ");
            expect(english.filter((s) => text.includes(s))).toEqual([]);
          }
          // A page that answers with an error status makes Chromium log it; nothing else may.
          const expected = `the server responded with a status of ${sitePage.status}`;
          expect(
            tab.consoleErrors.filter((e) => !(sitePage.status && e.includes(expected))),
          ).toEqual([]);
          expect(tab.dialogs).toEqual([]);

          if (viewport === "desktop") {
            // The dark scheme changes only colours: contrast is what to check again.
            await page.emulateMedia({ colorScheme: "dark" });
            await screenshot(page, `${sitePage.name}-dark`);
            expect(await axeCheck(page, { rules: ["color-contrast"] })).toEqual([]);
          }
        } finally {
          await tab.close();
        }
      });
    },
  );
}
