/** @module GET /files/{sha256}: content by hash, strong ETags, 304, ranges, and figures on the paper page. */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderPaperMarkdown } from "../../mcp/tools/papers.ts";
import type { PreparedSource } from "../../services/files/index.ts";
import { getPaper } from "../../services/papers/index.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { publishFigurePaper } from "../../testing/figure-papers.ts";

let t: TestApp;
let paperId: string;
let source: PreparedSource;

beforeAll(async () => {
  t = await createTestApp();
  ({ paperId, source } = await publishFigurePaper(t.ctx));
});
afterAll(async () => t.close());

function file(name: string) {
  const f = source.files.find((x) => x.name === name);
  if (!f) throw new Error(`no ${name}`);
  return f;
}

describe("GET /files/{sha256}", () => {
  it("answers 200 with the bytes, their type, a strong ETag and immutable caching", async () => {
    const png = file("figures/plot.png");
    const res = await t.app.request(`/files/${png.sha256}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("etag")).toBe(`"${png.sha256}"`);
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png.bytes);
  });

  it("answers 304 to If-None-Match with the ETag, without a body", async () => {
    const png = file("figures/plot.png");
    const res = await t.app.request(`/files/${png.sha256}`, {
      headers: { "if-none-match": `"${png.sha256}"` },
    });
    expect(res.status).toBe(304);
    expect(res.headers.get("etag")).toBe(`"${png.sha256}"`);
    expect(await res.text()).toBe("");
  });

  it("answers 206 to a byte range, and 416 to one past the end", async () => {
    const csv = file("data/estimates.csv");
    const res = await t.app.request(`/files/${csv.sha256}`, { headers: { range: "bytes=2-9" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 2-9/${csv.bytes.byteLength}`);
    expect(await res.text()).toBe("estimate");
    const suffix = await t.app.request(`/files/${csv.sha256}`, { headers: { range: "bytes=-6" } });
    expect(suffix.status).toBe(206);
    expect(await suffix.text()).toBe("2.831\n");
    const past = await t.app.request(`/files/${csv.sha256}`, { headers: { range: "bytes=999-" } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${csv.bytes.byteLength}`);
    const stale = await t.app.request(`/files/${csv.sha256}`, {
      headers: { range: "bytes=2-9", "if-range": '"other"' },
    });
    expect(stale.status).toBe(200);
  });

  it("serves supplementary files as downloads", async () => {
    const csv = file("data/estimates.csv");
    const res = await t.app.request(`/files/${csv.sha256}`);
    expect(res.headers.get("content-type")).toBe("text/csv");
    expect(res.headers.get("content-disposition")).toBe("attachment");
  });

  it("answers HEAD with the length and no body", async () => {
    const png = file("figures/plot.png");
    const res = await t.app.request(`/files/${png.sha256}`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(png.bytes.byteLength));
  });
});

describe("the paper with figures", () => {
  it("lists its files in the API, each at its immutable URL", async () => {
    const res = await t.app.request(`/api/v1/papers/${paperId}`);
    const body = (await res.json()) as {
      version: { files: { name: string; role: string; url: string; size: number }[] };
    };
    expect(body.version.files.map((f) => [f.name, f.role])).toEqual([
      ["figures/plot.png", "figure"],
      ["figures/diagram.svg", "figure"],
      ["data/estimates.csv", "supplementary"],
    ]);
    expect(body.version.files[0]?.url).toMatch(
      new RegExp(`^https?://[^/]+/files/${file("figures/plot.png").sha256}$`),
    );
  });

  it("shows figures with captions, the table's caption and the files list, in English and Spanish", async () => {
    for (const [path, heading] of [
      [`/papers/${paperId}`, "Figures and files"],
      [`/es/papers/${paperId}`, "Figuras y archivos"],
    ] as const) {
      const html = await (await t.app.request(path)).text();
      expect(html).toContain(`<figure class="paper-figure" id="figure-1">`);
      expect(html).toContain(`<img src="/files/${file("figures/plot.png").sha256}"`);
      expect(html).toMatch(
        /<figcaption>Figure 1: Estimated gap against steps, with <span class="katex"><math/,
      );
      expect(html).toContain(
        `<figure class="paper-table" id="table-1">\n<figcaption>Table 1: Estimates.</figcaption>`,
      );
      expect(html).toContain(`<a href="#figure-1">1</a>`);
      expect(html).toContain(heading);
      expect(html).toContain(`href="/files/${file("data/estimates.csv").sha256}"`);
    }
  });

  it("lists figures as the article's images and every file as associated media in JSON-LD, and in the MCP paper text", async () => {
    const html = await (await t.app.request(`/papers/${paperId}`)).text();
    const blocks = [
      ...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g),
    ].map((m) => JSON.parse(m[1] ?? "{}") as Record<string, unknown>);
    const article = blocks.find((b) => b["@type"] === "ScholarlyArticle") as {
      image: string[];
      associatedMedia: { encodingFormat: string; contentSize: string; contentUrl: string }[];
    };
    expect(article.image).toHaveLength(2);
    expect(article.image[0]).toMatch(new RegExp(`/files/${file("figures/plot.png").sha256}$`));
    expect(article.associatedMedia.map((m) => m.encodingFormat)).toEqual([
      "image/png",
      "image/svg+xml",
      "text/csv",
    ]);
    expect(article.associatedMedia[2]?.contentSize).toBe(
      `${file("data/estimates.csv").bytes.byteLength} B`,
    );
    const text = renderPaperMarkdown(await getPaper(t.ctx, { id: paperId }));
    expect(text).toContain("## Files");
    expect(text).toMatch(/- `data\/estimates\.csv` \(supplementary, text\/csv, \d+ bytes\): http/);
  });
});
