/**
 * @module A real PostgreSQL stopped under the running site, API and MCP: every front end
 * answers "unavailable, retry in 5 s" in its own shape (a 503 page in the reader's language,
 * problem+json, an MCP tool error), and everything recovers when the server is back.
 *
 * The server stopped is a streaming replica of the local PostgreSQL on a port of its own
 * (never the shared server): the app reads its archive from it alone.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { type Database, openDatabase } from "../src/db/client.ts";
import { COOKIES } from "../src/http/pages/cookies.ts";
import { testContext } from "../src/testing/db.ts";
import { publishPaper } from "../src/testing/factories.ts";
import { mcpClient, textOf } from "../src/testing/mcp.ts";
import { htmlLang } from "../src/testing/page-client.ts";
import { type StreamingReplica, startStreamingReplica } from "../src/testing/replica.ts";
import { createScratchDatabase } from "../src/testing/scratch.ts";

const ADMIN = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

let scratch: { url: string; drop: () => Promise<void> };
let primary: Database;
let replica: StreamingReplica;
let reader: Database;
let server: ReturnType<typeof serve>;
let base: string;
let paperId: string;

beforeAll(async () => {
  scratch = await createScratchDatabase(ADMIN, "quire_outage");
  primary = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
  paperId = (await publishPaper(testContext(primary))).paper_id;
  // The shared server's other users may cut a base backup's connection: try again then.
  for (let attempt = 1; ; attempt++) {
    try {
      replica = await startStreamingReplica(ADMIN);
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
  await replica.catchUp();
  const name = new URL(scratch.url).pathname.slice(1);
  reader = await openDatabase({ databaseUrl: replica.url(name), poolSize: 2, migrate: false });
  const logger = pino({ level: "silent" });
  const app = buildApp({
    services: testContext(reader, { logger }),
    logger,
    baseUrl: "http://quire.test",
    trustProxy: [],
  });
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await reader?.close();
  await replica?.destroy();
  await primary?.close();
  await scratch?.drop();
}, 60_000);

const page = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers: { accept: "text/html", ...headers } });

describe("the database stopped under the running service", () => {
  it("answers 503 with Retry-After everywhere, in each front end's shape, then recovers", async () => {
    expect((await page("/")).status).toBe(200);
    expect((await page(`/papers/${paperId}`)).status).toBe(200);

    await replica.stop();
    try {
      for (const [path, lang, words] of [
        ["/", "en", "unavailable for a moment"],
        ["/es", "es", "no está disponible"],
        [`/papers/${paperId}`, "en", "unavailable for a moment"],
        [`/es/papers/${paperId}`, "es", "no está disponible"],
        ["/nothing-here", "en", "unavailable for a moment"],
      ] as const) {
        // A session cookie makes the page look the session up first: that must fail the same way.
        for (const headers of [{}, { cookie: `${COOKIES.session}=${"a".repeat(43)}` }] as Record<
          string,
          string
        >[]) {
          const res = await page(path, headers);
          const html = await res.text();
          const lookup = path !== "/nothing-here" || "cookie" in headers;
          expect(res.status, path).toBe(lookup ? 503 : 404);
          if (res.status !== 503) continue;
          expect(res.headers.get("retry-after")).toBe("5");
          expect(htmlLang(html)).toBe(lang);
          expect(html).toContain(words);
        }
      }

      const api = await fetch(`${base}/api/v1/papers`);
      expect(api.status).toBe(503);
      expect(api.headers.get("retry-after")).toBe("5");
      expect(api.headers.get("content-type")).toBe("application/problem+json");

      const client = await mcpClient(base);
      try {
        const result = await client.callTool({ name: "list_papers", arguments: {} });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/unavailable/i);
        expect(textOf(result)).toMatch(/Retry after 5 seconds/);
        expect(result._meta?.["quire/error"]).toEqual({
          code: "unavailable",
          retry_after_seconds: 5,
        });
      } finally {
        await client.close();
      }
    } finally {
      await replica.start();
    }

    // The pool reconnects by itself.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await page("/")).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    expect((await page(`/es/papers/${paperId}`)).status).toBe(200);
  }, 120_000);
});
