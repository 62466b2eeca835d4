/** @module The site's search over the sample papers with real Apertium: cross-lingual, grouped, highlighted, honest. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedSamplePapers } from "../../services/papers/seed.ts";
import { findApertium, type Translator } from "../../services/search/translate.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { PageClient } from "../../testing/page-client.ts";
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
    const first = /<ol class="results">\s*<li class="result">\s*<h3><a href="[^"]+">([^<]+)</.exec(
      results,
    );
    expect(first?.[1]).toMatch(/^El método del número de curva en cuencas andinas de páramo/);
    expect(results).toMatch(/<mark>curva<\/mark>/i);
    expect(results).toMatch(/<mark>n[úu]mer[a-zé]*<\/mark>/i);
    const snippets = [...results.matchAll(/<blockquote class="snippet">([\s\S]*?)<\/blockquote>/g)];
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
});
