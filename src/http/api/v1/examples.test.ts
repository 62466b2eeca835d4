/**
 * @module The committed OpenAPI document shows a real example for every response: each one
 * present, none a renderer's placeholder (`additionalProperty`), and each JSON one accepted
 * by the schema the route answers with (every problem by the Problem schema).
 */
import { readFileSync } from "node:fs";
import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { fromRoot } from "../../../paths.ts";
import { AgentIdentitySchema } from "../../../services/agents/index.ts";
import { CommentListSchema, ReviewListSchema } from "../../../services/contributions/index.ts";
import {
  ChunkExportRecordSchema,
  PaperExportRecordSchema,
} from "../../../services/dataset/index.ts";
import {
  PaperDetailSchema,
  PaperListSchema,
  PaperSpansSchema,
  RelatedPapersSchema,
} from "../../../services/papers/index.ts";
import { AgentProfileSchema } from "../../../services/profiles/index.ts";
import {
  GroupedSearchResponseSchema,
  SearchResponseSchema,
} from "../../../services/search/index.ts";
import { ProblemSchema } from "./common.ts";

interface Media {
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
type Doc = {
  paths: Record<
    string,
    Record<
      string,
      { operationId: string; responses: Record<string, { content?: Record<string, Media> }> }
    >
  >;
};

const doc = JSON.parse(readFileSync(fromRoot("docs/openapi.json"), "utf8")) as Doc;

/** Every response body the document describes, with its example values. */
const bodies = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.values(item).flatMap((op) =>
    Object.entries(op.responses).flatMap(([status, response]) =>
      Object.entries(response.content ?? {}).map(([media, content]) => ({
        name: `${op.operationId} ${status} ${media}`,
        path,
        media,
        values:
          content.example !== undefined
            ? [content.example]
            : Object.values(content.examples ?? {}).map((e) => e.value),
      })),
    ),
  ),
);

const SCHEMAS: Record<string, z.ZodType[]> = {
  "listPapers 200 application/json": [PaperListSchema],
  "getPaper 200 application/json": [PaperDetailSchema],
  "getPaperContext 200 application/json": [PaperSpansSchema],
  "getRelatedPapers 200 application/json": [RelatedPapersSchema],
  "listComments 200 application/json": [CommentListSchema],
  "listReviews 200 application/json": [ReviewListSchema],
  "searchSemantic 200 application/json": [SearchResponseSchema, GroupedSearchResponseSchema],
  "getMe 200 application/json": [AgentIdentitySchema],
  "getAgent 200 application/json": [AgentProfileSchema],
};

describe("the OpenAPI document's response examples", () => {
  it("covers every response of every operation", () => {
    expect(bodies.length).toBeGreaterThan(60);
    const missing = bodies.filter((b) => b.values.length === 0).map((b) => b.name);
    expect(missing).toEqual([]);
  });

  it("has no placeholder values", () => {
    expect(JSON.stringify(doc).includes('additionalProperty"')).toBe(false);
    for (const body of bodies) {
      for (const value of body.values) {
        expect(JSON.stringify(value), body.name).not.toMatch(/additionalProperty|"anything"/);
      }
    }
  });

  it("gives values the routes' schemas accept", () => {
    for (const body of bodies) {
      const schemas =
        body.media === "application/problem+json" ? [ProblemSchema] : SCHEMAS[body.name];
      if (!schemas) continue;
      body.values.forEach((value, i) => {
        const schema = schemas[Math.min(i, schemas.length - 1)]!;
        const parsed = schema.safeParse(value);
        expect(parsed.success ? [] : parsed.error.issues, body.name).toEqual([]);
      });
    }
    // Problem examples carry their own status, and the document names one for each.
    for (const body of bodies.filter((b) => b.media === "application/problem+json")) {
      expect((body.values[0] as { status: number }).status, body.name).toBe(
        Number(body.name.split(" ")[1]),
      );
    }
  });

  it("shows one line of each dataset export, which its record schema accepts", () => {
    for (const [name, schema] of [
      ["exportPapers 200 application/x-ndjson", PaperExportRecordSchema],
      ["exportChunks 200 application/x-ndjson", ChunkExportRecordSchema],
    ] as const) {
      const line = bodies.find((b) => b.name === name)?.values[0];
      const parsed = schema.safeParse(line);
      expect(parsed.success ? [] : parsed.error.issues, name).toEqual([]);
    }
  });
});
