import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusalText } from "../../services/ratelimit/index.ts";
import { createMemoryRateLimits } from "../../services/ratelimit/limits.ts";
import { createHttpEmbedder } from "../../services/search/embedder.ts";
import { agentIn, setPaperStatus } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import {
  type FakeEmbeddingServer,
  startFakeEmbeddingServer,
} from "../../testing/embeddings-server.ts";
import { csrfTokenIn, htmlLang, PageClient } from "../../testing/page-client.ts";
import { SEARCH_PAGES } from "./home.tsx";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import {
  escaped,
  mainOf,
  newVersion,
  postComment,
  publish,
  reviewForm,
  sectionById,
  signedInOwner,
} from "./reading.test-helpers.ts";

let test: TestApp;
let paper: string;
let twoVersions: string;

const GOOD = { soundness: 3, presentation: 3, contribution: 2, confidence: 4, overall: 6 };

beforeAll(async () => {
  test = await createTestApp();
  paper = await publish(test, { keywords: ["glaciers"] });
  twoVersions = await publish(test);
  await newVersion(test, twoVersions, { changelog: "Rewritten." });
});
afterAll(async () => test.close());

async function humanReviewCount(id: string): Promise<number> {
  const res = await test.app.request(`/api/v1/papers/${id}/reviews`);
  return ((await res.json()) as { human: { count: number } }).human.count;
}

describe("home: bad input is a friendly 400 on the page, never a 500", () => {
  it.each([
    ["a one-character search", "q=a", en.reading.home.queryShort(2), es.reading.home.queryShort(2)],
    [
      "a search over 1000 characters",
      `q=${"glacier ".repeat(130)}`,
      en.reading.home.queryLong(1000),
      es.reading.home.queryLong(1000),
    ],
    [
      "a cursor we never issued",
      "cursor=not-a-cursor",
      en.reading.home.badCursor,
      es.reading.home.badCursor,
    ],
    [
      "a cursor of the wrong shape",
      `cursor=${"A".repeat(300)}`,
      en.reading.home.badCursor,
      es.reading.home.badCursor,
    ],
    [
      "a keyword over 200 characters",
      `keyword=${"k".repeat(201)}`,
      en.reading.home.badKeyword,
      es.reading.home.badKeyword,
    ],
  ])("%s", async (_name, query, enText, esText) => {
    const client = new PageClient(test);
    for (const [path, text, lang] of [
      [`/?${query}`, enText, "en"],
      [`/es?${query}`, esText, "es"],
    ] as const) {
      const res = await client.get(path);
      expect(res.status).toBe(400);
      expect(htmlLang(res.html)).toBe(lang);
      expect(sectionById(res.html, "home-message")).toContain(escaped(text));
      expect(res.html).toContain('role="alert"');
      // The newest papers are still there to read.
      expect(res.html).toContain(`href="${lang === "es" ? "/es" : ""}/papers/${paper}"`);
    }
    expect(test.logs.filter((l) => l.status === 500)).toEqual([]);
  });

  it("an empty search is no search: the list, with a 200", async () => {
    const res = await new PageClient(test).get("/?q=%20%20");
    expect(res.status).toBe(200);
    expect(res.html).not.toContain('id="home-message"');
  });
});

describe("unknown, withdrawn and removed papers: the API's 404, as a page in its language", () => {
  it("answers 404 for unknown ids, malformed ids and future versions, like the API", async () => {
    const client = new PageClient(test);
    for (const ref of ["2611.99999", "not-a-paper", `${paper}v9`, "2613.00001"]) {
      const api = await test.app.request(`/api/v1/papers/${ref}`);
      expect(api.status).toBe(404);
      const english = await client.get(`/papers/${ref}`);
      expect(english.status).toBe(404);
      expect(english.html).toContain(escaped(en.errorPage[404]));
      const spanish = await client.get(`/es/papers/${ref}`);
      expect(spanish.status).toBe(404);
      expect(htmlLang(spanish.html)).toBe("es");
      expect(spanish.html).toContain(escaped(es.errorPage[404]));
    }
  });

  it.each(["withdrawn", "removed"] as const)(
    "a %s paper is 404 on every page about it (paper, version, diff, review form)",
    async (status) => {
      const gone = await publish(test);
      await newVersion(test, gone, { changelog: "v2" });
      const { client } = await signedInOwner(test);
      const page = await client.get(`/papers/${gone}`);
      const token = csrfTokenIn(page.html, `/papers/${gone}/reviews`);
      await setPaperStatus(test.ctx, gone, status);
      expect((await test.app.request(`/api/v1/papers/${gone}`)).status).toBe(404);
      for (const path of [
        `/papers/${gone}`,
        `/es/papers/${gone}v1`,
        `/papers/${gone}/diff?from=1&to=2`,
      ]) {
        const res = await client.get(path);
        expect(res.status, path).toBe(404);
        expect(res.html).toContain('id="error-message"');
      }
      const post = await client.post(`/papers/${gone}/reviews`, {
        _csrf: token,
        ...reviewForm(GOOD, "Too late."),
      });
      expect(post.status).toBe(404);
      expect(sectionById((await client.get("/")).html, "papers")).not.toContain(gone);
    },
  );

  it("a bad comments or reviews cursor is a 400 page", async () => {
    for (const param of ["comments", "human", "ai"]) {
      const res = await new PageClient(test).get(`/papers/${paper}?${param}=garbage`);
      expect(res.status).toBe(400);
      expect(res.html).toContain(escaped(en.errorPage[400]));
    }
  });
});

describe("diff: versions that cannot be compared", () => {
  it.each([
    ["the same version twice", "from=1&to=1"],
    ["a version that does not exist", "from=1&to=9"],
    ["version 0", "from=0&to=2"],
    ["not a number", "from=one&to=2"],
    ["a huge number", "from=1&to=99999999999"],
  ])("%s: 400 with the chooser to pick again", async (_name, query) => {
    const client = new PageClient(test);
    const res = await client.get(`/papers/${twoVersions}/diff?${query}`);
    expect(res.status).toBe(400);
    expect(sectionById(res.html, "diff-message")).toContain(escaped(en.reading.diff.badVersions));
    expect(res.html).toContain(`action="/papers/${twoVersions}/diff"`);
    const spanish = await client.get(`/es/papers/${twoVersions}/diff?${query}`);
    expect(spanish.status).toBe(400);
    expect(spanish.html).toContain(escaped(es.reading.diff.badVersions));
  });

  it("a paper with one version says there is nothing to compare", async () => {
    const res = await new PageClient(test).get(`/es/papers/${paper}/diff`);
    expect(res.status).toBe(200);
    expect(res.html).toContain(escaped(es.reading.diff.onlyOne));
  });

  it("an unknown paper's diff is 404", async () => {
    expect((await new PageClient(test).get("/papers/2611.99999/diff")).status).toBe(404);
  });
});

describe("the human review form refuses, explains and keeps what was typed", () => {
  it("lists every invalid field next to it and keeps the form (400); nothing is written", async () => {
    const { client } = await signedInOwner(test);
    const page = await client.get(`/papers/${paper}`);
    const res = await client.post(`/papers/${paper}/reviews`, {
      _csrf: csrfTokenIn(page.html, `/papers/${paper}/reviews`),
      soundness: "",
      presentation: "9",
      contribution: "two",
      confidence: "4",
      overall: "11",
      body: "   ",
    });
    expect(res.status).toBe(400);
    const form = mainOf(res.html);
    for (const [field, max] of [
      ["soundness", 4],
      ["presentation", 4],
      ["contribution", 4],
      ["overall", 10],
    ] as const) {
      expect(sectionById(form, `review-${field}-error`)).toContain(
        escaped(en.reading.review.scoreError(max)),
      );
      expect(form).toMatch(new RegExp(`id="review-${field}"[^>]*aria-invalid="true"`));
    }
    expect(sectionById(form, "review-body-error")).toContain(escaped(en.reading.review.bodyEmpty));
    expect(form).not.toContain('id="review-confidence-error"');
    expect(form).toContain('<option value="4" selected="">4</option>');
    expect(form).toContain('id="form-errors"');
    expect(await humanReviewCount(paper)).toBe(0);
  });

  it("keeps the review's text when only a score is missing, in Spanish too", async () => {
    const { client } = await signedInOwner(test, { lang: "es" });
    const page = await client.get(`/es/papers/${paper}`);
    const res = await client.post(`/es/papers/${paper}/reviews`, {
      _csrf: csrfTokenIn(page.html, `/es/papers/${paper}/reviews`),
      ...reviewForm(GOOD, "Un texto que <no> se pierde."),
      overall: "",
    });
    expect(res.status).toBe(400);
    expect(htmlLang(res.html)).toBe("es");
    expect(res.html).toContain(escaped(es.reading.review.scoreError(10)));
    expect(res.html).toContain(`${escaped("Un texto que <no> se pierde.")}</textarea>`);
    expect(await humanReviewCount(paper)).toBe(0);
  });

  it("says when a review is too long", async () => {
    const { client } = await signedInOwner(test);
    const page = await client.get(`/papers/${paper}`);
    const res = await client.post(`/papers/${paper}/reviews`, {
      _csrf: csrfTokenIn(page.html, `/papers/${paper}/reviews`),
      ...reviewForm(GOOD, "x".repeat(20_001)),
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain(escaped(en.reading.review.bodyLong));
  });

  it("signed out: a sign-in link that comes back to the paper; a post goes to sign-in", async () => {
    const client = new PageClient(test);
    const page = await client.get(`/papers/${paper}`);
    const box = sectionById(page.html, "review-sign-in");
    expect(box).toContain(`href="/sign-in?next=%2Fpapers%2F${paper}"`);
    expect(page.html).not.toContain('id="review-form"');
    // A signed-out post with a valid signed-out token still writes nothing.
    const signIn = await client.get("/sign-in");
    const res = await client.post(`/papers/${paper}/reviews`, {
      _csrf: csrfTokenIn(signIn.html, "/sign-in"),
      ...reviewForm(GOOD, "Anonymous."),
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/sign-in?notice=sign-in-needed&next=%2Fpapers%2F${paper}`);
    expect(await humanReviewCount(paper)).toBe(0);

    // Signing in from the link lands back on the paper.
    const { client: owner, handle } = await signedInOwner(test);
    const form = await owner.get(`/sign-in?next=/papers/${paper}`);
    expect(form.status).toBe(302);
    expect(form.location).toBe(`/papers/${paper}`);
    expect(handle).toBeTruthy();
  });

  it("an unverified owner is told why and refused (403)", async () => {
    const { client } = await signedInOwner(test, { verified: false });
    const page = await client.get(`/papers/${paper}`);
    expect(sectionById(page.html, "review-unverified")).toContain(
      escaped(en.reading.review.unverified),
    );
    const res = await client.post(`/papers/${paper}/reviews`, {
      _csrf: csrfTokenIn(page.html, "/verify-email/resend"),
      ...reviewForm(GOOD, "Unverified."),
    });
    expect(res.status).toBe(403);
    expect(res.html).toContain(escaped(en.reading.review.unverified));
    expect(await humanReviewCount(paper)).toBe(0);
  });

  it("an owner cannot review their own paper (403)", async () => {
    const { client, id } = await signedInOwner(test);
    const own = await publish(test, { ownerId: id });
    const page = await client.get(`/papers/${own}`);
    expect(sectionById(page.html, "review-own-paper")).toContain(
      escaped(en.reading.review.ownPaper),
    );
    expect(page.html).not.toContain('id="review-form"');
    const res = await client.post(`/papers/${own}/reviews`, {
      _csrf: csrfTokenIn(page.html, "/sign-out"),
      ...reviewForm(GOOD, "My own paper is great."),
    });
    expect(res.status).toBe(403);
    expect(res.html).toContain(escaped(en.reading.review.ownPaper));
    expect(await humanReviewCount(own)).toBe(0);
  });

  it("one review per person per version (409 the second time)", async () => {
    const target = await publish(test);
    const { client } = await signedInOwner(test);
    const page = await client.get(`/papers/${target}`);
    const token = csrfTokenIn(page.html, `/papers/${target}/reviews`);
    const first = await client.post(`/papers/${target}/reviews`, {
      _csrf: token,
      ...reviewForm(GOOD, "First."),
    });
    expect(first.status).toBe(303);
    const second = await client.post(`/papers/${target}/reviews`, {
      _csrf: token,
      ...reviewForm(GOOD, "Second."),
    });
    expect(second.status).toBe(409);
    expect(second.html).toContain(escaped(en.reading.review.duplicate));
    expect(second.html).toContain("Second.</textarea>");
    expect(await humanReviewCount(target)).toBe(1);
  });
});

describe("an empty archive", () => {
  let empty: TestApp;
  beforeAll(async () => {
    empty = await createTestApp();
  });
  afterAll(async () => empty.close());

  it("says there are no papers yet, in both languages, and searches find nothing", async () => {
    const client = new PageClient(empty);
    const english = await client.get("/");
    expect(english.status).toBe(200);
    expect(english.html).toContain(escaped(en.reading.home.empty));
    const spanish = await client.get("/es");
    expect(spanish.html).toContain(escaped(es.reading.home.empty));
    const search = await client.get("/es?q=glaciares");
    expect(search.status).toBe(200);
    expect(search.html).toContain(escaped(es.reading.home.noResults));
  });
});

describe("search when the embedding backend is down", () => {
  let server: FakeEmbeddingServer;
  let dense: TestApp;
  beforeAll(async () => {
    server = await startFakeEmbeddingServer(16);
    dense = await createTestApp({
      services: {
        embedder: createHttpEmbedder({
          url: server.url,
          model: "fake-16",
          timeoutMs: 200,
          retries: 0,
          backoffMs: 1,
        }),
      },
    });
    await publish(dense, { title: "Moraine dating with cosmogenic nuclides" });
  });
  afterAll(async () => {
    await dense.close();
    await server.close();
  });

  it("answers with word matches and says so, where the API answers 503", async () => {
    server.behaviour = { kind: "status", status: 502 };
    try {
      expect((await dense.app.request("/api/v1/search/semantic?q=moraine")).status).toBe(503);
      for (const [path, text] of [
        ["/?q=moraine%20dating", en.reading.home.lexicalOnly],
        ["/es?q=moraine%20dating", es.reading.home.lexicalOnly],
      ] as const) {
        const res = await new PageClient(dense).get(path);
        expect(res.status).toBe(200);
        expect(sectionById(res.html, "search-note")).toContain(escaped(text));
        expect(res.html).not.toContain('id="home-message"');
        expect(sectionById(res.html, "search-results")).toContain("Moraine dating");
      }
      // A page the site does not offer while the backend is down: both messages, the
      // refusal as the alert and the words-only note beside it, and the first results.
      for (const [path, t] of [
        ["/?q=moraine%20dating&page=x", en],
        ["/es?q=moraine%20dating&page=0", es],
      ] as const) {
        const res = await new PageClient(dense).get(path);
        expect(res.status).toBe(400);
        expect(sectionById(res.html, "home-message")).toContain(
          escaped(t.reading.home.badPage(String(SEARCH_PAGES))),
        );
        expect(sectionById(res.html, "search-note")).toContain(escaped(t.reading.home.lexicalOnly));
        expect(sectionById(res.html, "search-results")).toContain("Moraine dating");
      }
    } finally {
      server.behaviour = { kind: "ok" };
    }
    const ok = await new PageClient(dense).get("/?q=moraine%20dating");
    expect(ok.html).not.toContain('id="home-message"');
    expect(ok.html).not.toContain('id="search-note"');
    expect(dense.logs.filter((l) => l.status === 500)).toEqual([]);
  });
});

describe("rate limits: a search draws on the search bucket, as the API's does", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ services: { rateLimits: createMemoryRateLimits() } });
    await publish(limited, { title: "Moraine dating with cosmogenic nuclides" });
  });
  afterAll(async () => limited.close());

  it("30 searches a minute per address across the page and the API; then a 429 page that says when", async () => {
    const client = new PageClient(limited);
    const listing = await client.get("/");
    expect(listing.headers.get("ratelimit")).toBeNull();
    const invalid = await client.get("/?q=a");
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("ratelimit")).toBeNull();
    for (let i = 0; i < 29; i++) {
      const res = await client.get(`/?q=moraine${i}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit")).toContain('"search"');
    }
    expect((await limited.app.request("/api/v1/search/semantic?q=moraine")).status).toBe(200);
    for (const [path, lang] of [
      ["/?q=moraine", "en"],
      ["/es?q=moraine", "es"],
    ] as const) {
      const res = await client.get(path);
      expect(res.status).toBe(429);
      const retry = Number(res.headers.get("retry-after"));
      expect(retry).toBeGreaterThan(0);
      expect(res.headers.get("ratelimit")).toContain('"search";r=0');
      // The rate-limit policy's one wording, in the page's language.
      const decision = { bucket: "search", allowed: false, limit: 30, windowSeconds: 60 } as const;
      const text = refusalText({ ...decision, remaining: 0, resetSeconds: retry }, lang);
      expect(sectionById(res.html, "home-message")).toContain(escaped(text));
      expect(res.html).toContain("Moraine dating");
    }
    expect((await limited.app.request("/api/v1/search/semantic?q=moraine")).status).toBe(429);
    // Reading papers is not limited.
    expect((await client.get("/")).status).toBe(200);
  });
});

describe("agent comments on a paper page stay readable when the paper has many", () => {
  it("comments on other versions are listed only on the paper page, not on a version's", async () => {
    const agent = await agentIn(test.ctx, "verified");
    await postComment(test, agent, `${twoVersions}v1`, "About the first version.");
    const paperPage = await new PageClient(test).get(`/papers/${twoVersions}`);
    expect(sectionById(paperPage.html, "comments")).toContain("About the first version.");
    const v2 = await new PageClient(test).get(`/papers/${twoVersions}v2`);
    expect(sectionById(v2.html, "comments")).not.toContain("About the first version.");
    expect(sectionById(v2.html, "comments")).toContain(escaped(en.reading.paper.noComments));
  });
});
