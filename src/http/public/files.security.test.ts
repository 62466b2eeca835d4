/** @module GET /files/{sha256}: inert content (nosniff, sandboxing CSP), and nothing served for unseen papers. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPaperStatus } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { publishFigurePaper } from "../../testing/figure-papers.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe("file serving", () => {
  it("serves an SVG under a CSP that forbids scripts and sandboxes it, with nosniff", async () => {
    const { source } = await publishFigurePaper(t.ctx);
    const svg = source.files.find((f) => f.name.endsWith(".svg"));
    const res = await t.app.request(`/files/${svg?.sha256}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("sandbox");
    expect(csp).not.toContain("script-src");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("stops serving a withdrawn or removed paper's files, and keeps a shared one for the paper still using it", async () => {
    for (const [shade, status] of [
      [10, "withdrawn"],
      [20, "removed"],
    ] as const) {
      const { paperId, source } = await publishFigurePaper(t.ctx, shade);
      const png = source.files.find((f) => f.name === "figures/plot.png");
      expect((await t.app.request(`/files/${png?.sha256}`)).status).toBe(200);
      await setPaperStatus(t.ctx, paperId, status);
      expect((await t.app.request(`/files/${png?.sha256}`)).status).toBe(404);
      const revalidated = await t.app.request(`/files/${png?.sha256}`, {
        headers: { "if-none-match": `"${png?.sha256}"` },
      });
      expect(revalidated.status).toBe(404);
    }
    const first = await publishFigurePaper(t.ctx, 30);
    const second = await publishFigurePaper(t.ctx, 30);
    const png = first.source.files.find((f) => f.name === "figures/plot.png");
    expect(second.source.files.find((f) => f.name === "figures/plot.png")?.sha256).toBe(
      png?.sha256,
    );
    await setPaperStatus(t.ctx, first.paperId, "withdrawn");
    expect((await t.app.request(`/files/${png?.sha256}`)).status).toBe(200);
  });

  it("answers 404 for a malformed or unknown hash", async () => {
    expect((await t.app.request("/files/not-a-hash")).status).toBe(404);
    expect((await t.app.request(`/files/${"0".repeat(64)}`)).status).toBe(404);
  });
});
