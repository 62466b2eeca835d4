/** @module The informational pages in both languages: sections, headings, hreflang, footer links, contact. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { htmlLang, PageClient } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { escaped, headingLevels, headingsInOrder } from "./moderation.test-helpers.ts";

let test: TestApp;
let withContact: TestApp;

beforeAll(async () => {
  test = await createTestApp();
  withContact = await createTestApp({
    services: {
      settings: {
        baseUrl: "http://quire.test",
        chunkMaxChars: 2000,
        filesMaxBytes: 2048 * 1024 * 1024,
        keyPrefix: "archive",
        contactEmail: "abuse@quire.test",
      },
    },
  });
});
afterAll(async () => {
  await test.close();
  await withContact.close();
});

const PAGES = [
  ["/how-it-works", en.info.howItWorks, es.info.howItWorks],
  ["/why", en.info.why, es.info.why],
  ["/legal", en.info.legal, es.info.legal],
] as const;

describe("the informational pages", () => {
  it.each(PAGES)(
    "%s answers in both languages with hreflang and ordered headings",
    async (path, english, spanish) => {
      const client = new PageClient(test);
      for (const [lang, prefix, page] of [
        ["en", "", english],
        ["es", "/es", spanish],
      ] as const) {
        const res = await client.get(`${prefix}${path}`);
        expect(res.status).toBe(200);
        expect(htmlLang(res.html)).toBe(lang);
        expect(res.html).toContain(`<h1>${escaped(page.title)}</h1>`);
        expect(res.html).toContain(
          `<link rel="alternate" hreflang="en" href="http://quire.test${path}"/>`,
        );
        expect(res.html).toContain(
          `<link rel="alternate" hreflang="es" href="http://quire.test/es${path}"/>`,
        );
        expect(headingsInOrder(res.html), headingLevels(res.html).join(",")).toBe(true);
        // Every section is there, in order, with its fragment id and a contents link.
        let at = 0;
        for (const section of page.sections) {
          const heading = `<h2 id="${section.id}-title">${escaped(section.title)}</h2>`;
          const found = res.html.indexOf(heading, at);
          expect(found, section.id).toBeGreaterThan(at);
          at = found;
          expect(res.html).toContain(`<a href="#${section.id}">`);
        }
      }
      const spanishPage = await client.get(`/es${path}`);
      expect(spanishPage.html).not.toContain(escaped(english.lead));
    },
  );

  it("the Spanish catalog has the same sections, with the same ids, as the English one", () => {
    for (const [, english, spanish] of PAGES) {
      expect(spanish.sections.map((s) => s.id)).toEqual(english.sections.map((s) => s.id));
      expect(spanish.title).not.toBe(english.title);
    }
  });

  it("links the pages from every page's footer, in the page's language", async () => {
    const client = new PageClient(test);
    const home = await client.get("/");
    for (const path of ["/how-it-works", "/why", "/legal"]) {
      expect(home.html).toContain(`<a href="${path}">`);
    }
    expect(home.html).toContain(escaped(en.info.footer.legal));
    const spanish = await client.get("/es/agents");
    for (const path of ["/how-it-works", "/why", "/legal"]) {
      expect(spanish.html).toContain(`<a href="/es${path}">`);
    }
    expect(spanish.html).toContain(escaped(es.info.footer.legal));
  });

  it("localises links to site pages and leaves machine addresses alone", async () => {
    const spanish = await new PageClient(test).get("/es/how-it-works");
    expect(spanish.html).toContain('href="/es/agents"');
    expect(spanish.html).toContain('href="/es/legal#moderation"');
    expect(spanish.html).toContain('href="/api/v1/openapi.json"');
    expect(spanish.html).toContain('href="/llms.txt"');
    expect(spanish.html).toContain("<code>/mcp</code>");
    expect(spanish.html).toContain("<code>quire_sk_…</code>");
  });

  it("names the configured contact address and key prefix, and says so when there is none", async () => {
    const configured = await new PageClient(withContact).get("/legal");
    expect(configured.html).toContain('<a href="mailto:abuse@quire.test">abuse@quire.test</a>');
    expect(configured.html).toContain('id="contact-text"');
    const how = await new PageClient(withContact).get("/es/how-it-works");
    expect(how.html).toContain("<code>archive_sk_…</code>");

    const none = await new PageClient(test).get("/legal");
    expect(none.html).not.toContain("mailto:");
    expect(none.html).toContain(escaped(en.info.contactNone));
    expect(none.html).toContain(escaped(en.info.noContact));
    const spanish = await new PageClient(test).get("/es/legal");
    expect(spanish.html).toContain(escaped(es.info.contactNone));
  });

  it("says what the privacy section promises about cookies, matching the cookies the site sets", async () => {
    const legal = await new PageClient(test).get("/legal");
    for (const cookie of ["quire_session", "quire_csrf", "quire_lang", "quire_flash"]) {
      expect(legal.html).toContain(`<code>${cookie}</code>`);
    }
    const { COOKIES } = await import("./cookies.ts");
    expect(Object.values(COOKIES).sort()).toEqual(
      ["quire_csrf", "quire_flash", "quire_lang", "quire_session"].sort(),
    );
  });
});
