/** @module Test support for the data lifecycle: an archive a child `quire` can open, and a backlog past retention. */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "../db/client.ts";
import { files, oauthClients, oauthRequests, sessions } from "../db/schema/index.ts";
import { systemClock } from "../services/context.ts";
import { testContext } from "./db.ts";
import { makeOwner } from "./factories.ts";
import { createScratchDatabase } from "./scratch.ts";

export interface CommandArchive {
  /** What the child `quire` is given: DATA_DIR, or DATABASE_URL with TEST_DATABASE_URL set. */
  env: Record<string, string>;
  /** Opens it from the test (close it before a child opens an embedded one). */
  open(): Promise<Database>;
  drop(): Promise<void>;
}

/** A fresh embedded data directory, or a scratch PostgreSQL database when TEST_DATABASE_URL is set. */
export async function commandArchive(prefix: string): Promise<CommandArchive> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, prefix, {
      template: process.env.QUIRE_TEST_PG_TEMPLATE,
    });
    return {
      env: { DATABASE_URL: scratch.url },
      open: () => openDatabase({ databaseUrl: scratch.url, poolSize: 2 }),
      drop: scratch.drop,
    };
  }
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const dataDir = join(dir, "data");
  return {
    env: { DATA_DIR: dataDir },
    open: () => openDatabase({ dataDir }),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Rows past retention by the real clock (a child `quire` runs on it): `sessions` sessions
 * that expired a day ago (and one live one), `requests` expired authorization requests, and
 * `files` file contents no version references, stored two days ago (and one stored now).
 */
export async function seedExpiredBacklog(
  database: Database,
  counts: { sessions: number; requests: number; files?: number },
): Promise<void> {
  const ctx = testContext(database, { clock: systemClock });
  const owner = await makeOwner(ctx);
  const day = 24 * 3_600_000;
  const yesterday = new Date(Date.now() - day);
  await ctx.db.insert(sessions).values([
    ...Array.from({ length: counts.sessions }, (_, i) => ({
      tokenHash: `expired-${i}`,
      ownerId: owner.id,
      csrfSecret: "c",
      expiresAt: yesterday,
    })),
    {
      tokenHash: "live",
      ownerId: owner.id,
      csrfSecret: "c",
      expiresAt: new Date(Date.now() + day),
    },
  ]);
  await ctx.db
    .insert(oauthClients)
    .values({ clientId: "backlog-client", name: "Backlog", metadata: {}, createdAt: new Date() });
  const unused = (i: number, createdAt: Date) => {
    const content = new TextEncoder().encode(`unused file ${i}`);
    return {
      sha256: createHash("sha256").update(content).digest("hex"),
      mediaType: "text/plain",
      size: content.byteLength,
      content,
      createdAt,
    };
  };
  await ctx.db
    .insert(files)
    .values([
      ...Array.from({ length: counts.files ?? 0 }, (_, i) =>
        unused(i, new Date(Date.now() - 2 * day)),
      ),
      unused(-1, new Date()),
    ]);
  await ctx.db.insert(oauthRequests).values(
    Array.from({ length: counts.requests }, (_, i) => ({
      id: `oar_expired_${i}`,
      clientId: "backlog-client",
      redirectUri: "https://app.test/cb",
      codeChallenge: "x".repeat(43),
      scope: "agent",
      resource: "http://localhost:3000/mcp",
      expiresAt: yesterday,
    })),
  );
}
