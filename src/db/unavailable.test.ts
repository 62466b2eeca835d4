/** @module Real node-postgres failures that mean "database unavailable", and ones that do not. */
import { randomBytes } from "node:crypto";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { createTestApp } from "../testing/app.ts";
import { freePort } from "../testing/scratch.ts";
import { isDatabaseUnavailable } from "./unavailable.ts";

const ADMIN = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

const role = `quire_full_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: ADMIN });
afterAll(async () => {
  await admin.query(`drop role if exists ${role}`).catch(() => {});
  await admin.end().catch(() => {});
});

describe("isDatabaseUnavailable", () => {
  it("is true for a refused connection, a full server, a terminated backend and an exhausted pool", async () => {
    const port = await freePort();
    const refused = await failure(async () => {
      const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/x` });
      await client.connect();
    });
    expect(isDatabaseUnavailable(refused)).toBe(true);

    await admin.connect();
    await admin.query(`create role ${role} login connection limit 0`);
    const url = new URL(ADMIN);
    url.username = role;
    const full = await failure(async () => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
    });
    expect((full as { code?: string }).code).toBe("53300");
    expect(isDatabaseUnavailable(full)).toBe(true);

    const victim = new pg.Client({ connectionString: ADMIN });
    victim.on("error", () => {});
    await victim.connect();
    const { rows } = await victim.query<{ pid: number }>("select pg_backend_pid() as pid");
    const sleeping = failure(() => victim.query("select pg_sleep(30)"));
    await new Promise((r) => setTimeout(r, 200));
    await admin.query("select pg_terminate_backend($1)", [rows[0]?.pid]);
    const terminated = await sleeping;
    expect(isDatabaseUnavailable(terminated)).toBe(true);

    const pool = new pg.Pool({ connectionString: ADMIN, max: 1, connectionTimeoutMillis: 50 });
    const held = await pool.connect();
    const exhausted = await failure(() => drizzle(pool).execute("select 1"));
    expect(isDatabaseUnavailable(exhausted)).toBe(true);
    held.release();
    await pool.end();
  });

  it("is false for a bug: bad SQL, a constraint, a plain Error", async () => {
    const pool = new pg.Pool({ connectionString: ADMIN, max: 1 });
    const syntax = await failure(() => drizzle(pool).execute("selec 1"));
    const division = await failure(() => drizzle(pool).execute("select 1/0"));
    await pool.end();
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    expect(isDatabaseUnavailable(division)).toBe(false);
    expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it("turns an unreachable database into 503 problem+json with Retry-After, not a 500", async () => {
    const test = await createTestApp();
    try {
      const port = await freePort();
      const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/x` });
      const app = buildApp({
        services: { ...test.ctx, db: drizzle(pool) as unknown as typeof test.ctx.db },
        logger: test.ctx.logger,
        baseUrl: "http://quire.test",
        trustProxy: [],
      });
      const res = await app.request("/api/v1/papers");
      await pool.end();
      expect(res.status).toBe(503);
      expect(res.headers.get("content-type")).toMatch(/application\/problem\+json/);
      expect(res.headers.get("retry-after")).toBe("5");
      const body = (await res.json()) as { detail: string };
      expect(body.detail).toMatch(/busy or unreachable/);
      expect(test.logs.some((l) => l.msg === "unavailable" && l.level === 40)).toBe(true);
    } finally {
      await test.close();
    }
  });
});
