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
    for (const path of ["/api/v1/openapi.json", "/api/v1/dataset/croissant", "/agents"]) {
      expect(text).toContain(`(http://quire.test${path}`);
    }
    // Templates, keyed and POST-only endpoints are described, not linked.
    expect(text).toContain("`POST http://quire.test/mcp`");
    expect(text).toContain("`GET http://quire.test/api/v1/me`");
    expect(text).toContain("`GET http://quire.test/api/v1/papers/{id}`");
  });

  it("links only to what answers a plain GET with 200", async () => {
    const text = await (await t.app.request("/llms.txt")).text();
    const links = [...text.matchAll(/\]\((http:\/\/quire\.test[^)\s]*)\)/g)].map((m) => m[1] ?? "");
    expect(links.length).toBeGreaterThanOrEqual(14);
    const answers: Record<string, number> = {};
    for (const link of links) {
      expect(link).not.toMatch(/[{}]|\.\.\./);
      answers[link] = (await t.app.request(link)).status;
    }
    expect(Object.entries(answers).filter(([, status]) => status !== 200)).toEqual([]);
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
  it("has a Spanish address that leads to the (English) reference instead of a 404", async () => {
    const res = await t.app.request("/es/docs");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/docs");
  });

  it("serves the API reference whole from this server, under a policy that allows no other site", async () => {
    const res = await t.app.request("/docs");
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.map((m) => m[2]?.trim())).toEqual(["", ""]); // nothing inline
    const sources = scripts.map((m) => /src="([^"]+)"/.exec(m[1] ?? "")?.[1] ?? "");
    expect(sources.map((src) => src.replace(/\?v=[0-9a-f]{12}$/, ""))).toEqual([
      "/docs/assets/scalar-standalone.js",
      "/docs/assets/init.js",
    ]);
    expect(html).not.toMatch(/(?:src|href)="https?:/);
    const asset = await t.app.request(sources[0] ?? "");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toContain("javascript");
    expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const init = await (await t.app.request(sources[1] ?? "")).text();
    const config = JSON.parse(/createApiReference\("#app", (.*)\);/.exec(init)?.[1] ?? "{}");
    expect(config).toMatchObject({
      url: "/api/v1/openapi.json",
      proxyUrl: "",
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      showToolbar: "never",
    });
  });
});
