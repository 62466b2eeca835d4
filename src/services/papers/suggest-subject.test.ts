/**
 * @module The screener's subject suggestion: the vote (a property test), and publishing a paper
 * without subjects next to papers that have some, seen by its owner and moderators only.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { createTestDatabase, testContext } from "../../testing/db.ts";
import { makeOwner, publishPaper } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden } from "../errors.ts";
import { listOwnPapers } from "./own.ts";
import { publishVersion } from "./publish.ts";
import { SUGGESTION_SETTINGS, subjectSuggestion, voteSubject } from "./suggest-subject.ts";

describe("voteSubject", () => {
  it("gives the subject most of the close papers share, or none when they disagree", () => {
    const geo = { subjects: ["physics.geo-ph"], score: 0.8 };
    const cl = { subjects: ["cs.CL", "cs.LG"], score: 0.7 };
    expect(voteSubject([geo, geo, geo, cl])).toBe("physics.geo-ph");
    // Four different subjects, none with half of the votes.
    expect(
      voteSubject([
        { subjects: ["cs.CL"], score: 0.5 },
        { subjects: ["cs.IR"], score: 0.5 },
        { subjects: ["cs.AI"], score: 0.5 },
        { subjects: ["cs.LG"], score: 0.5 },
      ]),
    ).toBeNull();
    // One paper alone is not enough support, however close.
    expect(voteSubject([{ subjects: ["cs.CL"], score: 0.99 }])).toBeNull();
    expect(voteSubject([])).toBeNull();
    expect(voteSubject([{ subjects: [], score: 0.9 }])).toBeNull();
    // A share exactly at minShare: the same answer in either order (found by the property
    // below once the sums were taken in input order).
    const a = { subjects: ["cs.IR", "cs.CL", "cs.LG"], score: 4.1162556895485314e-221 };
    const b = { subjects: ["cs.IR", "cs.CL", "q-bio.NC"], score: 6.215918399279628e-232 };
    expect(voteSubject([a, b])).toBe(voteSubject([b, a]));
  });

  const neighbour = fc.record({
    subjects: fc.uniqueArray(
      fc.constantFrom<string>("cs.CL", "cs.LG", "cs.IR", "stat.ML", "q-bio.NC"),
      { maxLength: 3 },
    ),
    score: fc.double({ min: 0, max: 1, noNaN: true }),
  });

  it("names a subject a neighbour has, with the support and share it asks, in any order", () => {
    fc.assert(
      fc.property(fc.array(neighbour, { maxLength: 12 }), fc.nat(), (ns, seed) => {
        const got = voteSubject(ns);
        const shuffled = [...ns].sort(
          (a, b) => ((ns.indexOf(a) * 31 + seed) % 7) - ((ns.indexOf(b) * 31 + seed) % 7),
        );
        expect(voteSubject(shuffled)).toBe(got);
        if (got === null) return;
        const naming = ns.filter((n) => n.subjects.includes(got));
        expect(naming.length).toBeGreaterThanOrEqual(SUGGESTION_SETTINGS.minSupport);
        const weightOf = (n: (typeof ns)[number], code: string) => {
          const i = n.subjects.indexOf(code);
          return i < 0 ? 0 : n.score * (i === 0 ? 1 : SUGGESTION_SETTINGS.crossListWeight);
        };
        const all = ns.flatMap((n) => n.subjects.map((c) => weightOf(n, c)));
        const total = all.reduce((s, w) => s + w, 0);
        const mine = ns.reduce((s, n) => s + weightOf(n, got), 0);
        expect(mine / total).toBeGreaterThanOrEqual(SUGGESTION_SETTINGS.minShare - 1e-12);
      }),
    );
  });
});

describe("suggestions on publishing", () => {
  let database: Database;
  let ctx: ServiceContext;

  beforeAll(async () => {
    database = await createTestDatabase();
    ctx = testContext(database);
  });
  afterAll(async () => database.close());

  const runoff = (n: number, subjects?: string[]) => ({
    title: `Estimating snowmelt runoff in mountain catchment ${n} from sparse gauges`,
    abstract: `We estimate snowmelt runoff and river discharge in mountain catchment number ${n} using sparse stream gauges, snow water equivalent surveys and a degree-day melt model calibrated per basin; variant ${n} changes the gauge network.`,
    body: `## Catchment ${n}\n\nSnowmelt runoff dominates discharge in the mountain catchment. Stream gauges, snow pillows and degree-day factors give the melt. ${"Runoff recession and baseflow separation follow. ".repeat(n)}\n\n## Results\n\nDischarge peaks follow melt by ${n} days.\n`,
    ai_model: "test-model-1",
    license: "CC-BY-4.0",
    keywords: [],
    ...(subjects ? { subjects } : {}),
  });

  it("stores the subject the closest papers share, shows it to the owner, and to nobody else", async () => {
    for (const n of [1, 2, 3]) await publishPaper(ctx, runoff(n, ["physics.geo-ph"]));
    await publishPaper(ctx, {
      title: "Subword tokenization for morphologically rich languages",
      abstract:
        "Byte-pair encoding and unigram tokenizers are compared for Finnish and Turkish language models, measuring perplexity and vocabulary size.",
      subjects: ["cs.CL"],
    });
    const owner = await makeOwner(ctx);
    const mine: ServiceContext = {
      ...ctx,
      caller: { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" },
    };
    const published = await publishVersion(mine, runoff(7));
    expect(published.outcome).toBe("published");
    if (published.outcome !== "published") return;

    const { papers } = await listOwnPapers(mine);
    expect(papers.find((p) => p.id === published.paper_id)?.suggested_subject).toBe(
      "physics.geo-ph",
    );
    expect(await subjectSuggestion(mine, published.paper_id)).toBe("physics.geo-ph");
    expect(
      await subjectSuggestion(
        { ...ctx, caller: { kind: "owner", ownerId: "nobody", handle: "x", role: "moderator" } },
        published.paper_id,
      ),
    ).toBe("physics.geo-ph");
    await expect(
      subjectSuggestion(
        { ...ctx, caller: { kind: "owner", ownerId: "someone", handle: "y", role: "owner" } },
        published.paper_id,
      ),
    ).rejects.toBeInstanceOf(Forbidden);
    await expect(subjectSuggestion(ctx, published.paper_id)).rejects.toBeInstanceOf(Forbidden);

    // Filed under a subject by its next version: the suggestion is gone.
    const revised = await publishVersion(mine, {
      ...runoff(7),
      body: `${runoff(7).body}\n\n## Note\n\nA second version with the subject set.\n`,
      paperId: published.paper_id,
      changelog: "Filed under geophysics.",
      subjects: ["physics.geo-ph"],
    });
    expect(revised.outcome).toBe("published");
    expect(await subjectSuggestion(mine, published.paper_id)).toBeNull();
  });

  it("suggests nothing for a paper that has subjects", async () => {
    const { paper_id: id } = await publishPaper(ctx, runoff(9, ["cs.CL"]));
    expect(await subjectSuggestion({ ...ctx, caller: { kind: "operator" } }, id)).toBeNull();
  });
});
