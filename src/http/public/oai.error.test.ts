/** @module /oai protocol errors: every OAI-PMH error code, as HTTP 200 with <error>, schema-valid. */

import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oaiSchemaErrors } from "../../../test/fixtures/oai/schema.ts";
import { type OaiErrorCode, respondOai } from "../../services/feeds/oai.ts";
import { setPaperStatus } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { fixedClock } from "../../testing/db.ts";
import { publishPaper } from "../../testing/factories.ts";

const clock = fixedClock(new Date("2026-11-02T12:00:00.000Z"));
let t: TestApp;
let liveId: string;
let withdrawnId: string;

beforeAll(async () => {
  t = await createTestApp({ services: { clock } });
  for (let i = 0; i < 5; i++) {
    const publishedAt = new Date(Date.UTC(2026, 9, 1 + i));
    const { paper_id } = await publishPaper(t.ctx, { publishedAt });
    if (i === 0) liveId = paper_id;
    if (i === 1) withdrawnId = paper_id;
  }
  await setPaperStatus(t.ctx, withdrawnId, "withdrawn", new Date("2026-10-10T00:00:00Z"));
});
afterAll(async () => t.close());

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  textNodeName: "#text",
  parseTagValue: false,
  isArray: (name) => name === "error",
});

type Node = Record<string, unknown>;

interface ErrorAnswer {
  codes: OaiErrorCode[];
  messages: string[];
  request: Node | string;
  root: Node;
}

/** Sends a request that must fail: HTTP 200, schema-valid, only <error> elements. */
async function oaiError(query: string, method: "GET" | "POST" = "GET"): Promise<ErrorAnswer> {
  const res =
    method === "GET"
      ? await t.app.request(`/oai?${query}`)
      : await t.app.request("/oai", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
          body: query,
        });
  const xml = await res.text();
  expect(res.status, xml).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/xml; charset=utf-8");
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(await oaiSchemaErrors(xml)).toEqual([]);
  const root = (parser.parse(xml) as { "OAI-PMH": Node })["OAI-PMH"];
  const errors = root.error as Node[] | undefined;
  expect(errors, xml).toBeDefined();
  const verbs = ["Identify", "ListMetadataFormats", "ListSets", "GetRecord"];
  for (const verb of [...verbs, "ListIdentifiers", "ListRecords"]) {
    expect(root[verb]).toBeUndefined();
  }
  return {
    codes: (errors ?? []).map((e) => e["@code"] as OaiErrorCode),
    messages: (errors ?? []).map((e) => String(e["#text"] ?? "")),
    request: root.request as Node | string,
    root,
  };
}

/** badVerb and badArgument answers must not echo the arguments. */
function expectBareRequest(request: Node | string) {
  expect(request).toBe("http://quire.test/oai");
}

const id = (paperId: string) => encodeURIComponent(`oai:quire.test:${paperId}`);

describe("badVerb", () => {
  it.each([
    ["missing", ""],
    ["unknown", "verb=ListEverything"],
    ["wrong case", "verb=identify"],
    ["repeated", "verb=Identify&verb=Identify"],
    ["empty", "verb="],
  ])("is answered for a %s verb, without echoing arguments", async (_, query) => {
    const answer = await oaiError(query || "metadataPrefix=oai_dc");
    expect(answer.codes).toEqual(["badVerb"]);
    expectBareRequest(answer.request);
  });
});

describe("badArgument", () => {
  it.each([
    ["an argument the verb does not take", "verb=Identify&metadataPrefix=oai_dc"],
    ["an unknown argument", "verb=ListRecords&metadataPrefix=oai_dc&color=blue"],
    ["a repeated argument", "verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc"],
    ["a missing metadataPrefix", "verb=ListIdentifiers"],
    ["a missing identifier", "verb=GetRecord&metadataPrefix=oai_dc"],
    ["an empty argument", "verb=ListRecords&metadataPrefix="],
    [
      "a resumptionToken with other arguments",
      "verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=x",
    ],
    ["a malformed from", "verb=ListRecords&metadataPrefix=oai_dc&from=2026-1-1"],
    [
      "a from with a time zone offset",
      "verb=ListRecords&metadataPrefix=oai_dc&from=2026-10-01T00:00:00%2B01:00",
    ],
    ["a from with fractions", "verb=ListRecords&metadataPrefix=oai_dc&from=2026-10-01T00:00:00.5Z"],
    ["an impossible date", "verb=ListRecords&metadataPrefix=oai_dc&until=2026-02-30"],
    ["an impossible time", "verb=ListRecords&metadataPrefix=oai_dc&until=2026-02-03T24:00:00Z"],
    [
      "mixed granularities",
      "verb=ListRecords&metadataPrefix=oai_dc&from=2026-10-01&until=2026-10-02T00:00:00Z",
    ],
    [
      "from later than until",
      "verb=ListRecords&metadataPrefix=oai_dc&from=2026-10-02&until=2026-10-01",
    ],
    ["an ill-formed metadataPrefix", "verb=ListRecords&metadataPrefix=oai%20dc"],
    ["an ill-formed set", "verb=ListRecords&metadataPrefix=oai_dc&set=a::b"],
    ["ListSets with an argument", "verb=ListSets&from=2026-10-01"],
    ["an identifier that is not a URI", "verb=GetRecord&metadataPrefix=oai_dc&identifier=a%20b"],
    ["a broken %-escape in an identifier", "verb=ListMetadataFormats&identifier=oai%3Ax%3A%25zz"],
  ])("is answered for %s, without echoing arguments", async (_, query) => {
    const answer = await oaiError(query);
    expect(answer.codes).toEqual(["badArgument"]);
    expectBareRequest(answer.request);
  });

  it("lists every failed check as its own error", async () => {
    const answer = await oaiError(
      "verb=ListRecords&from=yesterday&until=2026-13-01&colour=red&colour=blue",
    );
    expect(answer.codes).toEqual(Array(4).fill("badArgument"));
    expect(answer.messages.join(" ")).toMatch(/colour.*metadataPrefix.*from.*until/s);
  });

  it("is the same over POST", async () => {
    const answer = await oaiError("verb=GetRecord&identifier=x", "POST");
    expect(answer.codes).toEqual(["badArgument"]);
  });
});

describe("the other error codes echo the request", () => {
  it("cannotDisseminateFormat for a format we do not offer", async () => {
    for (const query of [
      "verb=ListRecords&metadataPrefix=mods",
      "verb=ListIdentifiers&metadataPrefix=marc21",
      `verb=GetRecord&identifier=${id(liveId)}&metadataPrefix=mods`,
    ]) {
      const answer = await oaiError(query);
      expect(answer.codes).toEqual(["cannotDisseminateFormat"]);
      expect((answer.request as Node)["@metadataPrefix"]).toMatch(/^(mods|marc21)$/);
    }
  });

  it("idDoesNotExist for unknown, ill-formed or foreign identifiers", async () => {
    for (const identifier of [
      "oai:quire.test:2610.99999",
      "oai:quire.test:2610.00001v1",
      "oai:elsewhere.org:2610.00001",
      "2610.00001",
      "oai:quire.test:",
    ]) {
      const q = encodeURIComponent(identifier);
      const answer = await oaiError(`verb=GetRecord&identifier=${q}&metadataPrefix=oai_dc`);
      expect(answer.codes).toEqual(["idDoesNotExist"]);
      expect((answer.request as Node)["@identifier"]).toBe(identifier);
      const formats = await oaiError(`verb=ListMetadataFormats&identifier=${q}`);
      expect(formats.codes).toEqual(["idDoesNotExist"]);
    }
  });

  it("both idDoesNotExist and cannotDisseminateFormat when both apply", async () => {
    const answer = await oaiError(
      `verb=GetRecord&identifier=${id("2610.99999")}&metadataPrefix=mods`,
    );
    expect(answer.codes).toEqual(["idDoesNotExist", "cannotDisseminateFormat"]);
  });

  it("noRecordsMatch for an empty window", async () => {
    for (const query of [
      "verb=ListRecords&metadataPrefix=oai_dc&from=2027-01-01",
      "verb=ListIdentifiers&metadataPrefix=oai_dc&until=2026-09-30T23:59:59Z",
      "verb=ListIdentifiers&metadataPrefix=oai_dc&from=2026-10-02T00:00:01Z&until=2026-10-02T23:59:59Z",
    ]) {
      const answer = await oaiError(query);
      expect(answer.codes).toEqual(["noRecordsMatch"]);
      expect((answer.request as Node)["@metadataPrefix"]).toBe("oai_dc");
    }
  });

  it("noMetadataFormats for a deleted record", async () => {
    const answer = await oaiError(`verb=ListMetadataFormats&identifier=${id(withdrawnId)}`);
    expect(answer.codes).toEqual(["noMetadataFormats"]);
  });

  it("noRecordsMatch for a set this repository does not define, or one with no records", async () => {
    for (const query of [
      "verb=ListRecords&metadataPrefix=oai_dc&set=lang:en",
      "verb=ListIdentifiers&metadataPrefix=oai_dc&set=cs:cs.XX",
      "verb=ListIdentifiers&metadataPrefix=oai_dc&set=math:cs.CL",
      "verb=ListIdentifiers&metadataPrefix=oai_dc&set=physics",
    ]) {
      const answer = await oaiError(query);
      expect(answer.codes).toEqual(["noRecordsMatch"]);
      expect((answer.request as Node)["@set"]).toBe(query.split("set=")[1]);
    }
  });

  it("badResumptionToken for ListSets, which answers in one response", async () => {
    const answer = await oaiError("verb=ListSets&resumptionToken=abc");
    expect(answer.codes).toEqual(["badResumptionToken"]);
  });
});

describe("badResumptionToken", () => {
  /** A real token from a first page of two records. */
  async function firstToken(verb = "ListIdentifiers"): Promise<string> {
    const xml = await respondOai(t.ctx, {
      args: [
        ["verb", verb],
        ["metadataPrefix", "oai_dc"],
      ],
      pageSize: 2,
    });
    const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(xml)?.[1];
    expect(token).toBeDefined();
    return token as string;
  }

  it("accepts the real token (control)", async () => {
    const token = await firstToken();
    const res = await t.app.request(
      `/oai?verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`,
    );
    expect(await res.text()).not.toContain("<error");
  });

  it("refuses garbage, tampered and truncated tokens", async () => {
    const token = await firstToken();
    const [payload = "", seal = ""] = token.split(".");
    const flip = (s: string, i: number) =>
      s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const forged = Buffer.from(
      Buffer.from(payload, "base64url").toString("utf8").replace(/,2,/, ",0,"),
    ).toString("base64url");
    for (const bad of [
      "garbage",
      "a.b",
      `${flip(payload, 5)}.${seal}`,
      `${payload}.${flip(seal, 3)}`,
      `${forged}.${seal}`,
      token.slice(0, -1),
      `${token}x`,
      `${token}.${seal}`,
    ]) {
      const answer = await oaiError(
        `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(bad)}`,
      );
      expect(answer.codes, bad).toEqual(["badResumptionToken"]);
      expect((answer.request as Node)["@resumptionToken"]).toBe(bad);
    }
  });

  it("refuses a token of another verb", async () => {
    const token = await firstToken("ListRecords");
    const answer = await oaiError(
      `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`,
    );
    expect(answer.codes).toEqual(["badResumptionToken"]);
  });

  it("refuses an expired token", async () => {
    const token = await firstToken();
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    try {
      const answer = await oaiError(
        `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`,
      );
      expect(answer.codes).toEqual(["badResumptionToken"]);
      expect(answer.messages[0]).toMatch(/expired/);
    } finally {
      clock.set(new Date("2026-11-02T12:00:00.000Z"));
    }
  });
});

describe("HTTP around the protocol", () => {
  it("answers a POST that is not form-encoded with 415 problem+json", async () => {
    const res = await t.app.request("/oai", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ verb: "Identify" }),
    });
    expect(res.status).toBe(415);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });

  it("answers other methods with 405 and Allow", async () => {
    const res = await t.app.request("/oai", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
  });
});
