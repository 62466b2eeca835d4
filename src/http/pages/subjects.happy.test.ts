/**
 * @module Subjects on the reading pages, both languages: the paper's subjects, /subjects and
 * /subjects/{code} (new this week, the full list, the feed, 404s), the home page's facets and
 * filters from the query string, and the search results' subjects and feed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPaperStatus } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { fixedClock } from "../../testing/db.ts";
import { paperInput, publishPaper } from "../../testing/factories.ts";
import { htmlLang, PageClient } from "../../testing/page-client.ts";
import { HOME_PAGE_SIZE } from "./home.tsx";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { escaped, mainOf } from "./reading.test-helpers.ts";

const NOW = new Date("2026-11-20T12:00:00.000Z");
const DAY = 86_400_000;
let test: TestApp;
let client: PageClient;
const ids: Record<string, string> = {};
const titles: Record<string, string> = {};
const CATALOG = { en, es } as const;
const LANGS = ["en", "es"] as const;
const at = (lang: "en" | "es", path: string) => (lang === "es" ? `/es${path}` : path);
/** The home page with a query string, in a language. */
const home = (lang: "en" | "es", query = "") => `${lang === "es" ? "/es" : "/"}${query}`;

async function publish(name: string, daysAgo: number, subjects?: string[], word?: string) {
  const input = paperInput({
    publishedAt: new Date(NOW.getTime() - daysAgo * DAY),
    ...(subjects ? { subjects } : {}),
  });
  if (word) input.abstract = `${input.abstract} The ${word} effect is central to this study.`;
  ids[name] = (await publishPaper(test.ctx, input)).paper_id;
  titles[name] = input.title;
}

beforeAll(async () => {
  test = await createTestApp({ services: { clock: fixedClock(NOW) } });
  client = new PageClient(test);
  await publish("old-cl", 30, ["cs.CL", "cs.LG"], "quendrabite");
  await publish("new-cl", 2, ["cs.CL"], "quendrabite");
  await publish("new-lg", 1, ["stat.ML", "cs.LG"]);
  await publish("th", 3, ["hep-th"], "quendrabite");
  await publish("none", 4);
  await publish("gone", 1, ["cs.CL"]);
  await setPaperStatus(test.ctx, ids.gone!, "withdrawn");
  // Enough cs.AI papers for the subject's list to page.
  for (let i = 0; i < HOME_PAGE_SIZE + 2; i++) await publish(`ai${i}`, 40 + i, ["cs.AI"]);
}, 300_000);
afterAll(async () => test.close());

/** The paper titles a page lists, in order (each card's title link). */
function listed(html: string): string[] {
  const byTitle = Object.fromEntries(Object.entries(titles).map(([k, v]) => [escaped(v), k]));
  return [
    ...html.matchAll(/<h3 id="paper-[^"]+"><a href="[^"]+"(?: lang="[^"]+")?>([^<]+)<\/a>/g),
  ].map((m) => byTitle[m[1] ?? ""] ?? "?");
}

function section(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  expect(start, `no #${id}`).toBeGreaterThan(-1);
  const end = html.indexOf("</section>", start);
  return html.slice(start, end);
}

describe.each(LANGS)("in %s", (lang) => {
  const t = CATALOG[lang].subjects;

  it("shows a paper's subjects, primary first, named in the page's language and linked", async () => {
    const res = await client.get(at(lang, `/papers/${ids["old-cl"]}`));
    expect(res.status).toBe(200);
    const dd = /<dd id="paper-subjects">([\s\S]*?)<\/dd>/.exec(res.html)?.[1] ?? "";
    const links = [...dd.matchAll(/<a href="([^"]+)" data-subject="([^"]+)">([^<]+)<code>/g)];
    expect(links.map((m) => [m[1], m[2], m[3]?.trim()])).toEqual([
      [
        at(lang, "/subjects/cs.CL"),
        "cs.CL",
        lang === "en" ? "Computation and Language" : "Computación y lenguaje",
      ],
      [
        at(lang, "/subjects/cs.LG"),
        "cs.LG",
        lang === "en" ? "Machine Learning" : "Aprendizaje automático",
      ],
    ]);
    expect(dd).toContain(`(${t.paper.primary})`);
    expect(res.html).toContain(`<dt>${escaped(t.paper.title)}</dt>`);
    // No change link for readers, and nothing at all for a paper without subjects.
    expect(dd).not.toContain("/moderation/");
    const none = await client.get(at(lang, `/papers/${ids.none}`));
    expect(none.html).not.toContain('id="paper-subjects"');
  });

  it("/subjects/{code}: the name as title, new this week, then every paper, and the feed", async () => {
    const res = await client.get(at(lang, "/subjects/cs.CL"));
    expect(res.status).toBe(200);
    expect(htmlLang(res.html)).toBe(lang);
    const name = lang === "en" ? "Computation and Language" : "Computación y lenguaje";
    expect(res.html).toContain(`<h1>${escaped(name)} (cs.CL)</h1>`);
    expect(res.html).toContain(escaped(t.page.kinds.category));
    expect(section(res.html, "new-this-week")).toContain(escaped(t.page.newThisWeek));
    expect(listed(section(res.html, "new-this-week"))).toEqual(["new-cl"]);
    expect(listed(section(res.html, "papers"))).toEqual(["new-cl", "old-cl"]);
    expect(res.html).toContain('href="/feed.atom?subject=cs.CL"');
    expect(res.html).toContain('<link rel="alternate" type="application/atom+xml" title="');
    expect(res.html).toMatch(new RegExp(`${t.page.partOf}:.*href="${at(lang, "/subjects/cs")}"`));
  });

  it("/subjects/{group}: cross-lists and alias members, its categories with counts, paging", async () => {
    const res = await client.get(at(lang, "/subjects/cs"));
    expect(res.status).toBe(200);
    expect(res.html).toContain(escaped(t.page.kinds.group));
    // new-lg is in cs through its cross-list; hep-th is not in cs; 25 papers in all.
    const all = listed(section(res.html, "papers"));
    expect(all.slice(0, 3)).toEqual(["new-lg", "new-cl", "old-cl"]);
    expect(all).toHaveLength(HOME_PAGE_SIZE);
    expect(listed(section(res.html, "new-this-week"))).toEqual(["new-lg", "new-cl"]);
    const categories = /<ul class="facets" id="subject-categories"[\s\S]*?<\/ul>/.exec(
      res.html,
    )?.[0];
    expect(categories).toMatch(/data-subject="cs.CL"><code>cs.CL<\/code> [^(]+\(2\)/);
    expect(categories).toMatch(/data-subject="cs.AI"><code>cs.AI<\/code> [^(]+\(22\)/);
    const older = /href="([^"]+)" rel="next" id="older-link"/.exec(res.html)?.[1];
    expect(older).toMatch(new RegExp(`^${at(lang, "/subjects/cs")}\\?cursor=`));
    const next = await client.get((older as string).replaceAll("&amp;", "&"));
    expect(next.status).toBe(200);
    expect(next.html).not.toContain('id="new-this-week"');
    expect(listed(section(next.html, "papers"))).toHaveLength(25 - HOME_PAGE_SIZE);
  });

  it("sends an alias to its canonical code, and answers unknown codes with the site's 404", async () => {
    const alias = await client.get(at(lang, "/subjects/math.IT"));
    expect(alias.status).toBe(301);
    expect(alias.location).toBe(at(lang, "/subjects/cs.IT"));
    const forged = await client.get(at(lang, "/subjects/cs.CL?cursor=forged"));
    expect(forged.status).toBe(400);
    expect(htmlLang(forged.html)).toBe(lang);
    for (const code of ["cs.XX", "CS", "__proto__"]) {
      const res = await client.get(at(lang, `/subjects/${code}`));
      expect(res.status).toBe(404);
      expect(htmlLang(res.html)).toBe(lang);
      expect(res.html).toContain(escaped(CATALOG[lang].errorPage[404]));
    }
  });

  it("/subjects lists every group and its categories with counts of visible papers", async () => {
    const res = await client.get(at(lang, "/subjects"));
    expect(res.status).toBe(200);
    expect(res.html).toContain(`<h1>${escaped(t.index.title)}</h1>`);
    const cs = lang === "en" ? "Computer Science" : "Ciencias de la computación";
    expect(res.html).toContain(`href="${at(lang, "/subjects/cs")}">${escaped(cs)} (cs)</a>`);
    // cs: old-cl, new-cl, new-lg and 22 cs.AI papers; the withdrawn one does not count.
    expect(res.html).toContain(escaped(`(${t.papers(25, "25")})`));
    expect(res.html).toMatch(/data-subject="cs.CL"><code>cs.CL<\/code> [^(]+\(2\)/);
    expect(res.html).toMatch(/data-subject="hep-th"><code>hep-th<\/code> [^(]+\(1\)/);
    expect(res.html).toMatch(/data-subject="q-fin.GN"><code>q-fin.GN<\/code> [^(]+\(0\)/);
  });

  it("the home page: subject facets with counts that filter the list through the URL", async () => {
    const res = await client.get(home(lang));
    expect(res.status).toBe(200);
    const facets = /<nav aria-labelledby="facets-title"[\s\S]*?<\/nav>/.exec(res.html)?.[0] ?? "";
    expect(facets).toContain(escaped(t.facets.title));
    expect(facets).toMatch(
      new RegExp(
        `href="${home(lang)}\\?subject=cs" data-subject="cs"><code>cs</code> [^(]+\\(25\\)`,
      ),
    );
    expect(facets).toMatch(
      /href="[^"]*\?subject=cs.CL" data-subject="cs.CL"><code>cs.CL<\/code> [^(]+\(2\)/,
    );
    const filtered = await client.get(home(lang, "?subject=cs.CL"));
    expect(filtered.status).toBe(200);
    expect(listed(mainOf(filtered.html))).toEqual(["new-cl", "old-cl"]);
    expect(filtered.html).toContain(
      escaped(
        t.filters.subjectTitle(
          t.label(lang === "en" ? "Computation and Language" : "Computación y lenguaje", "cs.CL"),
        ),
      ),
    );
    expect(filtered.html).toContain('aria-current="true"');
    expect(filtered.html).toContain('type="application/atom+xml" href="/feed.atom?subject=cs.CL"');
  });

  it("the home page takes since, until and sort from the query string, and keeps them when paging", async () => {
    const res = await client.get(home(lang, "?since=2026-11-16&until=2026-11-19&sort=newest"));
    expect(res.status).toBe(200);
    expect(listed(mainOf(res.html))).toEqual(["new-lg", "new-cl", "th", "none"]);
    expect(res.html).toContain('name="since" type="date" value="2026-11-16"');
    // Facets count within the dates, and their links keep them.
    expect(res.html).toMatch(
      /href="[^"]*\?subject=cs&amp;since=2026-11-16&amp;until=2026-11-19" data-subject="cs"><code>cs<\/code> [^(]+\(2\)/,
    );
    const paged = await client.get(home(lang, "?subject=cs&sort=updated"));
    const older = /href="([^"]+)" rel="next" id="older-link"/.exec(paged.html)?.[1] ?? "";
    expect(older).toContain("subject=cs&amp;sort=updated&amp;cursor=");
  });

  it("the home page says which filter is wrong, in the page's language, and lists all papers", async () => {
    for (const [query, message] of [
      ["subject=cs.XX", t.filters.badSubject],
      ["since=2026-02-30", t.filters.badDates],
      ["since=2026-11-10&until=2026-11-01", t.filters.badDates],
      ["sort=oldest", t.filters.badSort],
    ] as const) {
      const res = await client.get(home(lang, `?${query}`));
      expect(res.status, query).toBe(400);
      expect(res.html).toContain(escaped(message));
      expect(listed(mainOf(res.html))).toHaveLength(HOME_PAGE_SIZE);
    }
  });

  it("search results: the subjects of the result papers, linked to their pages, and a feed", async () => {
    const res = await client.get(home(lang, "?q=quendrabite"));
    expect(res.status).toBe(200);
    const part = section(res.html, "search-subjects");
    expect(part).toContain(escaped(t.facets.searchTitle));
    expect(part).toMatch(
      new RegExp(
        `href="${at(lang, "/subjects/cs.CL")}" data-subject="cs.CL"><code>cs.CL</code> [^(]+\\(2\\)`,
      ),
    );
    expect(part).toMatch(/data-subject="hep-th"><code>hep-th<\/code> [^(]+\(1\)/);
    expect(part).toContain(`href="/feed.atom?q=quendrabite" type="application/atom+xml"`);
    expect(part).toContain(escaped(t.facets.followSearch));
  });
});
