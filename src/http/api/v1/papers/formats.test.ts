/** @module GET /api/v1/papers/{id} in every format: JSON-LD, BibTeX, RIS, CSL-JSON. */
import { parse } from "@retorquere/bibtex-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateSchemaOrg } from "../../../../../test/fixtures/schemaorg/validate.ts";
import { publishVersion } from "../../../../services/papers/publish.ts";
import type { PaperDetail } from "../../../../services/papers/schemas.ts";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { operator } from "../../../../testing/db.ts";
import { makeOwner, paperInput, publishPaper } from "../../../../testing/factories.ts";

const BASE = "http://quire.test";
let t: TestApp;
let id: string;
let title: string;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await makeOwner(t.ctx);
  const first = await publishPaper(t.ctx, {
    ownerId: owner.id,
    title: "Fish & Chips: 100% of {braced} a_b — Ünïcödé 論文 with a long enough title",
  });
  id = first.paper_id;
  const second = paperInput();
  title = second.title;
  const v2 = await publishVersion({ ...t.ctx, caller: operator }, { ...second, paperId: id });
  expect(v2.outcome).toBe("published");
});
afterAll(async () => t?.close());

async function get(path: string, accept?: string) {
  return t.app.request(path, accept ? { headers: { accept } } : {});
}

function expectOk(res: Response, contentType: string) {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe(contentType);
  expect(res.headers.get("vary") ?? "").toMatch(/\bAccept\b/);
}

describe("format=…", () => {
  it("jsonld: a valid schema.org ScholarlyArticle as application/ld+json", async () => {
    const res = await get(`/api/v1/papers/${id}?format=jsonld`);
    expectOk(res, "application/ld+json");
    expect(res.headers.get("content-disposition")).toBeNull();
    const doc = await res.json();
    expect(doc).toMatchObject({
      "@type": "ScholarlyArticle",
      "@id": `${BASE}/papers/${id}`,
      headline: title,
      version: 2,
    });
    const { expanded, problems } = await validateSchemaOrg(doc);
    expect(problems).toEqual([]);
    expect(expanded[0]?.["@id"]).toBe(`${BASE}/papers/${id}`);
  });

  it("bibtex: an entry that parses back, served inline as {id}.bib", async () => {
    const res = await get(`/api/v1/papers/${id}?format=bibtex`);
    expectOk(res, "application/x-bibtex; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="${id}.bib"`);
    const library = parse(await res.text(), { english: false });
    expect(library.errors).toEqual([]);
    expect(library.entries[0]?.key).toBe(`quire:${id}`);
    expect(library.entries[0]?.fields.title).toBe(title);
    expect(library.entries[0]?.fields.note).toMatch(/^AI-generated; submitted by @owner\d+; /);
  });

  it("ris: a CRLF record from TY to ER, served inline as {id}.ris", async () => {
    const res = await get(`/api/v1/papers/${id}?format=ris`);
    expectOk(res, "application/x-research-info-systems; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="${id}.ris"`);
    const text = await res.text();
    const lines = text.slice(0, -2).split("\r\n");
    expect(text.endsWith("\r\n")).toBe(true);
    expect(lines[0]).toBe("TY  - GEN");
    expect(lines.at(-1)).toBe("ER  - ");
    expect(lines).toContain(`TI  - ${title}`);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/^[A-Z][A-Z0-9] {2}- \S/);
  });

  it("csl: CSL-JSON, served inline as {id}.csl.json", async () => {
    const res = await get(`/api/v1/papers/${id}?format=csl`);
    expectOk(res, "application/vnd.citationstyles.csl+json");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="${id}.csl.json"`);
    const items = JSON.parse(await res.text());
    expect(items).toEqual([
      expect.objectContaining({
        id: `quire:${id}`,
        type: "article",
        title,
        author: [{ literal: "test-model-1" }],
        URL: `${BASE}/papers/${id}`,
        version: "2",
      }),
    ]);
  });

  it("json (and no format): the paper detail as application/json", async () => {
    for (const path of [`/api/v1/papers/${id}?format=json`, `/api/v1/papers/${id}`]) {
      const res = await get(path);
      expectOk(res, "application/json");
      const body = (await res.json()) as PaperDetail;
      expect(body.paper.id).toBe(id);
    }
  });
});

describe("Accept negotiation (when format is absent)", () => {
  it.each([
    ["application/ld+json", "application/ld+json"],
    ['application/ld+json; profile="https://schema.org"', "application/ld+json"],
    ["application/json;q=0.5, application/ld+json", "application/ld+json"],
    ["application/ld+json;q=0.1, application/json", "application/json"],
    ["application/x-bibtex", "application/x-bibtex; charset=utf-8"],
    ["application/vnd.citationstyles.csl+json", "application/vnd.citationstyles.csl+json"],
    ["text/html,application/xhtml+xml,*/*;q=0.8", "application/json"],
    ["*/*", "application/json"],
  ])("Accept: %s → %s", async (accept, contentType) => {
    expectOk(await get(`/api/v1/papers/${id}`, accept), contentType);
  });

  it("lets format override Accept", async () => {
    const res = await get(`/api/v1/papers/${id}?format=ris`, "application/ld+json");
    expectOk(res, "application/x-research-info-systems; charset=utf-8");
  });
});

describe("versions", () => {
  it("{id}v1 as JSON-LD has the version's @id and points to the paper", async () => {
    const res = await get(`/api/v1/papers/${id}v1?format=jsonld`);
    expectOk(res, "application/ld+json");
    const doc = await res.json();
    expect(doc).toMatchObject({
      "@id": `${BASE}/papers/${id}v1`,
      url: `${BASE}/papers/${id}v1`,
      version: 1,
      exampleOfWork: { "@id": `${BASE}/papers/${id}`, version: 2 },
    });
    expect((await validateSchemaOrg(doc)).problems).toEqual([]);
  });

  it("{id}v2 (the current version, named) still gets the version's @id", async () => {
    const res = await get(`/api/v1/papers/${id}v2`, "application/ld+json");
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc["@id"]).toBe(`${BASE}/papers/${id}v2`);
  });

  it("names a citation file after the requested version", async () => {
    const res = await get(`/api/v1/papers/${id}v1?format=bibtex`);
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="${id}v1.bib"`);
  });
});

describe("errors", () => {
  it("format=xml is a 400 problem naming the parameter", async () => {
    const res = await get(`/api/v1/papers/${id}?format=xml`);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await res.json()) as { errors: { in: string; name: string }[] };
    expect(problem.errors).toEqual([expect.objectContaining({ in: "query", name: "format" })]);
  });

  it.each(["json", "jsonld", "bibtex", "ris", "csl"])(
    "an unknown paper is a 404 problem with format=%s",
    async (format) => {
      for (const missing of ["2611.99999", `${id}v9`, "not-an-id"]) {
        const res = await get(`/api/v1/papers/${missing}?format=${format}`);
        expect(res.status, missing).toBe(404);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect(res.headers.get("content-disposition")).toBeNull();
      }
    },
  );

  it("an unknown paper asked for by Accept is a 404 problem too", async () => {
    const res = await get("/api/v1/papers/2611.99999", "application/ld+json");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });
});
