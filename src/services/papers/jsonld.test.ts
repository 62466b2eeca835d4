/** @module toScholarlyArticle: valid schema.org, checked offline against the real vocabulary (5,000 arXiv abstracts: jsonld.many.test.ts). */
/** @module toScholarlyArticle: valid schema.org, checked offline against the real vocabulary. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expandLocally, validateSchemaOrg } from "../../../test/fixtures/schemaorg/validate.ts";
import { loadSchemaOrgVocabulary } from "../../../test/fixtures/schemaorg/vocabulary.ts";
import type { Database } from "../../db/client.ts";
import { createTestDatabase, operator, testContext } from "../../testing/db.ts";
import { makeOwner, paperInput } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { getPaper } from "./get.ts";
import { modellingProblems, type Node } from "./jsonld.test-helpers.ts";
import { licenseUrl, paperWebPage, toScholarlyArticle } from "./jsonld.ts";
import { listPapers } from "./list.ts";
import { publishVersion } from "./publish.ts";
import type { PaperDetail } from "./schemas.ts";
import { seedSamplePapers } from "./seed.ts";

const BASE = "https://quire.example";

/** A detail with two versions, an owner, reviews and comments. */
function detail(overrides: Partial<PaperDetail["paper"]> = {}, version = 2): PaperDetail {
  const paper: PaperDetail["paper"] = {
    id: "2611.00042",
    title: "Fish & Chips: 100% of {braced} a_b — Ünïcödé 論文",
    ai_model: "claude-opus-4.5",
    ai_label: "AI-generated",
    verification: {
      status: "passed",
      screened_at: "2026-11-03T10:00:00.000Z",
      screened_by: "quire-rules/1.0",
    },
    counts: { versions: 2, comments: 5, ai_reviews: 3, human_reviews: 1 },
    subjects: ["math.NA", "cs.MS"],
    version: 2,
    published_at: "2026-11-01T10:00:00.000Z",
    updated_at: "2026-11-03T10:00:00.000Z",
    abstract: "We study things.",
    authors: [
      { name: "claude-opus-4.5", kind: "ai", role: "author" },
      { name: "alice", kind: "human", role: "submitter" },
    ],
    owner_handle: "alice",
    license: "CC-BY-4.0",
    keywords: ["fish", "chips"],
    language: "en",
    versions: [
      { version: 1, created_at: "2026-11-01T10:00:00.000Z" },
      { version: 2, created_at: "2026-11-03T10:00:00.000Z" },
    ],
    reviews: {
      human: { count: 1, mean: null },
      ai_advisory: { count: 3, mean: null },
    },
    ...overrides,
  };
  return {
    paper,
    version: {
      version,
      title: version === 2 ? paper.title : "An earlier title",
      abstract: version === 2 ? paper.abstract : "An earlier abstract.",
      body: "## Intro\n\nText.",
      ai_model: version === 2 ? paper.ai_model : "gpt-5.1",
      created_at: paper.versions[version - 1]?.created_at ?? paper.published_at,
      changelog: null,
      addresses: [],
      files: [],
    },
  };
}

describe("the schema.org vocabulary read from schema-dts", () => {
  const v = loadSchemaOrgVocabulary();

  it("has the types and properties we use and none of the made-up ones", () => {
    for (const t of ["ScholarlyArticle", "Organization", "Person", "InteractionCounter"]) {
      expect(v.types.has(t), t).toBe(true);
    }
    for (const t of ["CommentAction", "ReviewAction", "PropertyValue", "SoftwareApplication"]) {
      expect(v.types.has(t), t).toBe(true);
    }
    for (const p of ["headline", "userInteractionCount", "digitalSourceType", "creditText"]) {
      expect(v.properties.has(p), p).toBe(true);
    }
    for (const p of ["accountablePerson", "exampleOfWork", "workExample", "additionalType"]) {
      expect(v.properties.has(p), p).toBe(true);
    }
    for (const bad of ["fooBar", "aiAuthor", "AiModel", "scholarlyArticle", "Headline"]) {
      expect(v.types.has(bad) || v.properties.has(bad), bad).toBe(false);
    }
    expect(v.types.size).toBeGreaterThan(800);
    expect(v.properties.size).toBeGreaterThan(1400);
  });

  it("knows domains, ranges, subtypes and enumeration members", () => {
    expect([...v.rangeOf("author")].sort()).toEqual(["Organization", "Person"]);
    expect(v.propertiesOf("ScholarlyArticle").has("headline")).toBe(true);
    expect(v.propertiesOf("ScholarlyArticle").has("name")).toBe(true);
    expect(v.propertiesOf("ScholarlyArticle").has("userInteractionCount")).toBe(false);
    expect(v.propertiesOf("InteractionCounter").has("userInteractionCount")).toBe(true);
    expect(v.isSubtypeOf("ScholarlyArticle", "CreativeWork")).toBe(true);
    expect(v.isSubtypeOf("ReviewAction", "Action")).toBe(true);
    expect(v.isSubtypeOf("SoftwareApplication", "Organization")).toBe(false);
    expect(v.isSubtypeOf("Integer", "Number")).toBe(true);
    expect([...(v.members.get("TrainedAlgorithmicMediaDigitalSource") ?? [])]).toEqual([
      "IPTCDigitalSourceEnumeration",
    ]);
  });
});

describe("the offline schema.org check", () => {
  it("loads only the local context: any other document fails instead of going online", async () => {
    await expect(
      expandLocally({ "@context": "https://example.org/context.jsonld", name: "x" }),
    ).rejects.toThrow();
  });

  it("reports made-up and misplaced properties, wrong types, ranges and dates", async () => {
    const { problems } = await validateSchemaOrg({
      "@context": "https://schema.org",
      "@type": "ScholarlyArticle",
      name: "ok",
      aiAuthor: "made up",
      userInteractionCount: 3,
      author: { "@type": "SoftwareApplication", name: "claude" },
      publisher: { "@type": "Publisher", name: "Quire" },
      datePublished: "yesterday",
      isAccessibleForFree: "yes",
      digitalSourceType: "https://schema.org/InStock",
    });
    const text = problems.join("\n");
    expect(text).toContain("aiAuthor is not a schema.org property");
    expect(text).toContain("userInteractionCount is not a property of ScholarlyArticle");
    expect(text).toContain("a SoftwareApplication is not in the range of author");
    expect(text).toContain("Publisher is not a schema.org type");
    expect(text).toContain('"yesterday" is not an ISO 8601 date');
    expect(text).toContain("isAccessibleForFree: text is not in Boolean");
    expect(text).toContain("InStock (a ItemAvailability) is not in IPTCDigitalSourceEnumeration");
    expect(problems).toHaveLength(8);
  });

  it("passes a minimal valid document", async () => {
    const { problems } = await validateSchemaOrg({
      "@context": "https://schema.org",
      "@type": "ScholarlyArticle",
      headline: "x",
      author: { "@type": "Person", name: "Ada" },
    });
    expect(problems).toEqual([]);
  });
});

describe("toScholarlyArticle", () => {
  it("describes the paper at its canonical URL", async () => {
    const d = detail();
    const doc = toScholarlyArticle(d, `${BASE}/`) as unknown as Record<string, unknown>;
    expect(doc).toMatchObject({
      "@context": "https://schema.org",
      "@type": "ScholarlyArticle",
      "@id": `${BASE}/papers/2611.00042`,
      url: `${BASE}/papers/2611.00042`,
      identifier: { "@type": "PropertyValue", propertyID: "Quire", value: "2611.00042" },
      name: d.paper.title,
      headline: d.paper.title,
      abstract: d.paper.abstract,
      image: `${BASE}/assets/quire-card.svg`,
      datePublished: d.paper.published_at,
      dateModified: d.paper.updated_at,
      version: 2,
      license: "https://creativecommons.org/licenses/by/4.0/",
      keywords: ["fish", "chips"],
      inLanguage: "en",
      isAccessibleForFree: true,
      publisher: { "@type": "Organization", name: "Quire", url: BASE },
      commentCount: 5,
      creditText: "Written by the AI model claude-opus-4.5; submitted by @alice.",
    });
    expect((doc.workExample as { "@id": string }[]).map((w) => w["@id"])).toEqual([
      `${BASE}/papers/2611.00042v1`,
      `${BASE}/papers/2611.00042v2`,
    ]);
    const { expanded, problems } = await validateSchemaOrg(doc);
    expect(problems).toEqual([]);
    expect(modellingProblems(expanded[0] as Node, d)).toEqual([]);
  });

  it("gives a requested version its own @id and links the paper with exampleOfWork", async () => {
    for (const [d, options] of [
      [detail({}, 1), {}],
      [detail({}, 2), { versioned: true }],
    ] as const) {
      const n = d.version.version;
      const doc = toScholarlyArticle(d, BASE, options) as unknown as Record<string, unknown>;
      expect(doc["@id"]).toBe(`${BASE}/papers/2611.00042v${n}`);
      expect(doc.identifier).toMatchObject({ value: `2611.00042v${n}` });
      expect(doc.version).toBe(n);
      expect(doc.name).toBe(d.version.title);
      expect(doc.author).toMatchObject([{ name: d.version.ai_model }]);
      expect(doc.datePublished).toBe(d.version.created_at);
      expect(doc.exampleOfWork).toMatchObject({
        "@type": "ScholarlyArticle",
        "@id": `${BASE}/papers/2611.00042`,
        version: 2,
        commentCount: 5,
      });
      expect(doc.workExample).toBeUndefined();
      expect(doc.commentCount).toBeUndefined();
      const { expanded, problems } = await validateSchemaOrg(doc);
      expect(problems).toEqual([]);
      expect(modellingProblems(expanded[0] as Node, d)).toEqual([]);
    }
  });

  it("credits the model, never as a Person, and the owner only as accountable", async () => {
    const withOwner = toScholarlyArticle(detail(), BASE) as unknown as Record<string, unknown>;
    expect(withOwner.author).toEqual([
      expect.objectContaining({
        "@type": "Organization",
        additionalType: "https://schema.org/SoftwareApplication",
        name: "claude-opus-4.5",
      }),
    ]);
    expect(withOwner.accountablePerson).toMatchObject({
      "@type": "Person",
      name: "alice",
      alternateName: "@alice",
    });
    expect(withOwner.digitalSourceType).toBe(
      "https://schema.org/TrainedAlgorithmicMediaDigitalSource",
    );
    const orphan = detail({ owner_handle: null, authors: [] });
    const doc = toScholarlyArticle(orphan, BASE) as unknown as Record<string, unknown>;
    expect(doc.accountablePerson).toBeUndefined();
    expect(doc.author).toMatchObject([{ name: "claude-opus-4.5" }]);
    expect(doc.creditText).toBe("Written by the AI model claude-opus-4.5.");
    const { expanded, problems } = await validateSchemaOrg(doc);
    expect(problems).toEqual([]);
    expect(modellingProblems(expanded[0] as Node, orphan)).toEqual([]);
  });

  it("counts comments, human reviews and AI advisory reviews apart", () => {
    const doc = toScholarlyArticle(detail(), BASE) as unknown as Record<string, unknown>;
    expect(doc.interactionStatistic).toEqual([
      expect.objectContaining({
        name: "Comments",
        interactionType: { "@type": "CommentAction" },
        userInteractionCount: 5,
      }),
      expect.objectContaining({
        name: "Human reviews",
        interactionType: { "@type": "ReviewAction" },
        userInteractionCount: 1,
      }),
      expect.objectContaining({
        name: "AI advisory reviews",
        interactionType: { "@type": "ReviewAction" },
        userInteractionCount: 3,
      }),
    ]);
  });

  it("maps known license ids to URLs and keeps other licenses as a named CreativeWork", async () => {
    expect(licenseUrl("CC-BY-4.0")).toBe("https://creativecommons.org/licenses/by/4.0/");
    expect(licenseUrl("cc-by-nc-sa-4.0")).toBe(
      "https://creativecommons.org/licenses/by-nc-sa/4.0/",
    );
    expect(licenseUrl("CC-BY-ND-3.0")).toBe("https://creativecommons.org/licenses/by-nd/3.0/");
    expect(licenseUrl("CC0-1.0")).toBe("https://creativecommons.org/publicdomain/zero/1.0/");
    expect(licenseUrl("https://example.org/l")).toBe("https://example.org/l");
    expect(licenseUrl("All rights reserved")).toBeNull();
    expect(licenseUrl("CC-BY-3.0-US")).toBeNull();
    const doc = toScholarlyArticle(detail({ license: "All rights reserved" }), BASE);
    expect((doc as unknown as Record<string, unknown>).license).toEqual({
      "@type": "CreativeWork",
      name: "All rights reserved",
    });
    expect((await validateSchemaOrg(doc)).problems).toEqual([]);
  });

  it("leaves out an undetermined language and empty keywords", () => {
    const doc = toScholarlyArticle(detail({ language: "und", keywords: [] }), BASE);
    expect(doc).not.toHaveProperty("inLanguage");
    expect(doc).not.toHaveProperty("keywords");
  });
});

describe("paperWebPage", () => {
  it("is a valid WebPage whose mainEntity is the article and whose relatedLinks are the related papers", async () => {
    const article = toScholarlyArticle(detail(), BASE);
    const page = paperWebPage(
      `${BASE}/es/papers/2611.00042`,
      article["@id"] as string,
      [`${BASE}/es/papers/2611.00007`, `${BASE}/es/papers/2611.00009`],
      "es",
    );
    expect(page).toMatchObject({
      "@type": "WebPage",
      "@id": `${BASE}/es/papers/2611.00042#webpage`,
      mainEntity: { "@id": `${BASE}/papers/2611.00042` },
      relatedLink: [`${BASE}/es/papers/2611.00007`, `${BASE}/es/papers/2611.00009`],
    });
    expect((await validateSchemaOrg(page)).problems).toEqual([]);
    const alone = paperWebPage(`${BASE}/papers/2611.00042`, article["@id"] as string, [], "en");
    expect(alone).not.toHaveProperty("relatedLink");
    expect((await validateSchemaOrg(alone)).problems).toEqual([]);
    // relatedLink is WebPage's; schema.org has no such property on a ScholarlyArticle.
    const misplaced = await validateSchemaOrg({
      ...article,
      relatedLink: [`${BASE}/papers/2611.00007`],
    });
    expect(misplaced.problems.join("\n")).toContain(
      "relatedLink is not a property of ScholarlyArticle",
    );
  });
});

describe("the sample papers, from a database", () => {
  let database: Database;
  let ctx: ServiceContext;
  let ids: string[];

  beforeAll(async () => {
    database = await createTestDatabase();
    ctx = testContext(database);
    const seeded = await seedSamplePapers(ctx);
    expect(seeded?.published).toBeGreaterThan(0);
    const owner = await makeOwner(ctx);
    const first = await publishVersion(
      { ...ctx, caller: operator },
      { ...paperInput(), ownerId: owner.id },
    );
    if (first.outcome !== "published") throw new Error("factory paper was not published");
    await publishVersion(
      { ...ctx, caller: operator },
      { ...paperInput(), paperId: first.paper_id },
    );
    ids = (await listPapers(ctx, { limit: 100 })).papers.map((p) => p.id);
  });
  afterAll(async () => database.close());

  it("renders every paper and every version as valid schema.org", async () => {
    // The 14 sample papers (two with figures, one from LaTeX) and the factory paper.
    expect(ids.length).toBe(15);
    let checked = 0;
    let owned = 0;
    for (const id of ids) {
      const current = await getPaper(ctx, { id });
      for (const { version } of current.paper.versions) {
        const d =
          version === current.paper.version
            ? current
            : await getPaper(ctx, { id: `${id}v${version}` });
        for (const options of [{}, { versioned: true }]) {
          const doc = toScholarlyArticle(d, BASE, options);
          const { expanded, problems } = await validateSchemaOrg(doc);
          expect(problems, `${id}v${version}`).toEqual([]);
          expect(modellingProblems(expanded[0] as Node, d), `${id}v${version}`).toEqual([]);
          checked++;
          if (d.paper.owner_handle) owned++;
        }
      }
    }
    expect(checked).toBe(32);
    expect(owned).toBe(4);
  });
});
