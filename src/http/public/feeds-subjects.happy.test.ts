/** @module GET /feed.atom by subject and by search query: entries, categories, titles, ids, errors. */

import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUBJECT_SCHEME } from "../../services/feeds/atom.ts";
import { setPaperStatus } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { fixedClock } from "../../testing/db.ts";
import { paperInput, publishPaper } from "../../testing/factories.ts";

const BASE = "http://quire.test";
let t: TestApp;
const ids: Record<string, string> = {};

async function publish(name: string, minutes: number, subjects?: string[], abstractWord?: string) {
  const input = paperInput({
    publishedAt: new Date(Date.UTC(2026, 9, 1) + minutes * 60_000),
    ...(subjects ? { subjects } : {}),
  });
  if (abstractWord) {
    input.abstract = `${input.abstract} The ${abstractWord} effect is central to this study.`;
  }
  ids[name] = (await publishPaper(t.ctx, input)).paper_id;
}

beforeAll(async () => {
  t = await createTestApp({ services: { clock: fixedClock(new Date("2026-11-20T12:00:00Z")) } });
  await publish("cl", 10, ["cs.CL", "cs.LG"], "zorbleflux");
  await publish("lg", 20, ["stat.ML", "cs.LG"]);
  await publish("sy", 30, ["eess.SY"], "zorbleflux");
  await publish("th", 40, ["hep-th"], "zorbleflux");
  await publish("none", 50, undefined, "zorbleflux");
  await publish("gone", 60, ["cs.CL"], "zorbleflux");
  await setPaperStatus(t.ctx, ids.gone!, "withdrawn");
});
afterAll(async () => t.close());

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  textNodeName: "#text",
  parseTagValue: false,
  isArray: (name) => ["entry", "link", "category"].includes(name),
});
type Node = Record<string, unknown>;
const text = (node: unknown): string =>
  typeof node === "string" ? node : String((node as Node)?.["#text"] ?? "");

async function feed(path: string): Promise<{ feed: Node; entries: Node[]; names: string[] }> {
  const res = await t.app.request(path);
  const xml = await res.text();
  expect(res.status, xml).toBe(200);
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = (parser.parse(xml) as { feed: Node }).feed;
  const entries = (doc.entry as Node[] | undefined) ?? [];
  const byId = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
  const names = entries.map((e) => byId[text(e.id).slice(`${BASE}/papers/`.length)] ?? "?");
  return { feed: doc, entries, names };
}

describe("GET /feed.atom?subject=", () => {
  it("keeps a code's papers, cross-lists included, newest first, and says so", async () => {
    const { feed: f, names } = await feed("/feed.atom?subject=cs.LG");
    expect(names).toEqual(["lg", "cl"]);
    expect(text(f.id)).toBe(`${BASE}/feed.atom?subject=cs.LG`);
    expect(text(f.title)).toBe("Quire: new papers in Machine Learning (cs.LG)");
    const alternate = (f.link as Node[]).find((l) => l["@rel"] === "alternate");
    expect(alternate?.["@href"]).toBe(`${BASE}/subjects/cs.LG`);
  });

  it("takes a group or an archive (aliases included), never withdrawn papers", async () => {
    expect((await feed("/feed.atom?subject=cs")).names).toEqual(["sy", "lg", "cl"]);
    expect((await feed("/feed.atom?subject=physics")).names).toEqual(["th"]);
    expect((await feed("/feed.atom?subject=hep-th")).names).toEqual(["th"]);
    expect((await feed("/feed.atom?subject=q-fin")).names).toEqual([]);
  });

  it("gives every entry a category per subject in arXiv's scheme, named in English", async () => {
    const { entries } = await feed("/feed.atom");
    const cl = entries.find((e) => text(e.id).endsWith(ids.cl!)) as Node;
    const subjects = (cl.category as Node[]).filter((c) => c["@scheme"] === SUBJECT_SCHEME);
    expect(subjects.map((c) => [c["@term"], c["@label"]])).toEqual([
      ["cs.CL", "Computation and Language"],
      ["cs.LG", "Machine Learning"],
    ]);
    const none = entries.find((e) => text(e.id).endsWith(ids.none!)) as Node;
    expect((none.category as Node[]).some((c) => c["@scheme"] === SUBJECT_SCHEME)).toBe(false);
  });

  it("answers an unknown subject with a 400 problem naming it, as other bad parameters", async () => {
    const res = await t.app.request("/feed.atom?subject=cs.XX&keyword=");
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = (await res.json()) as { errors: { name: string; message: string }[] };
    expect(body.errors.map((e) => e.name).sort()).toEqual(["keyword", "subject"]);
    expect(body.errors.find((e) => e.name === "subject")?.message).toContain('"cs.XX"');
  });
});

describe("GET /feed.atom?q=", () => {
  it("keeps the papers the search matches, newest first, with the query in id and title", async () => {
    const { feed: f, names } = await feed("/feed.atom?q=%20zorbleflux%20");
    expect(names).toEqual(["none", "th", "sy", "cl"]);
    expect(text(f.id)).toBe(`${BASE}/feed.atom?q=zorbleflux`);
    expect(text(f.title)).toBe("Quire: new papers matching “zorbleflux”");
    const alternate = (f.link as Node[]).find((l) => l["@rel"] === "alternate");
    expect(alternate?.["@href"]).toBe(`${BASE}/?q=zorbleflux`);
  });

  it("combines with a subject, and is empty (and valid) when nothing matches", async () => {
    const { feed: f, names } = await feed("/feed.atom?subject=cs&q=zorbleflux");
    expect(names).toEqual(["sy", "cl"]);
    expect(text(f.id)).toBe(`${BASE}/feed.atom?subject=cs&q=zorbleflux`);
    expect((await feed("/feed.atom?q=nothing%20mentions%20quaxibrel")).names).toEqual([]);
  });

  it("refuses a query that is too short, as the search does", async () => {
    const res = await t.app.request("/feed.atom?q=a");
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { name: string }[] };
    expect(body.errors.map((e) => e.name)).toEqual(["q"]);
  });

  it("validates with an ETag per query (the body's hash)", async () => {
    const one = await t.app.request("/feed.atom?subject=cs");
    const two = await t.app.request("/feed.atom?subject=physics");
    const tag = one.headers.get("etag");
    expect(tag).toBeTruthy();
    expect(two.headers.get("etag")).not.toBe(tag);
    const again = await t.app.request("/feed.atom?subject=cs", {
      headers: { "if-none-match": tag as string },
    });
    expect(again.status).toBe(304);
  });
});
