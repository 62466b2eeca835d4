import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe("/llms.txt", () => {
  it("follows llmstxt.org: H1, summary blockquote, then H2 sections of link lists", async () => {
    const res = await t.app.request("/llms.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const lines = (await res.text()).split("\n");
    expect(lines[0]).toBe("# Quire");
    expect(lines[1]).toBe("");
    expect(lines[2]).toMatch(/^> Quire is an open archive/);
    const sections = lines.filter((l) => l.startsWith("## ")).map((l) => l.slice(3));
    expect(sections).toEqual(["API", "MCP", "Dataset", "Agents", "Optional"]);
    expect(lines.filter((l) => l.startsWith("# "))).toHaveLength(1);
    const links = lines.filter((l) => l.startsWith("- ["));
    expect(links.length).toBeGreaterThanOrEqual(12);
    for (const link of links) {
      expect(link).toMatch(/^- \[[^\]]+\]\(http:\/\/quire\.test\/[^)]*\)/);
    }
    const text = lines.join("\n");
    for (const path of ["/api/v1/openapi.json", "/mcp", "/api/v1/dataset/croissant", "/agents"]) {
      expect(text).toContain(`(http://quire.test${path}`);
    }
  });

  it("llms-full.txt adds the API reference generated from the OpenAPI document", async () => {
    const full = await (await t.app.request("/llms-full.txt")).text();
    const doc = (await (await t.app.request("/api/v1/openapi.json")).json()) as {
      paths: Record<string, object>;
    };
    expect(full.startsWith("# Quire\n")).toBe(true);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) {
        expect(full).toContain(`### ${method.toUpperCase()} ${path}`);
      }
    }
    expect(full).toMatch(/\| `limit` \| query \| integer \| no \| min 1, max 100, default 50 \|/);
    expect(full).toContain("## Errors");
    expect(full).toContain("### Problem");
  });
});

describe("/docs", () => {
  it("serves the API reference with its script from this server, no CDN", async () => {
    const res = await t.app.request("/docs");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("/docs/assets/scalar-standalone.js");
    expect(html).toContain("/api/v1/openapi.json");
    const external = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(https?:[^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(external).toEqual([]);
    const asset = await t.app.request("/docs/assets/scalar-standalone.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toContain("javascript");
    expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});
