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
      // Issue 28: IPv4-translated, IPv4-compatible and site-local forms.
      `https://[::ffff:0:7f00:1]:${port}/a.json`,
      `https://[::7f00:1]:${port}/a.json`,
      "https://[::a9fe:a9fe]/latest/meta-data.json",
      `https://[fec0::1]:${port}/a.json`,
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

  it("checks every address a name resolves to, the IPv6 forms of issue 28 included", async () => {
    const resolved: string[] = [];
    for (const address of ["::ffff:0:7f00:1", "::7f00:1", "::a9fe:a9fe", "fec0::1"]) {
      const documents = createClientMetadataDocuments({
        resolve: async (hostname) => {
          resolved.push(hostname);
          return [
            { address: "2606:4700:4700::1111", family: 6 },
            { address, family: 6 },
          ];
        },
      });
      await expect(
        clientFromMetadataDocument(ctx, documents, `https://client.example:${port}/a.json`),
        address,
      ).rejects.toThrow(/does not resolve to public addresses only/);
    }
    expect(resolved).toEqual(Array(4).fill("client.example"));
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

describe("the fetch's deadline and single-flight", () => {
  it("ends a document trickled one byte a second at the deadline, whole-fetch, not idle", async () => {
    const trickle = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => res.write(" "), 1_000);
      res.on("close", () => clearInterval(timer));
    });
    const trickled = await freePort();
    await new Promise<void>((resolve) => trickle.listen(trickled, "127.0.0.1", resolve));
    try {
      const documents = createClientMetadataDocuments({ allowLoopback: true, deadlineMs: 1_500 });
      await expect(
        clientFromMetadataDocument(ctx, documents, `http://127.0.0.1:${trickled}/slow.json`),
      ).rejects.toThrow(/did not arrive within 1.5 seconds/);
    } finally {
      trickle.closeAllConnections();
      await new Promise<void>((resolve) => trickle.close(() => resolve()));
    }
  });

  it("makes one fetch for 20 concurrent requests of a new client_id, and stores it once", async () => {
    const documents = createClientMetadataDocuments({ allowLoopback: true });
    const id = `http://127.0.0.1:${port}/shared.json`;
    const stored: string[] = [];
    const store = async (client: { client_id: string }) => {
      stored.push(client.client_id);
    };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => clientFromMetadataDocument(ctx, documents, id, store)),
    );
    expect(answers.every((a) => a.client.client_id === id)).toBe(true);
    expect(answers.filter((a) => a.fetched)).toHaveLength(1);
    expect(hits.filter((h) => h === "/shared.json")).toHaveLength(1);
    expect(stored).toEqual([id]);
    expect(documents.inflight.size).toBe(0);
  });
});
