/** @module GET /api/v1/papers/{id}/related: what a reader gets, and how the response cache keeps up. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaperListItem, RelatedPapers } from "../../../../services/papers/index.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { notifyArchiveProbe } from "../../../../testing/archive-changes.ts";
import { publishPaper } from "../../../../testing/factories.ts";
import type { ResponseCache } from "../../../response-cache.ts";

let t: TestApp;
let cache: ResponseCache;
const ids: Record<string, string> = {};

const BODY = "## Method\n\nWe describe the data, the instruments and the analysis.\n";

beforeAll(async () => {
  t = await createTestApp({ responseCacheMb: 4 });
  cache = t.responseCache as ResponseCache;
  const papers = {
    tidesA: [
      "Tidal resonance in shallow estuaries",
      "Tide gauges in four shallow estuaries show resonance amplifying the semidiurnal tide where the basin length matches a quarter wavelength.",
    ],
    tidesB: [
      "Estuary geometry and tidal amplification",
      "A numerical model of funnel-shaped estuaries reproduces tidal amplification and resonance measured by tide gauges upstream.",
    ],
    bees: [
      "Foraging range of urban bumblebees",
      "Radio-tagged bumblebees in city parks forage over shorter distances than rural colonies, visiting gardens and roadside flowers.",
    ],
  };
  for (const [key, [title, abstract]] of Object.entries(papers)) {
    ids[key] = (await publishPaper(t.ctx, { title, abstract, body: BODY, keywords: [] })).paper_id;
  }
});
afterAll(async () => t.close());

async function related(path: string): Promise<{ res: Response; body: RelatedPapers }> {
  const res = await t.app.request(path);
  expect(res.status, path).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return { res, body: (await res.json()) as RelatedPapers };
}

/** Waits until every archive change notified so far has reached the cache (see http.response-cache.test.ts). */
let probes = 0;
async function settle() {
  const probe = `related-probe-${++probes}`;
  await notifyArchiveProbe(t.ctx, probe);
  const deadline = Date.now() + 2_000;
  while (cache.stats().lastChange !== probe) {
    if (Date.now() > deadline) throw new Error("the probe did not arrive");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("GET /api/v1/papers/{id}/related", () => {
  it("lists the other papers closest first, each a list item with its language and a score", async () => {
    const { res, body } = await related(`/api/v1/papers/${ids.tidesA}/related`);
    expect(body.paper_id).toBe(ids.tidesA);
    expect(body.version).toBe(1);
    expect(body.related[0]?.id).toBe(ids.tidesB);
    expect(body.related.map((r) => r.id)).not.toContain(ids.tidesA);
    // The same item as the paper list gives, plus its language (for the title's `lang`) and score.
    const list = (await (await t.app.request("/api/v1/papers")).json()) as {
      papers: PaperListItem[];
    };
    const { score, language, ...item } = body.related[0]!;
    expect(item).toEqual(list.papers.find((p) => p.id === ids.tidesB));
    expect(language).toBe("en");
    expect(score).toBeGreaterThan(0);
    expect(score).toBeLessThanOrEqual(1);
    // A public read: cacheable, and drawn from the reads bucket.
    expect(res.headers.get("cache-control")).toMatch(/^public/);
    expect(res.headers.get("etag")).toBeTruthy();
    expect(res.headers.get("ratelimit-policy")).toMatch(/"reads"/);
  });

  it("takes limit from the query (default 5) and {id}vN", async () => {
    expect((await related(`/api/v1/papers/${ids.bees}/related?limit=1`)).body.related).toHaveLength(
      1,
    );
    const v1 = await related(`/api/v1/papers/${ids.bees}v1/related?limit=20`);
    expect(v1.body).toMatchObject({ paper_id: ids.bees, version: 1 });
    expect(v1.body.related.map((r) => r.id)).not.toContain(ids.bees);
  });

  it("is answered from the response cache until the archive changes, then sees new papers", async () => {
    await settle();
    const path = `/api/v1/papers/${ids.tidesB}/related?limit=20`;
    const first = await related(path);
    const hits = cache.stats().hits;
    expect((await related(path)).body).toEqual(first.body);
    expect(cache.stats().hits).toBe(hits + 1);
    const newer = await publishPaper(t.ctx, {
      title: "Resonant tides in funnel estuaries",
      abstract:
        "Tide gauges along funnel estuaries record resonance: the tidal range grows upstream where the estuary length nears a quarter wavelength.",
      body: BODY,
      keywords: [],
    });
    await settle();
    const after = await related(path);
    expect(after.body.related.map((r) => r.id)).toContain(newer.paper_id);
  });
});
