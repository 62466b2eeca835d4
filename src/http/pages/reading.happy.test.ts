import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { citationMetaTags } from "../../services/papers/citations.ts";
import type { PaperDetail } from "../../services/papers/schemas.ts";
import { agentIn, type TestAgent } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { csrfTokenIn, htmlLang, PageClient } from "../../testing/page-client.ts";
import { HOME_PAGE_SIZE } from "./home.tsx";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { formatDate } from "./i18n/index.ts";
import { COMMENTS_PAGE_SIZE } from "./paper/data.ts";
import {
  citationTags,
  escaped,
  jsonLdOf,
  mainOf,
  newVersion,
  postAiReview,
  postComment,
  publish,
  reviewForm,
  sectionById,
  signedInOwner,
} from "./reading.test-helpers.ts";

let test: TestApp;
let agent: TestAgent;
/** Two versions, keywords Glaciers and ice, comments and reviews of both kinds. */
let glacier: string;
/** 50 comments of ordinary length. */
let busy: string;
const fillers: string[] = [];

const GLACIER_V1 = {
  title: "Mass balance of alpine glaciers from repeat photogrammetry",
  abstract:
    "We estimate the mass balance of twelve alpine glaciers from repeat photogrammetry and compare it with stake measurements taken over a decade of field seasons.",
  body: "# Introduction\n\nGlaciers lose mass as summers warm.\n\n## Data\n\nRepeat photogrammetry of twelve glaciers.\n\n## Method\n\nWe difference elevation models and convert volume to mass with a density assumption.\n",
  keywords: ["Glaciers", "ice"],
};

beforeAll(async () => {
  test = await createTestApp();
  agent = await agentIn(test.ctx, "verified", "Careful Reader");
  glacier = await publish(test, GLACIER_V1);
  await newVersion(test, glacier, {
    ...GLACIER_V1,
    title: "Mass balance of alpine glaciers from repeat drone photogrammetry",
    body: GLACIER_V1.body.replace(
      "with a density assumption.",
      "with a density of 850 kg per cubic metre, as is usual.",
    ),
    changelog: "Density made explicit; drones named in the title.",
  });
  await postComment(test, agent, glacier, "The density assumption deserves a sensitivity test.");
  await postAiReview(
    test,
    agent,
    glacier,
    { soundness: 4, presentation: 4, contribution: 4, confidence: 5, overall: 10 },
    "An AI's enthusiastic review.",
  );
  busy = await publish(test);
  for (let i = 0; i < 50; i++) {
    await postComment(
      test,
      agent,
      busy,
      `Comment ${i}: ${"the uncertainty of the stake network matters for the comparison; ".repeat(8)}`,
    );
  }
  for (let i = 0; i < HOME_PAGE_SIZE; i++) fillers.push(await publish(test));
});
afterAll(async () => test.close());

describe("home: the newest papers", () => {
  it("lists papers newest first with title, AI label, model, screening, counts and date, in both languages", async () => {
    const client = new PageClient(test);
    for (const [prefix, t, lang] of [
      ["", en, "en"],
      ["/es", es, "es"],
    ] as const) {
      const res = await client.get(prefix || "/");
      expect(res.status).toBe(200);
      expect(htmlLang(res.html)).toBe(lang);
      const main = mainOf(res.html);
      expect(main).toContain(escaped(t.reading.home.listTitle));
      expect(main).toContain(escaped(t.reading.home.intro));
      expect(main).toContain(`href="${prefix}/agents"`);
      // The newest paper comes first; a page holds HOME_PAGE_SIZE papers.
      const ids = [...main.matchAll(/<article aria-labelledby="paper-([0-9.]+)"/g)].map(
        (m) => m[1],
      );
      expect(ids).toHaveLength(HOME_PAGE_SIZE);
      expect(ids[0]).toBe(fillers.at(-1));
      const card = sectionById(main, `paper-${fillers.at(-1)}`);
      expect(card).toContain(`href="${prefix}/papers/${fillers.at(-1)}"`);
      expect(main).toContain(`<span class="ai-label">${escaped(t.reading.aiLabel)}</span>`);
      expect(main).toMatch(
        new RegExp(
          `${escaped(t.reading.verification.passed)}|${escaped(t.reading.verification.warnings)}`,
        ),
      );
      expect(main).toContain(escaped(t.reading.card.comments(0, "0")));
      expect(main).toContain(escaped(formatDate(lang, "2026-11-02T12:00:00.000Z")));
    }
  });

  it("pages with the list's cursor: older papers, then back to the newest", async () => {
    const client = new PageClient(test);
    const first = await client.get("/");
    const href = /href="(\/\?cursor=[^"]+)" rel="next" id="older-link"/.exec(first.html)?.[1];
    expect(href).toBeTruthy();
    const second = await client.get(href!);
    expect(second.status).toBe(200);
    const ids = (html: string) =>
      [...html.matchAll(/aria-labelledby="paper-([0-9.]+)"/g)].map((m) => m[1]);
    expect(ids(second.html)).toEqual([busy, glacier]);
    expect(ids(first.html).some((id) => id === busy || id === glacier)).toBe(false);
    expect(second.html).toContain(escaped(en.reading.home.newest));
    expect(second.html).not.toContain('rel="next"');
    const spanish = await client.get(`/es${href!.slice(1)}`);
    expect(spanish.status).toBe(200);
    expect(ids(spanish.html)).toEqual([busy, glacier]);
    expect(spanish.html).toContain(escaped(es.reading.home.newest));
  });

  it("filters by keyword, case-insensitively; keywords on cards link to the filter", async () => {
    const client = new PageClient(test);
    const home = await client.get(`/?cursor=${encodeURIComponent(await cursorAfterFirstPage())}`);
    expect(home.html).toContain('href="/?keyword=Glaciers"');
    for (const keyword of ["Glaciers", "glaciers", "ICE"]) {
      const res = await client.get(`/?keyword=${encodeURIComponent(keyword)}`);
      expect(res.status).toBe(200);
      const ids = [...res.html.matchAll(/aria-labelledby="paper-([0-9.]+)"/g)].map((m) => m[1]);
      expect(ids).toEqual([glacier]);
      expect(res.html).toContain(escaped(en.reading.home.keywordTitle(keyword)));
      expect(res.html).toContain(escaped(en.reading.home.allPapers));
    }
    const spanish = await client.get("/es?keyword=ice");
    expect(spanish.html).toContain(escaped(es.reading.home.keywordTitle("ice")));
    expect(spanish.html).toContain(`href="/es/papers/${glacier}"`);
  });

  it("searches the text (lexical results for a matching query), grouped by paper", async () => {
    const client = new PageClient(test);
    const res = await client.get("/?q=photogrammetry%20glaciers");
    expect(res.status).toBe(200);
    const results = sectionById(res.html, "search-results");
    expect(results).toContain(escaped(en.reading.home.resultsTitle("photogrammetry glaciers")));
    expect(results).toContain(`href="/papers/${glacier}"`);
    expect(results).toContain('<blockquote class="snippet" lang="en">');
    expect(results).toMatch(/<mark>photogrammetry<\/mark>/i);
    expect(res.html).toContain('value="photogrammetry glaciers"');
    const spanish = await client.get("/es?q=photogrammetry");
    expect(spanish.html).toContain(escaped(es.reading.home.resultsTitle("photogrammetry")));
    // On a Spanish page, an English paper's title and passages are marked as English.
    const spanishResults = sectionById(spanish.html, "search-results");
    expect(spanishResults).toContain(`<a href="/es/papers/${glacier}" lang="en">`);
    expect(spanishResults).toContain('<blockquote class="snippet" lang="en">');
    expect(spanish.html).toContain('id="language-switch" href="/?q=photogrammetry"');
  });

  it("shows a caption passage as one, in English and Spanish", async () => {
    const paper = await publish(test, {
      body: "## Results\n\nCounts by island.\n\n![Figure 1: Quokka density by island.](figures/q.png) {#figure-1}\n",
    });
    for (const [prefix, t] of [
      ["", en],
      ["/es", es],
    ] as const) {
      const res = await new PageClient(test).get(`${prefix || "/"}?q=quokka%20density`);
      const results = sectionById(res.html, "search-results");
      expect(results).toContain(`href="${prefix}/papers/${paper}"`);
      expect(results).toContain(escaped(t.reading.home.matchIn.caption));
      expect(results).toMatch(/<mark>Quokka<\/mark> <mark>density<\/mark> by island\./);
    }
  });

  it("says when nothing matches a search or a keyword", async () => {
    const client = new PageClient(test);
    const none = await client.get("/?q=zzqqxxyy%20wwvvuu");
    expect(none.status).toBe(200);
    expect(none.html).toContain(escaped(en.reading.home.noResults));
    const unknown = await client.get("/es?keyword=volcanes");
    expect(unknown.status).toBe(200);
    expect(unknown.html).toContain(escaped(es.reading.home.unknownKeyword("volcanes")));
  });
});

async function cursorAfterFirstPage(): Promise<string> {
  const first = await new PageClient(test).get("/");
  return decodeURIComponent(/href="\/\?cursor=([^"]+)"/.exec(first.html)?.[1] ?? "");
}

describe("the paper page", () => {
  it("shows the current version in both languages: text, metadata, AI label, screening", async () => {
    const client = new PageClient(test);
    const api = (await (await test.app.request(`/api/v1/papers/${glacier}`)).json()) as PaperDetail;
    for (const [prefix, t, lang] of [
      ["", en, "en"],
      ["/es", es, "es"],
    ] as const) {
      const res = await client.get(`${prefix}/papers/${glacier}`);
      expect(res.status).toBe(200);
      expect(htmlLang(res.html)).toBe(lang);
      const main = mainOf(res.html);
      const textLang = api.paper.language === "und" ? "" : ` lang="${api.paper.language}"`;
      expect(main).toContain(`<h1 id="paper-title"${textLang}>${escaped(api.version.title)}</h1>`);
      expect(main).toContain(escaped(GLACIER_V1.abstract));
      // The body's shallowest heading continues the page's outline (h2 "Full text" → h3).
      expect(main).toContain("<h3>Introduction</h3>");
      expect(main).toContain("<h4>Data</h4>");
      expect(main).toContain("850 kg per cubic metre");
      expect(main).toContain(`<span class="ai-label">${escaped(t.reading.aiLabel)}</span>`);
      expect(main).toContain(escaped(t.reading.paper.aiNotice(api.version.ai_model)));
      expect(main).toContain(escaped(t.reading.paper.importedNote));
      expect(main).toContain(escaped(api.paper.license));
      expect(main).toContain(`href="${prefix || "/"}?keyword=Glaciers"`);
      const screening = sectionById(main, "screening");
      expect(screening).toContain(escaped(api.paper.verification.screened_by));
      expect(screening).toContain(`datetime="${api.paper.verification.screened_at}"`);
      expect(screening).toContain(escaped(t.reading.verification[api.paper.verification.status]));
      expect(res.html).toContain(
        `<link rel="alternate" hreflang="es" href="http://quire.test/es/papers/${glacier}"/>`,
      );
      expect(res.html).toContain(
        `<link rel="canonical" href="http://quire.test${prefix}/papers/${glacier}"/>`,
      );
    }
  });

  it("shows screening warnings when a version passed with warnings", async () => {
    const short = await publish(test, { body: "Too short a body for a real paper." });
    const res = await new PageClient(test).get(`/papers/${short}`);
    expect(res.html).toContain(escaped(en.reading.verification.warnings));
    const warnings = sectionById(res.html, "screening-warnings");
    expect(warnings).toContain(escaped(en.reading.paper.warningsTitle));
    expect(warnings).toContain("The body is only 34 characters long (under 200).");
    expect(warnings).not.toContain('lang="');
    const spanish = await new PageClient(test).get(`/es/papers/${short}`);
    const notes = sectionById(spanish.html, "screening-warnings");
    expect(notes).toContain(escaped(es.reading.paper.warningsTitle));
    expect(notes).toContain(escaped(es.submit.reasons.codes.body_short));
    expect(notes).toContain("El cuerpo solo tiene 34 caracteres (menos de 200).");
    expect(notes).not.toContain('lang="en"');
    expect(spanish.html).not.toContain("The body is only");
    expect(spanish.html).not.toContain("Add the full text");
  });

  it("lists every version with its changelog; each version is readable at {id}vN", async () => {
    const client = new PageClient(test);
    const res = await client.get(`/papers/${glacier}`);
    const history = sectionById(res.html, "version-history");
    expect(history).toContain(`href="/papers/${glacier}v1"`);
    expect(history).toContain(escaped("Density made explicit; drones named in the title."));
    expect(history).toContain(escaped(en.reading.paper.noChangelog));
    expect(history).toContain(`href="/papers/${glacier}/diff?from=1&amp;to=2"`);

    const v1 = await client.get(`/es/papers/${glacier}v1`);
    expect(v1.status).toBe(200);
    expect(v1.html).toContain(escaped(GLACIER_V1.title));
    expect(v1.html).toContain("with a density assumption.");
    expect(v1.html).toContain(escaped(es.reading.paper.older));
    expect(v1.html).toContain(`href="/es/papers/${glacier}"`);
    expect(v1.html).toContain(
      `<link rel="alternate" hreflang="en" href="http://quire.test/papers/${glacier}v1"/>`,
    );
    expect(v1.html).toContain(`id="language-switch" href="/papers/${glacier}v1"`);
  });

  it("embeds the API's JSON-LD exactly, for the paper and for a version", async () => {
    for (const ref of [glacier, `${glacier}v1`]) {
      const page = await new PageClient(test).get(`/es/papers/${ref}`);
      const api = await (await test.app.request(`/api/v1/papers/${ref}?format=jsonld`)).json();
      expect(jsonLdOf(page.html)).toEqual(api);
    }
  });

  it("carries Google Scholar citation_* tags made from the same data as the API's citations", async () => {
    for (const ref of [glacier, `${glacier}v1`]) {
      const page = await new PageClient(test).get(`/papers/${ref}`);
      const detail = (await (
        await test.app.request(`/api/v1/papers/${ref}`)
      ).json()) as PaperDetail;
      const expected = citationMetaTags(detail, "http://quire.test", {
        versioned: ref.includes("v"),
      });
      expect(citationTags(page.html)).toEqual(expected);
      expect(expected.map((t) => t.name)).toContain("citation_title");
    }
  });

  it("links to the JSON, the JSON-LD, the context, related papers, the discussion feed and the citation formats, which all answer", async () => {
    const page = await new PageClient(test).get(`/papers/${glacier}`);
    const links = sectionById(page.html, "machine-links");
    const hrefs = [...links.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
    expect(hrefs).toEqual([
      `/api/v1/papers/${glacier}`,
      `/api/v1/papers/${glacier}?format=jsonld`,
      `/api/v1/papers/${glacier}/context`,
      `/api/v1/papers/${glacier}/related`,
      `/papers/${glacier}/discussion.atom`,
      `/api/v1/papers/${glacier}?format=bibtex`,
      `/api/v1/papers/${glacier}?format=ris`,
      `/api/v1/papers/${glacier}?format=csl`,
    ]);
    for (const href of hrefs) expect((await test.app.request(href)).status).toBe(200);
  });

  it("labels each comment with the agent, its model, its owner (linked) and the AI label", async () => {
    const res = await new PageClient(test).get(`/es/papers/${glacier}`);
    const comments = sectionById(res.html, "comments");
    expect(comments).toContain(escaped(es.reading.paper.comments));
    expect(comments).toContain(
      `<a class="agent-name" href="/es/agents/${agent.id}">Careful Reader</a>`,
    );
    expect(comments).toContain('<span class="model">test-model-2</span>');
    expect(comments).toContain(
      `<a class="owner-handle" href="/es/owners/${agent.ownerHandle}">${agent.ownerHandle}</a>`,
    );
    expect(comments).toContain(`<span class="ai-label">${escaped(es.reading.aiLabel)}</span>`);
    expect(comments).toContain("The density assumption deserves a sensitivity test.");
    expect(comments).toContain(escaped(es.reading.paper.onVersion(2)));
  });

  it("pages comments with the service's cursor, each once", async () => {
    const client = new PageClient(test);
    const seen: string[] = [];
    let path: string | undefined = `/papers/${busy}`;
    let pages = 0;
    while (path) {
      const res = await client.get(path);
      expect(res.status).toBe(200);
      const comments = sectionById(res.html, "comments");
      const numbers = [...comments.matchAll(/<p>Comment (\d+):/g)].map((m) => m[1]!);
      expect(numbers.length).toBeLessThanOrEqual(COMMENTS_PAGE_SIZE);
      seen.push(...numbers);
      if (pages > 0) expect(res.html).toContain(escaped(en.reading.paper.firstComments));
      path = /href="(\/papers\/[0-9.]+\?comments=[^"#]+)#comments" rel="next"/.exec(res.html)?.[1];
      pages++;
    }
    expect(pages).toBe(Math.ceil(50 / COMMENTS_PAGE_SIZE));
    expect(new Set(seen).size).toBe(50);
    expect(seen).toHaveLength(50);
  });
});

describe("reviews: human and AI advisory, never mixed", () => {
  it("a human review posted with the form is shown with its own averages; AI reviews never move them", async () => {
    const { client, handle } = await signedInOwner(test);
    const page = await client.get(`/papers/${glacier}`);
    expect(page.html).toContain('id="review-form"');
    const res = await client.post(`/papers/${glacier}/reviews`, {
      _csrf: csrfTokenIn(page.html, `/papers/${glacier}/reviews`),
      ...reviewForm(
        { soundness: 2, presentation: 3, contribution: 1, confidence: 3, overall: 2 },
        "Sound idea.\n\nThe error budget is missing.",
      ),
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/papers/${glacier}?notice=review-posted#human-reviews`);
    const after = await client.get(res.location!.replace(/#.*/, ""));
    expect(after.html).toContain(escaped(en.reading.notices["review-posted"]));
    const human = sectionById(after.html, "human-reviews");
    expect(human).toContain(escaped(en.reading.paper.reviewBy(handle)));
    expect(human).toContain("<p>The error budget is missing.</p>");
    const humanMeans = sectionById(after.html, "human-means");
    expect(humanMeans).toContain(
      `<td data-score="overall">${en.reading.paper.outOf("2", 10)}</td>`,
    );
    const aiMeans = sectionById(after.html, "ai-means");
    expect(aiMeans).toContain(`<td data-score="overall">${en.reading.paper.outOf("10", 10)}</td>`);

    // Another AI review (overall 1): the AI mean moves, the human mean does not.
    const second = await agentIn(test.ctx, "verified", "Second Opinion");
    await postAiReview(
      test,
      second,
      glacier,
      { soundness: 1, presentation: 1, contribution: 1, confidence: 1, overall: 1 },
      "A harsh AI review.",
    );
    const later = await client.get(`/papers/${glacier}`);
    expect(sectionById(later.html, "human-means")).toContain(
      `<td data-score="overall">${en.reading.paper.outOf("2", 10)}</td>`,
    );
    expect(sectionById(later.html, "ai-means")).toContain(
      `<td data-score="overall">${en.reading.paper.outOf("5.5", 10)}</td>`,
    );
    const ai = sectionById(later.html, "ai-reviews");
    expect(ai).toContain(escaped(en.reading.paper.aiReviewBy("Second Opinion")));
    expect(ai).not.toContain(escaped(en.reading.paper.reviewBy(handle)));
    expect(sectionById(later.html, "human-reviews")).not.toContain("A harsh AI review.");
  });

  it("works in Spanish, with Spanish decimals, redirecting back to the Spanish page", async () => {
    const paper = await publish(test);
    for (const overall of [7, 8]) {
      const { client } = await signedInOwner(test, { lang: "es" });
      const page = await client.get(`/es/papers/${paper}`);
      const res = await client.post(`/es/papers/${paper}/reviews`, {
        _csrf: csrfTokenIn(page.html, `/es/papers/${paper}/reviews`),
        ...reviewForm(
          { soundness: 3, presentation: 3, contribution: 3, confidence: 4, overall },
          "Bien.",
        ),
      });
      expect(res.status).toBe(303);
      expect(res.location).toBe(`/es/papers/${paper}?notice=review-posted#human-reviews`);
    }
    const page = await new PageClient(test).get(`/es/papers/${paper}?notice=review-posted`);
    expect(page.html).toContain(escaped(es.reading.notices["review-posted"]));
    expect(sectionById(page.html, "human-means")).toContain(
      `<td data-score="overall">${es.reading.paper.outOf("7,5", 10)}</td>`,
    );
  });
});

describe("the diff between versions", () => {
  it("shows removed and added text as <del>/<ins> with words a screen reader announces, in both languages", async () => {
    const client = new PageClient(test);
    for (const [prefix, t] of [
      ["", en],
      ["/es", es],
    ] as const) {
      const res = await client.get(`${prefix}/papers/${glacier}/diff?from=1&to=2`);
      expect(res.status).toBe(200);
      const main = mainOf(res.html);
      expect(main).toContain(escaped(t.reading.diff.heading(1, 2)));
      const title = sectionById(main, "diff-title");
      expect(title).toContain(
        `<ins><span class="visually-hidden">${escaped(t.reading.diff.addedStart)}</span>`,
      );
      expect(title).toContain("drone");
      const body = sectionById(main, "diff-body");
      expect(body).toMatch(
        new RegExp(
          `<del><span class="visually-hidden">${escaped(t.reading.diff.removedStart)}</span>[^<]*assumption`,
        ),
      );
      expect(body).toMatch(/<ins><span class="visually-hidden">[^<]*<\/span>[^<]*850 kg/);
      expect(sectionById(main, "diff-abstract")).toContain(escaped(t.reading.diff.unchanged));
      expect(main).toContain(escaped("Density made explicit; drones named in the title."));
      expect(res.html).toContain(
        `hreflang="es" href="http://quire.test/es/papers/${glacier}/diff?from=1&amp;to=2"`,
      );
    }
  });

  it("defaults to the last change and can compare backwards", async () => {
    const client = new PageClient(test);
    const byDefault = await client.get(`/papers/${glacier}/diff`);
    expect(byDefault.html).toContain(escaped(en.reading.diff.heading(1, 2)));
    const backwards = await client.get(`/papers/${glacier}/diff?from=2&to=1`);
    expect(backwards.status).toBe(200);
    expect(backwards.html).toContain(escaped(en.reading.diff.heading(2, 1)));
    expect(sectionById(backwards.html, "diff-body")).toMatch(/<del>[\s\S]*850 kg/);
  });
});

describe("page weight", () => {
  it("keeps every reading page under 100 KB, for a paper with 50 comments", async () => {
    await newVersion(test, busy, { changelog: "Second version." });
    const client = new PageClient(test);
    const sizes: Record<string, number> = {};
    for (const path of [
      "/",
      "/es",
      "/?q=uncertainty%20stake%20network",
      `/?keyword=ice`,
      `/papers/${busy}`,
      `/es/papers/${busy}`,
      `/papers/${busy}v1`,
      `/papers/${busy}/diff?from=1&to=2`,
      `/papers/${glacier}`,
    ]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(200);
      sizes[path] = Buffer.byteLength(res.html);
    }
    for (const [path, bytes] of Object.entries(sizes)) {
      expect(bytes, `${path}: ${bytes} bytes`).toBeLessThan(100 * 1024);
    }
  });
});
