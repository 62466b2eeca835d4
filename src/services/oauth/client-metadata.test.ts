/**
 * @module Client ID Metadata Documents: which client_ids are document URLs, and the SSRF guard
 * that keeps the fetcher off loopback and private addresses unless a test allows loopback.
 */
import { createServer } from "node:http";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../testing/scratch.ts";
import { systemClock } from "../context.ts";
import {
  clientFromMetadataDocument,
  createClientMetadataDocuments,
  isClientMetadataUrl,
} from "./client-metadata.ts";

const ctx = { clock: systemClock, logger: pino({ level: "silent" }) };
let port: number;
const hits: string[] = [];
const server = createServer((req, res) => {
  hits.push(req.url ?? "");
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      client_id: `http://127.0.0.1:${port}${req.url}`,
      redirect_uris: ["http://127.0.0.1/cb"],
    }),
  );
});

beforeAll(async () => {
  port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("isClientMetadataUrl", () => {
  it("takes canonical https URLs with a path, and nothing else", () => {
    expect(isClientMetadataUrl("https://app.example/oauth/client.json")).toBe(true);
    for (const id of [
      "https://app.example/",
      "https://app.example",
      "http://app.example/client.json",
      "https://app.example/a/../client.json",
      "https://user:pw@app.example/client.json",
      "https://app.example/client.json#x",
      "HTTPS://app.example/client.json",
      "0f3b2c1a-7d1e-4d5e-9a0b-1c2d3e4f5a6b",
      `https://app.example/${"a".repeat(2100)}`,
    ]) {
      expect(isClientMetadataUrl(id), id).toBe(false);
    }
    // Loopback over http only where a test allows it.
    expect(isClientMetadataUrl("http://127.0.0.1:9/c.json")).toBe(false);
    expect(isClientMetadataUrl("http://127.0.0.1:9/c.json", { allowLoopback: true })).toBe(true);
    expect(isClientMetadataUrl("http://10.0.0.1/c.json", { allowLoopback: true })).toBe(false);
  });
});

describe("the fetcher's SSRF guard", () => {
  it("never connects to loopback, private or link-local addresses in production", async () => {
    const strict = createClientMetadataDocuments();
    for (const id of [
      `https://127.0.0.1:${port}/a.json`,
      `https://[::1]:${port}/a.json`,
      `https://[::ffff:127.0.0.1]:${port}/a.json`,
      "https://10.1.2.3/a.json",
      "https://169.254.169.254/latest/meta-data.json",
      "https://192.168.1.1/a.json",
    ]) {
      await expect(clientFromMetadataDocument(ctx, strict, id), id).rejects.toThrow(
        /not a public address/,
      );
    }
    // A name that resolves to loopback is refused at the lookup, before any connection.
    await expect(
      clientFromMetadataDocument(ctx, strict, `https://localhost:${port}/a.json`),
    ).rejects.toThrow(/does not resolve to public addresses only/);
    expect(hits).toEqual([]);
  });

  it("fetches from loopback where a test allows it, and caches the document", async () => {
    const loose = createClientMetadataDocuments({ allowLoopback: true });
    const id = `http://127.0.0.1:${port}/c.json`;
    const first = await clientFromMetadataDocument(ctx, loose, id);
    expect(first).toMatchObject({ fetched: true, client: { client_id: id } });
    const again = await clientFromMetadataDocument(ctx, loose, id);
    expect(again.fetched).toBe(false);
    expect(hits).toEqual(["/c.json"]);
  });
});
