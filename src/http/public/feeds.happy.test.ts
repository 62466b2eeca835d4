/** @module GET /feed.atom: newest papers, keyword feeds, RFC 4287 structure, XML escaping. */

import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ATOM_FEED_SIZE } from "../../services/feeds/atom.ts";
import { publishVersion } from "../../services/papers/publish.ts";
import { setPaperStatus } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { fixedClock, operator } from "../../testing/db.ts";
import { makeOwner, paperInput, publishPaper } from "../../testing/factories.ts";

const BASE = "http://quire.test";
const clock = fixedClock(new Date("2026-11-20T12:00:00.000Z"));
let t: TestApp;

/** Published papers by id, with what the feed should say about them. */
const published = new Map<string, { publishedAt: Date; keywords: string[]; title: string }>();
let ownedId: string;
let specialId: string;
let withdrawnId: string;
let revisedId: string;
let ownerHandle: string;

const SPECIAL_TITLE = `Quotes "double" & 'single' <tags> \u0001\u0008\u000b\u001f\u007f kept\ttab`;
const SPECIAL_TITLE_CLEAN = `Quotes "double" & 'single' <tags>  kept\ttab`;

async function publish(
  minutes: number,
  overrides: Parameters<typeof paperInput>[0] = {},
): Promise<string> {
  const publishedAt = new Date(Date.UTC(2026, 9, 1) + minutes * 60_000);
  const input = paperInput({ publishedAt, ...overrides });
  const result = await publishPaper(t.ctx, input);
  published.set(result.paper_id, { publishedAt, keywords: input.keywords, title: input.title });
  return result.paper_id;
}

beforeAll(async () => {
  t = await createTestApp({ services: { clock } });
  for (let i = 0; i < 52; i++) await publish(i * 30);
  await publish(2000, { keywords: ["Glaciers", "ice"] });
  await publish(2010, { keywords: ["GLACIERS"] });
  await publish(2020, { keywords: ["glaciers sheets"] });
  specialId = await publish(2030, { title: SPECIAL_TITLE, keywords: ["escaping"] });
  const owner = await makeOwner(t.ctx);
  ownerHandle = owner.handle;
  ownedId = await publish(2040, { ownerId: owner.id, ai_model: 'model-<x>&"y"' });
  withdrawnId = await publish(2050, { keywords: ["glaciers"] });
  await setPaperStatus(t.ctx, withdrawnId, "withdrawn");
  published.delete(withdrawnId);
  // Version 1 has the keyword, the current version 2 does not.
  revisedId = await publish(2060, { keywords: ["glaciers"] });
  clock.set(new Date("2026-11-21T08:00:00.000Z"));
  const v2 = await publishVersion(
    { ...t.ctx, caller: operator },
    paperInput({ paperId: revisedId, keywords: ["moraines"] }),
  );
  expect(v2.outcome).toBe("published");
  (published.get(revisedId) as { keywords: string[] }).keywords = ["moraines"];
});
afterAll(async () => t.close());

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  textNodeName: "#text",
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => ["entry", "link", "category", "contributor", "author"].includes(name),
});

type Node = Record<string, unknown>;

/** Code points XML 1.0 forbids or discourages (C0 other than tab/LF/CR, DEL, C1). */
const forbiddenChars = (value: string) =>
  [...value].filter((ch) => {
    const cp = ch.codePointAt(0) ?? 0;
    return (cp < 0x20 && cp !== 0x9 && cp !== 0xa && cp !== 0xd) || (cp >= 0x7f && cp <= 0x9f);
  });
const text = (node: unknown): string =>
  typeof node === "string" ? node : String((node as Node)?.["#text"] ?? "");

async function fetchFeed(path: string): Promise<{ res: Response; xml: string; feed: Node }> {
  const res = await t.app.request(path);
  const xml = await res.text();
  expect(res.status, xml).toBe(200);
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = parser.parse(xml) as { feed: Node };
  return { res, xml, feed: doc.feed };
}

/** RFC 4287 §4.1.1/§4.1.2: the elements every feed and entry must carry. */
function expectAtomStructure(feed: Node): Node[] {
  expect(feed["@xmlns"]).toBe("http://www.w3.org/2005/Atom");
  expect(text(feed.id)).toMatch(/^http:\/\/quire\.test\/feed\.atom/);
  expect(text(feed.title).length).toBeGreaterThan(0);
  expect(Number.isNaN(Date.parse(text(feed.updated)))).toBe(false);
  const links = feed.link as Node[];
  const self = links.find((l) => l["@rel"] === "self");
  expect(self?.["@href"]).toBe(text(feed.id));
  expect(self?.["@type"]).toBe("application/atom+xml");
  expect(links.find((l) => l["@rel"] === "alternate")?.["@href"]).toBe(`${BASE}/`);
  expect(text((feed.author as Node[])[0]?.name)).toBe("Quire");
  const entries = (feed.entry as Node[] | undefined) ?? [];
  for (const entry of entries) {
    expect(text(entry.id)).toMatch(/^http:\/\/quire\.test\/papers\/\d{4}\.\d{5}$/);
    expect(text(entry.title).length).toBeGreaterThan(0);
    expect(text(entry.updated)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(text(entry.published)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect((entry.author as Node[]).length).toBe(1);
    expect(text((entry.author as Node[])[0]?.name).length).toBeGreaterThan(0);
    const link = (entry.link as Node[])[0] as Node;
    expect(link["@href"]).toBe(text(entry.id));
    expect(text(entry.summary)).toMatch(/^AI-generated by /);
    const terms = (entry.category as Node[]).map((c) => c["@term"]);
    expect(terms).toContain("AI-generated");
  }
  if (entries.length > 0) {
    const newest = Math.max(...entries.map((e) => Date.parse(text(e.updated))));
    expect(Date.parse(text(feed.updated))).toBe(newest);
  }
  return entries;
}

const idOf = (entry: Node) => text(entry.id).slice(`${BASE}/papers/`.length);

describe("GET /feed.atom", () => {
  it("lists the 50 newest visible papers, newest first, as valid Atom", async () => {
    const { res, feed } = await fetchFeed("/feed.atom");
    expect(res.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const entries = expectAtomStructure(feed);
    expect(text(feed.id)).toBe(`${BASE}/feed.atom`);
    expect(entries).toHaveLength(ATOM_FEED_SIZE);
    const expected = [...published.entries()]
      .sort(
        ([a, x], [b, y]) => y.publishedAt.getTime() - x.publishedAt.getTime() || (a < b ? 1 : -1),
      )
      .slice(0, ATOM_FEED_SIZE)
      .map(([id]) => id);
    expect(entries.map(idOf)).toEqual(expected);
    expect(entries.map(idOf)).not.toContain(withdrawnId);
  });

  it("gives each entry its dates, AI model as author, owner as contributor and keywords", async () => {
    const { feed } = await fetchFeed("/feed.atom");
    const entries = feed.entry as Node[];
    const owned = entries.find((e) => idOf(e) === ownedId) as Node;
    expect(text((owned.author as Node[])[0]?.name)).toBe('model-<x>&"y"');
    expect(text((owned.contributor as Node[])[0]?.name)).toBe(ownerHandle);
    const info = published.get(ownedId);
    expect(text(owned.published)).toBe(info?.publishedAt.toISOString());
    expect(text(owned.rights)).toBe("CC-BY-4.0");
    const terms = (owned.category as Node[]).map((c) => c["@term"]);
    expect(terms).toEqual(["AI-generated", ...(info?.keywords ?? [])]);
    const unowned = entries.find((e) => idOf(e) === specialId) as Node;
    expect(unowned.contributor).toBeUndefined();
    const revised = entries.find((e) => idOf(e) === revisedId) as Node;
    expect(text(revised.updated)).toBe("2026-11-21T08:00:00.000Z");
    expect(text(revised.published)).toBe(published.get(revisedId)?.publishedAt.toISOString());
  });

  it("escapes markup characters and drops characters XML 1.0 forbids", async () => {
    const { xml, feed } = await fetchFeed("/feed.atom");
    expect(xml).toContain("Quotes \"double\" &amp; 'single' &lt;tags&gt;");
    expect(forbiddenChars(xml)).toEqual([]);
    const special = (feed.entry as Node[]).find((e) => idOf(e) === specialId) as Node;
    expect(text(special.title)).toBe(SPECIAL_TITLE_CLEAN);
    const owned = (feed.entry as Node[]).find((e) => idOf(e) === ownedId) as Node;
    expect(text(owned.summary)).toMatch(/^AI-generated by model-<x>&"y"\. This paper /);
  });

  it("answers If-None-Match with 304 and HEAD without a body", async () => {
    const first = await t.app.request("/feed.atom");
    const tag = first.headers.get("etag");
    expect(tag).toBeTruthy();
    const again = await t.app.request("/feed.atom", {
      headers: { "if-none-match": tag as string },
    });
    expect(again.status).toBe(304);
    const head = await t.app.request("/feed.atom", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});

describe("GET /feed.atom?keyword=", () => {
  it("keeps only papers whose current version has the keyword, in any case", async () => {
    const { feed } = await fetchFeed("/feed.atom?keyword=%20GlAcIeRs%20");
    const entries = expectAtomStructure(feed);
    expect(text(feed.id)).toBe(`${BASE}/feed.atom?keyword=glaciers`);
    expect(text(feed.title)).toContain("glaciers");
    const expected = [...published.entries()]
      .filter(([, p]) => p.keywords.some((k) => k.toLowerCase() === "glaciers"))
      .sort(([, x], [, y]) => y.publishedAt.getTime() - x.publishedAt.getTime())
      .map(([id]) => id);
    expect(expected).toHaveLength(2);
    expect(entries.map(idOf)).toEqual(expected);
    // "glaciers sheets" is another keyword; the withdrawn paper and the old version don't count.
    expect(entries.map(idOf)).not.toContain(withdrawnId);
    expect(entries.map(idOf)).not.toContain(revisedId);
  });

  it("percent-encodes the keyword in the feed id and escapes it in the title", async () => {
    const { feed } = await fetchFeed(`/feed.atom?keyword=${encodeURIComponent("A&B <c>")}`);
    expect(text(feed.id)).toBe(`${BASE}/feed.atom?keyword=a%26b%20%3Cc%3E`);
    expect(text(feed.title)).toContain("a&b <c>");
  });

  it("gives a valid, empty feed for a keyword nobody used", async () => {
    const { feed } = await fetchFeed("/feed.atom?keyword=nothing-has-this");
    expect(expectAtomStructure(feed)).toHaveLength(0);
    expect(text(feed.updated)).toBe(clock.now().toISOString());
  });

  it("rejects an empty or overlong keyword with a problem", async () => {
    for (const keyword of ["", "%20%20", "k".repeat(201)]) {
      const res = await t.app.request(`/feed.atom?keyword=${keyword}`);
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      const body = (await res.json()) as { errors: { name: string }[] };
      expect(body.errors[0]?.name).toBe("keyword");
    }
  });
});
