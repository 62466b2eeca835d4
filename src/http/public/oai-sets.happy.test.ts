/** @module /oai sets: ListSets, setSpecs in headers, selective harvesting, tokens that keep the set. */

import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oaiSchemaErrors } from "../../../test/fixtures/oai/schema.ts";
import { respondOai } from "../../services/feeds/oai.ts";
import { SUBJECT_GROUPS, SUBJECTS } from "../../services/subjects/index.ts";
import { setPaperStatus } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { fixedClock } from "../../testing/db.ts";
import { publishPaper } from "../../testing/factories.ts";

const clock = fixedClock(new Date("2026-11-02T12:00:00.000Z"));
let t: TestApp;
const ids: Record<string, string> = {};

const PAPERS: [string, string[] | undefined][] = [
  ["cl", ["cs.CL", "cs.LG"]],
  ["th", ["hep-th"]],
  ["sy", ["eess.SY"]],
  ["none", undefined],
  ["gone", ["cs.CL"]],
  ["na", ["math.NA", "cs.MS"]],
];

beforeAll(async () => {
  t = await createTestApp({ services: { clock } });
  for (const [i, [name, subjects]] of PAPERS.entries()) {
    const at = new Date(Date.UTC(2026, 9, 1 + i));
    clock.set(at);
    ids[name] = (
      await publishPaper(t.ctx, { publishedAt: at, ...(subjects ? { subjects } : {}) })
    ).paper_id;
  }
  await setPaperStatus(t.ctx, ids.gone!, "withdrawn", new Date("2026-10-20T00:00:00Z"));
  clock.set(new Date("2026-11-02T12:00:00.000Z"));
});
afterAll(async () => t.close());

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  textNodeName: "#text",
  parseTagValue: false,
  isArray: (name) => ["set", "header", "record", "setSpec", "dc:subject", "error"].includes(name),
});
type Node = Record<string, unknown>;
const text = (node: unknown): string =>
  typeof node === "string" ? node : String((node as Node | undefined)?.["#text"] ?? "");

/** A schema-valid answer without errors. */
async function valid(xml: string): Promise<Node> {
  expect(await oaiSchemaErrors(xml)).toEqual([]);
  const root = (parser.parse(xml) as { "OAI-PMH": Node })["OAI-PMH"];
  expect(root.error, xml).toBeUndefined();
  return root;
}

async function oai(query: string): Promise<Node> {
  const res = await t.app.request(`/oai?${query}`);
  expect(res.status).toBe(200);
  return valid(await res.text());
}

const nameOf = (header: Node) => {
  const id = text(header.identifier).replace("oai:quire.test:", "");
  return Object.entries(ids).find(([, v]) => v === id)?.[0];
};
const specs = (header: Node) => ((header.setSpec as unknown[]) ?? []).map(text);

describe("ListSets", () => {
  it("lists a set per group and per category under its group, named in English", async () => {
    const root = await oai("verb=ListSets");
    const sets = ((root.ListSets as Node).set as Node[]).map((s) => [
      text((s.setSpec as unknown[])[0]),
      text(s.setName),
    ]);
    expect(sets).toHaveLength(SUBJECT_GROUPS.length + SUBJECTS.length);
    expect(sets.slice(0, SUBJECT_GROUPS.length).map(([spec]) => spec)).toEqual(
      SUBJECT_GROUPS.map((g) => g.code),
    );
    expect(sets).toContainEqual(["cs", "Computer Science"]);
    expect(sets).toContainEqual(["physics", "Physics"]);
    expect(sets).toContainEqual(["cs:cs.CL", "Computation and Language"]);
    expect(sets).toContainEqual(["physics:hep-th", "High Energy Physics - Theory"]);
    expect(sets).toContainEqual(["physics:cond-mat.mes-hall", "Mesoscale and Nanoscale Physics"]);
    expect((root.ListSets as Node).resumptionToken).toBeUndefined();
  });
});

describe("records carry their sets", () => {
  it("lists a category's set and every group set that holds it, deleted records too", async () => {
    const root = await oai("verb=ListIdentifiers&metadataPrefix=oai_dc");
    const headers = (root.ListIdentifiers as Node).header as Node[];
    const byName = Object.fromEntries(headers.map((h) => [nameOf(h), specs(h)]));
    expect(byName).toEqual({
      cl: ["cs", "cs:cs.CL", "cs:cs.LG"],
      th: ["physics", "physics:hep-th"],
      sy: ["eess", "cs", "eess:eess.SY"],
      none: [],
      gone: ["cs", "cs:cs.CL"],
      na: ["math", "cs", "math:math.NA", "cs:cs.MS"],
    });
  });

  it("names the subjects in Dublin Core too", async () => {
    const root = await oai(
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:quire.test:${ids.cl}`,
    );
    const record = ((root.GetRecord as Node).record as Node[])[0] as Node;
    expect(specs((record.header as Node[])[0] as Node)).toEqual(["cs", "cs:cs.CL", "cs:cs.LG"]);
    const dc = (record.metadata as Node)["oai_dc:dc"] as Node;
    const subjects = (dc["dc:subject"] as unknown[]).map(text);
    expect(subjects).toContain("Computation and Language (cs.CL)");
    expect(subjects).toContain("Machine Learning (cs.LG)");
  });
});

describe("selective harvesting by set", () => {
  it.each([
    // In harvest order: by datestamp (the withdrawal moved the withdrawn paper's).
    ["cs", ["cl", "sy", "na", "gone"]],
    ["cs:cs.CL", ["cl", "gone"]],
    ["physics", ["th"]],
    ["physics:hep-th", ["th"]],
    ["math", ["na"]],
    ["eess:eess.SY", ["sy"]],
  ])("set=%s holds its records, deleted ones included", async (set, names) => {
    for (const verb of ["ListIdentifiers", "ListRecords"] as const) {
      const root = await oai(`verb=${verb}&metadataPrefix=oai_dc&set=${set}`);
      expect(((root.request as Node)["@set"] as string) ?? "").toBe(set);
      const list = root[verb] as Node;
      const headers =
        verb === "ListRecords"
          ? (list.record as Node[]).map((r) => (r.header as Node[])[0] as Node)
          : (list.header as Node[]);
      expect(headers.map(nameOf)).toEqual(names);
    }
  });

  it("keeps the set across resumption tokens, with a complete size for the set", async () => {
    const seen: string[] = [];
    let args: [string, string][] = [
      ["verb", "ListRecords"],
      ["metadataPrefix", "oai_dc"],
      ["set", "cs"],
    ];
    for (let page = 0; page < 10; page++) {
      const root = await valid(await respondOai(t.ctx, { args, pageSize: 1 }));
      const list = root.ListRecords as Node;
      seen.push(...(list.record as Node[]).map((r) => nameOf((r.header as Node[])[0] as Node)!));
      const token = list.resumptionToken as Node | undefined;
      if (token !== undefined && typeof token === "object") {
        expect(token["@completeListSize"]).toBe("4");
      }
      const value = text(token);
      if (!value) break;
      args = [
        ["verb", "ListRecords"],
        ["resumptionToken", value],
      ];
    }
    expect(seen).toEqual(["cl", "sy", "na", "gone"]);
  });
});
