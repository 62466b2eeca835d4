/** @module The paper page's "Related papers" section and its schema.org WebPage, in English and Spanish. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateSchemaOrg } from "../../../test/fixtures/schemaorg/validate.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { htmlLang, PageClient } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { escaped, publish, sectionById } from "./reading.test-helpers.ts";

let test: TestApp;
let beesA: string;
let beesB: string;
let lonely: TestApp;
let alone: string;

const BODY = "## Method\n\nWe describe the data, the instruments and the analysis.\n";

beforeAll(async () => {
  test = await createTestApp();
  beesA = await publish(test, {
    title: "Foraging range of urban bumblebees",
    abstract:
      "Radio-tagged bumblebees in city parks forage over shorter distances than rural colonies, visiting gardens and roadside flowers.",
    body: BODY,
    keywords: [],
  });
  beesB = await publish(test, {
    title: "Bumblebee colonies in city gardens",
    abstract:
      "Bumblebee colonies placed in urban gardens grew faster than those on farmland; their workers foraged on garden and roadside flowers.",
    body: BODY,
    keywords: [],
  });
  await publish(test, {
    title: "Rounding error in compensated summation",
    abstract:
      "Kahan's compensated summation bounds the rounding error of long floating-point sums independently of their length.",
    body: BODY,
    keywords: [],
  });
  lonely = await createTestApp();
  alone = await publish(lonely, { body: BODY });
});
afterAll(async () => {
  await test.close();
  await lonely?.close();
});

/** Every `application/ld+json` block of a page, parsed, in order. */
function jsonLdBlocks(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? "null") as Record<string, unknown>,
  );
}

describe("the paper page's related papers", () => {
  it("lists the closest paper first, linked, with its AI label, in English and Spanish", async () => {
    for (const [prefix, t, lang] of [
      ["", en, "en"],
      ["/es", es, "es"],
    ] as const) {
      const page = await new PageClient(test).get(`${prefix}/papers/${beesA}`);
      expect(page.status).toBe(200);
      expect(htmlLang(page.html)).toBe(lang);
      const section = sectionById(page.html, "related-papers");
      expect(section).toContain(escaped(t.reading.paper.related));
      expect(section).toContain(escaped(t.reading.paper.relatedIntro));
      const links = [...section.matchAll(/<a href="([^"]+)"[^>]*>/g)].map((m) => m[1]);
      expect(links[0]).toBe(`${prefix}/papers/${beesB}`);
      // The titles are English: marked so on the Spanish page too (WCAG 3.1.2).
      expect(section).toContain(`<a href="${prefix}/papers/${beesB}" lang="en">`);
      expect(links).not.toContain(`${prefix}/papers/${beesA}`);
      expect(section).toContain(escaped(t.reading.aiLabel));
      // The machine-readable links name the API twin.
      expect(sectionById(page.html, "machine-links")).toContain(
        `href="/api/v1/papers/${beesA}/related"`,
      );
    }
  });

  it("says so when no other paper is close, in English and Spanish", async () => {
    for (const [prefix, t] of [
      ["", en],
      ["/es", es],
    ] as const) {
      const page = await new PageClient(lonely).get(`${prefix}/papers/${alone}`);
      expect(sectionById(page.html, "no-related")).toContain(escaped(t.reading.paper.noRelated));
    }
  });

  it("describes the page as a schema.org WebPage whose relatedLinks are the listed papers", async () => {
    for (const prefix of ["", "/es"]) {
      const page = await new PageClient(test).get(`${prefix}/papers/${beesA}`);
      const [article, webPage] = jsonLdBlocks(page.html);
      expect(article?.["@type"]).toBe("ScholarlyArticle");
      const url = `http://quire.test${prefix}/papers/${beesA}`;
      expect(webPage).toMatchObject({
        "@type": "WebPage",
        "@id": `${url}#webpage`,
        url,
        inLanguage: prefix ? "es" : "en",
        mainEntity: { "@id": article?.["@id"] },
      });
      expect((webPage?.relatedLink as string[] | undefined)?.[0]).toBe(
        `http://quire.test${prefix}/papers/${beesB}`,
      );
      const { problems } = await validateSchemaOrg(webPage);
      expect(problems).toEqual([]);
    }
    const single = await new PageClient(lonely).get(`/papers/${alone}`);
    const webPage = jsonLdBlocks(single.html)[1];
    expect(webPage).not.toHaveProperty("relatedLink");
    expect((await validateSchemaOrg(webPage)).problems).toEqual([]);
  });
});
