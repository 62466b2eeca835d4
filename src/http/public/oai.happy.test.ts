/** @module /oai: every verb, full harvests by resumption token, from/until, deleted records. */

import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oaiSchemaErrors } from "../../../test/fixtures/oai/schema.ts";
import { formatDatestamp, respondOai } from "../../services/feeds/oai.ts";
import { publishVersion } from "../../services/papers/publish.ts";
import { setPaperStatus } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { fixedClock, operator } from "../../testing/db.ts";
import { makeOwner, paperInput, publishPaper } from "../../testing/factories.ts";

const BASE = "http://quire.test";
const PAPERS = 230;
const clock = fixedClock(new Date("2026-11-02T12:00:00.000Z"));
let t: TestApp;

interface Known {
  id: string;
  updatedAt: Date;
  publishedAt: Date;
  deleted: boolean;
}
const known = new Map<string, Known>();
let specialId: string;
let ownedId: string;
let ownerHandle: string;
let withdrawnId: string;
let removedId: string;
let revisedId: string;
let subSecondId: string;

const SPECIAL_TITLE = `Ampersands & <angle> "quotes" 'apostrophes' \u0002\u001b\u000c and ]]> too`;
const START = Date.UTC(2026, 9, 1);

beforeAll(async () => {
  t = await createTestApp({ services: { clock } });
  const owner = await makeOwner(t.ctx);
  ownerHandle = owner.handle;
  for (let i = 0; i < PAPERS; i++) {
    // Every tenth paper lands 700 ms into its second, to test second-granularity bounds.
    const publishedAt = new Date(START + i * 50 * 60_000 + (i % 10 === 3 ? 700 : 0));
    const overrides =
      i === 5
        ? { title: SPECIAL_TITLE, keywords: ["xml", "escaping"] }
        : i === 7
          ? { ownerId: owner.id, ai_model: "claude-opus-4.5" }
          : {};
    // The archive changes when a paper is published: its datestamp is the clock's time.
    clock.set(publishedAt);
    const { paper_id } = await publishPaper(t.ctx, { publishedAt, ...overrides });
    known.set(paper_id, { id: paper_id, updatedAt: publishedAt, publishedAt, deleted: false });
    if (i === 5) specialId = paper_id;
    if (i === 7) ownedId = paper_id;
    if (i === 11) withdrawnId = paper_id;
    if (i === 12) removedId = paper_id;
    if (i === 13) revisedId = paper_id;
    if (i === 23) subSecondId = paper_id;
  }
  // Withdrawal and removal are deletions: the datestamp becomes the time they happened.
  await markDeleted(withdrawnId, "withdrawn", new Date("2026-10-20T10:00:00.000Z"));
  await markDeleted(removedId, "removed", new Date("2026-10-20T11:00:00.000Z"));
  clock.set(new Date("2026-10-21T09:30:00.250Z"));
  const v2 = await publishVersion(
    { ...t.ctx, caller: operator },
    paperInput({ paperId: revisedId, title: "A revised title for the second version" }),
  );
  expect(v2.outcome).toBe("published");
  (known.get(revisedId) as Known).updatedAt = clock.now();
  clock.set(new Date("2026-11-02T12:00:00.000Z"));
}, 300_000);
afterAll(async () => t.close());

async function markDeleted(id: string, status: "withdrawn" | "removed", at: Date) {
  await setPaperStatus(t.ctx, id, status, at);
  const entry = known.get(id) as Known;
  entry.updatedAt = at;
  entry.deleted = true;
}

/** Known records in harvest order: by datestamp (at full precision), then id. */
function inHarvestOrder(filter: (k: Known) => boolean = () => true): Known[] {
  return [...known.values()]
    .filter(filter)
    .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime() || (a.id < b.id ? -1 : 1));
}

const oaiId = (id: string) => `oai:quire.test:${id}`;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  textNodeName: "#text",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name) =>
    [
      "record",
      "header",
      "error",
      "metadataFormat",
      "dc:subject",
      "dc:description",
      "dc:type",
      "dc:identifier",
      "dc:contributor",
    ].includes(name),
});

type Node = Record<string, unknown>;

/** Code points XML 1.0 forbids or discourages (C0 other than tab/LF/CR, DEL, C1). */
const forbiddenChars = (value: string) =>
  [...value].filter((ch) => {
    const cp = ch.codePointAt(0) ?? 0;
    return (cp < 0x20 && cp !== 0x9 && cp !== 0xa && cp !== 0xd) || (cp >= 0x7f && cp <= 0x9f);
  });
const text = (node: unknown): string =>
  typeof node === "string" ? node : String((node as Node | undefined)?.["#text"] ?? "");

/** Every response: 200, text/xml, cacheable, well-formed and valid against OAI-PMH.xsd. */
async function oai(
  query: string,
  method: "GET" | "POST" = "GET",
): Promise<{ res: Response; xml: string; root: Node }> {
  const res =
    method === "GET"
      ? await t.app.request(`/oai?${query}`)
      : await t.app.request("/oai", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: query,
        });
  const xml = await res.text();
  expect(res.status, xml).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/xml; charset=utf-8");
  expect(res.headers.get("cache-control")).toBe("public, max-age=300");
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(await oaiSchemaErrors(xml)).toEqual([]);
  const root = (parser.parse(xml) as { "OAI-PMH": Node })["OAI-PMH"];
  expect(root["@xmlns"]).toBe("http://www.openarchives.org/OAI/2.0/");
  expect(root["@xsi:schemaLocation"]).toBe(
    "http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd",
  );
  expect(text(root.responseDate)).toBe("2026-11-02T12:00:00Z");
  expect(text(root.request)).toBe(`${BASE}/oai`);
  expect(root.error, xml).toBeUndefined();
  return { res, xml, root };
}

interface Walked {
  headers: Node[];
  records: Node[];
  pages: number;
  tokens: Node[];
}

/** Follows resumption tokens to the end of a list. */
async function walk(
  verb: "ListIdentifiers" | "ListRecords",
  args: string,
  method: "GET" | "POST" = "GET",
): Promise<Walked> {
  const out: Walked = { headers: [], records: [], pages: 0, tokens: [] };
  let query = `verb=${verb}&${args}`;
  for (;;) {
    const { root } = await oai(query, method);
    out.pages++;
    expect(out.pages, "paging does not end").toBeLessThan(50);
    const list = root[verb] as Node;
    if (verb === "ListRecords") {
      const records = list.record as Node[];
      out.records.push(...records);
      out.headers.push(...records.map((r) => (r.header as Node[])[0] as Node));
    } else {
      out.headers.push(...(list.header as Node[]));
    }
    const token = list.resumptionToken as Node | string | undefined;
    if (token === undefined) break;
    const node = typeof token === "string" ? { "#text": token } : token;
    out.tokens.push(node);
    const value = text(node);
    if (value === "") break;
    query = `verb=${verb}&resumptionToken=${encodeURIComponent(value)}`;
  }
  return out;
}

const headerIds = (headers: Node[]) => headers.map((h) => text(h.identifier));

describe("Identify and ListMetadataFormats", () => {
  it("describes the repository", async () => {
    const { root } = await oai("verb=Identify");
    expect((root.request as Node)["@verb"]).toBe("Identify");
    const identify = root.Identify as Node;
    expect(text(identify.repositoryName)).toBe("Quire");
    expect(text(identify.baseURL)).toBe(`${BASE}/oai`);
    expect(text(identify.protocolVersion)).toBe("2.0");
    expect(text(identify.adminEmail)).toBe("admin@quire.test");
    expect(text(identify.earliestDatestamp)).toBe("2026-10-01T00:00:00Z");
    expect(text(identify.deletedRecord)).toBe("persistent");
    expect(text(identify.granularity)).toBe("YYYY-MM-DDThh:mm:ssZ");
  });

  it("offers oai_dc, for the repository and for one item", async () => {
    for (const query of [
      "verb=ListMetadataFormats",
      `verb=ListMetadataFormats&identifier=${encodeURIComponent(oaiId(ownedId))}`,
    ]) {
      const { root } = await oai(query);
      const formats = (root.ListMetadataFormats as Node).metadataFormat as Node[];
      expect(formats).toHaveLength(1);
      expect(text(formats[0]?.metadataPrefix)).toBe("oai_dc");
      expect(text(formats[0]?.schema)).toBe("http://www.openarchives.org/OAI/2.0/oai_dc.xsd");
      expect(text(formats[0]?.metadataNamespace)).toBe(
        "http://www.openarchives.org/OAI/2.0/oai_dc/",
      );
    }
  });
});

describe("GetRecord", () => {
  it("gives Dublin Core: AI model as creator, owner as contributor, the AI label", async () => {
    const { root } = await oai(
      `verb=GetRecord&identifier=${encodeURIComponent(oaiId(ownedId))}&metadataPrefix=oai_dc`,
    );
    const request = root.request as Node;
    expect(request["@identifier"]).toBe(oaiId(ownedId));
    expect(request["@metadataPrefix"]).toBe("oai_dc");
    const record = ((root.GetRecord as Node).record as Node[])[0] as Node;
    const header = (record.header as Node[])[0] as Node;
    expect(header["@status"]).toBeUndefined();
    expect(text(header.identifier)).toBe(oaiId(ownedId));
    expect(text(header.datestamp)).toBe(formatDatestamp(known.get(ownedId)?.updatedAt as Date));
    const dc = (record.metadata as Node)["oai_dc:dc"] as Node;
    expect(dc["@xmlns:dc"]).toBe("http://purl.org/dc/elements/1.1/");
    expect(text(dc["dc:creator"])).toBe("claude-opus-4.5");
    expect((dc["dc:contributor"] as Node[]).map(text)).toEqual([ownerHandle]);
    expect(text(dc["dc:title"])).toMatch(/^A study of /);
    expect((dc["dc:subject"] as Node[]).length).toBe(2);
    const descriptions = (dc["dc:description"] as Node[]).map(text);
    expect(descriptions[0]).toMatch(/^This paper /);
    expect(descriptions[1]).toBe(
      `AI-generated: this paper was written by the AI model claude-opus-4.5 and submitted to Quire by ${ownerHandle}.`,
    );
    expect(text(dc["dc:date"])).toBe(known.get(ownedId)!.publishedAt.toISOString().slice(0, 10));
    expect((dc["dc:type"] as Node[]).map(text)).toEqual(["Text", "preprint"]);
    expect((dc["dc:identifier"] as Node[]).map(text)).toEqual([
      `${BASE}/papers/${ownedId}`,
      ownedId,
    ]);
    expect(text(dc["dc:language"])).toBe("en");
    expect(text(dc["dc:rights"])).toBe("CC-BY-4.0");
  });

  it("escapes titles and strips control characters", async () => {
    const { xml, root } = await oai(
      `verb=GetRecord&identifier=${encodeURIComponent(oaiId(specialId))}&metadataPrefix=oai_dc`,
    );
    expect(xml).toContain(
      "Ampersands &amp; &lt;angle&gt; \"quotes\" 'apostrophes'  and ]]&gt; too",
    );
    expect(forbiddenChars(xml)).toEqual([]);
    const record = ((root.GetRecord as Node).record as Node[])[0] as Node;
    const dc = (record.metadata as Node)["oai_dc:dc"] as Node;
    expect(text(dc["dc:title"])).toBe("Ampersands & <angle> \"quotes\" 'apostrophes'  and ]]> too");
    expect(dc["dc:contributor"]).toBeUndefined();
  });

  it("gives a withdrawn or removed paper as a deleted header without metadata", async () => {
    for (const id of [withdrawnId, removedId]) {
      const { root } = await oai(
        `verb=GetRecord&identifier=${encodeURIComponent(oaiId(id))}&metadataPrefix=oai_dc`,
      );
      const record = ((root.GetRecord as Node).record as Node[])[0] as Node;
      const header = (record.header as Node[])[0] as Node;
      expect(header["@status"]).toBe("deleted");
      expect(text(header.datestamp)).toBe(formatDatestamp(known.get(id)?.updatedAt as Date));
      expect(record.metadata).toBeUndefined();
    }
  });

  it("describes the current version of a revised paper, dated by the revision", async () => {
    const { root } = await oai(
      `verb=GetRecord&identifier=${encodeURIComponent(oaiId(revisedId))}&metadataPrefix=oai_dc`,
    );
    const record = ((root.GetRecord as Node).record as Node[])[0] as Node;
    expect(text(((record.header as Node[])[0] as Node).datestamp)).toBe("2026-10-21T09:30:00Z");
    const dc = (record.metadata as Node)["oai_dc:dc"] as Node;
    expect(text(dc["dc:title"])).toBe("A revised title for the second version");
  });
});

describe("complete harvests with resumption tokens", () => {
  it("ListIdentifiers walks every record exactly once, in datestamp order", async () => {
    const walked = await walk("ListIdentifiers", "metadataPrefix=oai_dc");
    const expected = inHarvestOrder();
    expect(expected).toHaveLength(PAPERS);
    expect(walked.pages).toBe(3);
    expect(headerIds(walked.headers)).toEqual(expected.map((k) => oaiId(k.id)));
    expect(new Set(headerIds(walked.headers)).size).toBe(PAPERS);
    expect(walked.headers.map((h) => text(h.datestamp))).toEqual(
      expected.map((k) => formatDatestamp(k.updatedAt)),
    );
    const deleted = walked.headers.filter((h) => h["@status"] === "deleted");
    expect(headerIds(deleted).sort()).toEqual([oaiId(withdrawnId), oaiId(removedId)].sort());
    expect(walked.tokens.map((tk) => [tk["@cursor"], tk["@completeListSize"]])).toEqual([
      ["0", String(PAPERS)],
      ["100", String(PAPERS)],
      ["200", String(PAPERS)],
    ]);
    expect(text(walked.tokens[2])).toBe("");
    expect(walked.tokens[0]?.["@expirationDate"]).toBe("2026-11-03T12:00:00Z");
  });

  it("ListRecords over POST walks every record exactly once, metadata only for live papers", async () => {
    const walked = await walk("ListRecords", "metadataPrefix=oai_dc", "POST");
    expect(walked.pages).toBe(3);
    expect(headerIds(walked.headers)).toEqual(inHarvestOrder().map((k) => oaiId(k.id)));
    for (const record of walked.records) {
      const header = (record.header as Node[])[0] as Node;
      if (header["@status"] === "deleted") expect(record.metadata).toBeUndefined();
      else expect((record.metadata as Node)["oai_dc:dc"]).toBeDefined();
    }
  });

  it("walks in small pages through the service, within a window, once each", async () => {
    const window = (k: Known) =>
      k.updatedAt >= new Date("2026-10-02T00:00:00Z") &&
      k.updatedAt < new Date("2026-10-06T00:00:00Z");
    const expected = inHarvestOrder(window).map((k) => oaiId(k.id));
    let args: [string, string][] = [
      ["verb", "ListIdentifiers"],
      ["metadataPrefix", "oai_dc"],
      ["from", "2026-10-02"],
      ["until", "2026-10-05"],
    ];
    const seen: string[] = [];
    for (let page = 0; page < 100; page++) {
      const xml = await respondOai(t.ctx, { args, pageSize: 7 });
      const root = (parser.parse(xml) as { "OAI-PMH": Node })["OAI-PMH"];
      const list = root.ListIdentifiers as Node;
      const headers = list.header as Node[];
      expect(headers.length).toBeLessThanOrEqual(7);
      seen.push(...headerIds(headers));
      const token = list.resumptionToken as Node;
      expect(token["@cursor"]).toBe(String(page * 7));
      expect(token["@completeListSize"]).toBe(String(expected.length));
      if (text(token) === "") break;
      args = [
        ["verb", "ListIdentifiers"],
        ["resumptionToken", text(token)],
      ];
    }
    expect(seen).toEqual(expected);
    expect(expected.length).toBeGreaterThan(70);
  });

  it("gives a list that fits in one page without a resumption token", async () => {
    const { root } = await oai("verb=ListIdentifiers&metadataPrefix=oai_dc&from=2026-10-20");
    const list = root.ListIdentifiers as Node;
    expect(list.resumptionToken).toBeUndefined();
    expect(headerIds(list.header as Node[])).toEqual([
      oaiId(withdrawnId),
      oaiId(removedId),
      oaiId(revisedId),
    ]);
  });
});

describe("from and until", () => {
  it("select by day, both bounds inclusive, and are echoed in the request", async () => {
    const day = async (from: string, until: string) => {
      const { root } = await oai(
        `verb=ListIdentifiers&metadataPrefix=oai_dc&from=${from}&until=${until}`,
      );
      const request = root.request as Node;
      expect([request["@verb"], request["@from"], request["@until"]]).toEqual([
        "ListIdentifiers",
        from,
        until,
      ]);
      const expected = inHarvestOrder(
        (k) =>
          k.updatedAt >= new Date(`${from}T00:00:00Z`) &&
          k.updatedAt < new Date(new Date(`${until}T00:00:00Z`).getTime() + 86_400_000),
      );
      const headers = (root.ListIdentifiers as Node).header as Node[];
      expect(headerIds(headers)).toEqual(expected.map((k) => oaiId(k.id)));
      return headers.map((h) => text(h.datestamp));
    };
    // Paper 144 is published at exactly 2026-10-06T00:00:00Z.
    const sixth = await day("2026-10-06", "2026-10-06");
    expect(sixth[0]).toBe("2026-10-06T00:00:00Z");
    const fifth = await day("2026-10-05", "2026-10-05");
    expect(fifth.at(-1)).toBe("2026-10-05T23:10:00Z");
    expect(fifth).not.toContain("2026-10-06T00:00:00Z");
    expect((await day("2026-10-03", "2026-10-04")).length).toBe(58);
  });

  it("select by second, counting a record by its shown datestamp", async () => {
    const record = known.get(subSecondId) as Known;
    expect(record.updatedAt.getUTCMilliseconds()).toBe(700);
    const stamp = formatDatestamp(record.updatedAt);
    const exact = await oai(
      `verb=ListIdentifiers&metadataPrefix=oai_dc&from=${stamp}&until=${stamp}`,
    );
    expect(headerIds((exact.root.ListIdentifiers as Node).header as Node[])).toEqual([
      oaiId(subSecondId),
    ]);
    const later = formatDatestamp(new Date(record.updatedAt.getTime() + 1000));
    const fromLater = await oai(
      `verb=ListRecords&metadataPrefix=oai_dc&from=${later}&until=2026-10-02T12:00:00Z`,
    );
    const ids = headerIds(
      ((fromLater.root.ListRecords as Node).record as Node[]).map(
        (r) => (r.header as Node[])[0] as Node,
      ),
    );
    expect(ids).not.toContain(oaiId(subSecondId));
    expect(ids).toEqual(
      inHarvestOrder(
        (k) => k.updatedAt >= new Date(later) && k.updatedAt < new Date("2026-10-02T12:00:01Z"),
      ).map((k) => oaiId(k.id)),
    );
  });

  it("finds deletions by the time they happened", async () => {
    const { root } = await oai(
      "verb=ListIdentifiers&metadataPrefix=oai_dc&from=2026-10-20T10:00:00Z&until=2026-10-20T11:00:00Z",
    );
    const headers = (root.ListIdentifiers as Node).header as Node[];
    expect(headerIds(headers)).toEqual([oaiId(withdrawnId), oaiId(removedId)]);
    expect(headers.every((h) => h["@status"] === "deleted")).toBe(true);
  });

  it("keeps from and until inside resumption tokens", async () => {
    const walked = await walk("ListIdentifiers", "metadataPrefix=oai_dc&until=2026-10-08");
    const expected = inHarvestOrder((k) => k.updatedAt < new Date("2026-10-09T00:00:00Z"));
    expect(walked.pages).toBe(3);
    expect(headerIds(walked.headers)).toEqual(expected.map((k) => oaiId(k.id)));
  });
});
