/** @module The site's search over the sample papers with real Apertium: cross-lingual, grouped, highlighted, honest. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedSamplePapers } from "../../services/papers/seed.ts";
import { findApertium, type Translator } from "../../services/search/translate.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { publishPaper } from "../../testing/factories.ts";
import { PageClient } from "../../testing/page-client.ts";
import { SEARCH_PAGES } from "./home.tsx";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { escaped, sectionById } from "./reading.test-helpers.ts";

let test: TestApp;
let translator: Translator;

beforeAll(async () => {
  const found = findApertium();
  // CI installs apertium-en-es (.ci/run); the site's cross-lingual search needs it.
  if (!found) throw new Error("Apertium with the en-es pair is needed: apt install apertium-en-es");
  translator = found;
  test = await createTestApp({ services: { translator } });
  await seedSamplePapers({ ...test.ctx, caller: { kind: "operator" } });
});
afterAll(async () => {
  await translator?.close();
  await test?.close();
});

describe("search on the site", () => {
  it("finds the Spanish sample paper for “curve number”, highlighted, without Markdown", async () => {
    const res = await new PageClient(test).get("/?q=curve%20number");
    expect(res.status).toBe(200);
    const results = sectionById(res.html, "search-results");
    const titles = [
      ...results.matchAll(/<li class="result">\s*<h3><a href="[^"]+"( lang="[^"]+")?>([^<]+)</g),
    ];
    // Among the first three papers: two English samples whose figures are curves can rank
    // above it on the word "curve" alone (cross-lingual.apertium.test.ts says which passages).
    const curve = titles.findIndex(([, , title]) =>
      /^El método del número de curva en cuencas andinas de páramo/.test(title ?? ""),
    );
    expect(curve).toBeGreaterThanOrEqual(0);
    expect(curve).toBeLessThan(3);
    // A Spanish title and its passages on an English page say which language they are in.
    expect(titles[curve]?.[1]).toBe(' lang="es"');
    expect(results).toContain('<blockquote class="snippet" lang="es">');
    expect(results).toMatch(/<mark>curva<\/mark>/i);
    expect(results).toMatch(/<mark>n[úu]mer[a-zé]*<\/mark>/i);
    const snippets = [
      ...results.matchAll(/<blockquote class="snippet"[^>]*>([\s\S]*?)<\/blockquote>/g),
    ];
    expect(snippets.length).toBeGreaterThan(0);
    for (const [, text] of snippets) expect(text).not.toMatch(/(^|\s)#{1,6}\s|\*\*|`/);
  });

  it("says “no close matches” for a query that matches nothing well, in the page's language", async () => {
    const q = "zebra migration across savanna rivers";
    const res = await new PageClient(test).get(`/?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    expect(res.html).toContain(escaped(en.reading.home.noCloseMatches(q)));
    expect(res.html).not.toContain('<ol class="results">\n');
    const spanish = await new PageClient(test).get(`/es?q=${encodeURIComponent(q)}`);
    expect(spanish.html).toContain(escaped(es.reading.home.noCloseMatches(q)));
    const weak = sectionById(spanish.html, "search-results");
    expect(weak).toContain(escaped(es.reading.home.weakTitle));
  });

  it("pages through results with a “more results” link, in English and Spanish", async () => {
    // 26 papers with "glacier melt" in title and abstract: over 40 matching passages.
    for (let i = 1; i <= 26; i++) {
      await publishPaper(test.ctx, {
        title: `Glacier melt in valley ${i}`,
        abstract: `We measure glacier melt in valley ${i} over ${i + 2} summers and compare it with snow cover.`,
      });
    }
    const q = encodeURIComponent("glacier melt");
    const first = await new PageClient(test).get(`/?q=${q}`);
    expect(first.status).toBe(200);
    const more = /<a href="([^"]+)" rel="next" id="more-results">([^<]+)<\/a>/.exec(
      sectionById(first.html, "search-results"),
    );
    expect(more?.[2]).toBe(en.reading.home.moreResults);
    expect(more?.[1]).toBe(`/?q=${q}&amp;page=2`);
    const firstQuotes = quotesOf(first.html);
    expect(firstQuotes.length).toBeGreaterThan(0);

    const second = await new PageClient(test).get(`/?q=${q}&page=2`);
    expect(second.status).toBe(200);
    const page2 = sectionById(second.html, "search-results");
    expect(page2).toContain(escaped(en.reading.home.resultsRange("21", "40")));
    expect(page2).toMatch(/<a href="\/\?q=glacier%20melt" rel="first">/);
    // The second page continues the ranking: none of the first page's passages again.
    for (const quote of quotesOf(second.html)) expect(firstQuotes).not.toContain(quote);

    // The last page the site offers has no "more results" link.
    const last = await new PageClient(test).get(`/?q=${q}&page=${SEARCH_PAGES}`);
    expect(last.status).toBe(200);
    expect(last.html).not.toContain('id="more-results"');

    const spanish = await new PageClient(test).get(`/es?q=${q}`);
    expect(spanish.html).toMatch(
      new RegExp(
        `href="/es\\?q=${q}&amp;page=2" rel="next" id="more-results">${es.reading.home.moreResults}<`,
      ),
    );
  });

  it("refuses a page the site does not offer with a message, and shows the first results", async () => {
    for (const page of ["0", "x", String(SEARCH_PAGES + 1), "-1"]) {
      const res = await new PageClient(test).get(`/es?q=glacier&page=${page}`);
      expect(res.status).toBe(400);
      expect(res.html).toContain(escaped(es.reading.home.badPage(String(SEARCH_PAGES))));
      expect(sectionById(res.html, "search-results")).toContain('<ol class="results">');
    }
    const beyond = await new PageClient(test).get(`/?q=curve%20number&page=${SEARCH_PAGES}`);
    expect(beyond.status).toBe(200);
    expect(beyond.html).toContain(escaped(en.reading.home.noMoreResults));
  });
});

/** The (HTML) snippets of a results page, in order. */
function quotesOf(html: string): string[] {
  return [...html.matchAll(/<blockquote class="snippet"[^>]*>([\s\S]*?)<\/blockquote>/g)].map(
    (m) => m[1]!,
  );
}
