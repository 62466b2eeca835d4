/** @module The subject schemas: what REST and MCP accept, worded as the services word it. */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { SubjectCodeSchema, SubjectFilterSchema, SubjectsSchema } from "./schemas.ts";

const issues = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => ({ path: i.path.join("."), message: i.message }));

describe("SubjectCodeSchema", () => {
  it("accepts codes and aliases as sent, refuses the rest by name", () => {
    expect(SubjectCodeSchema.parse("cs.CL")).toBe("cs.CL");
    expect(SubjectCodeSchema.parse("math.IT")).toBe("math.IT");
    expect(issues(SubjectCodeSchema.safeParse("cs.XX"))).toEqual([
      {
        path: "",
        message: '"cs.XX" is not a known subject code (an arXiv category such as cs.CL)',
      },
    ]);
    expect(SubjectCodeSchema.safeParse(3).success).toBe(false);
  });
});

describe("SubjectsSchema", () => {
  it("accepts one to five distinct codes", () => {
    expect(SubjectsSchema.parse(["cs.CL", "math.IT"])).toEqual(["cs.CL", "math.IT"]);
  });

  it("reports the count, repeats and unknown codes together", () => {
    const result = SubjectsSchema.safeParse(["cs.CL", "x", "cs.AI", "cs.LG", "cs.IR", "cs.CL"]);
    expect(issues(result)).toEqual([
      { path: "1", message: expect.stringContaining('"x"') },
      {
        path: "",
        message: "must list at most 5 subjects, a primary and up to 4 cross-lists (got 6)",
      },
      { path: "5", message: "repeats cs.CL, already at index 0" },
    ]);
    expect(issues(SubjectsSchema.safeParse([]))).toEqual([
      { path: "", message: "must list at least 1 subject (the primary)" },
    ]);
    expect(issues(SubjectsSchema.safeParse(["cs.IT", "math.IT"]))).toEqual([
      { path: "1", message: "repeats math.IT (another code for cs.IT), already at index 0" },
    ]);
  });

  it("refuses what is not a list", () => {
    expect(SubjectsSchema.safeParse("cs.CL").success).toBe(false);
    expect(SubjectsSchema.safeParse(["cs.CL", 3]).success).toBe(false);
  });
});

describe("SubjectFilterSchema", () => {
  it("accepts codes, aliases, archives and groups", () => {
    for (const value of ["cs.CL", "math.IT", "astro-ph", "cs", "physics", "hep-th"]) {
      expect(SubjectFilterSchema.safeParse(value).success, value).toBe(true);
    }
    expect(issues(SubjectFilterSchema.safeParse("bio"))).toEqual([
      {
        path: "",
        message:
          '"bio" is not a subject code, archive or group (such as cs.CL, astro-ph or physics)',
      },
    ]);
  });
});

describe("in the OpenAPI document", () => {
  it("are named components with a description, an example and the list's bounds", () => {
    const app = new OpenAPIHono();
    const body = z.object({ subjects: SubjectsSchema });
    const query = z.object({ subject: SubjectFilterSchema.optional() });
    app.openapi(
      createRoute({
        method: "post",
        path: "/x",
        request: { query, body: { content: { "application/json": { schema: body } } } },
        responses: { 204: { description: "ok" } },
      }),
      (c) => c.body(null, 204),
    );
    const doc = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    const schemas = doc.components?.schemas ?? {};
    expect(schemas.SubjectCode).toMatchObject({ type: "string", example: "cs.CL" });
    expect(schemas.SubjectCode).toHaveProperty("description");
    expect(schemas.Subjects).toMatchObject({
      type: "array",
      items: { $ref: "#/components/schemas/SubjectCode" },
      minItems: 1,
      maxItems: 5,
    });
    expect(schemas.SubjectFilter).toMatchObject({ type: "string", example: "cs" });
  });
});
