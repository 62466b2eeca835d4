/**
 * pruneStores on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): for every
 * store, rows past retention go and rows within it stay; batches; the lock between instances.
 */
import { createHash, randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { eq, inArray, sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../db/client.ts";
import {
  emailTokens,
  files,
  idempotencyKeys,
  moderationEvents,
  oauthClients,
  oauthGrants,
  oauthRequests,
  oauthTokens,
  owners,
  reports,
  sessions,
  versionFiles,
} from "../../db/schema/index.ts";
import { rowsOf, withTryAdvisoryLock } from "../../db/sql.ts";
import { createTestDatabase, fixedClock, operator, testContext } from "../../testing/db.ts";
import { makeAgent, makeOwner, publishPaper } from "../../testing/factories.ts";
import { publishFigurePaper } from "../../testing/figure-papers.ts";
import { hashKey } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden } from "../errors.ts";
import { exchangeRefreshToken, OAuthRefusal } from "../oauth/index.ts";
import {
  ANOTHER_INSTANCE,
  OWNER_REFERENCES,
  PRUNE_LOCK_KEY,
  type PruneReport,
  pruneStores,
} from "./index.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let database: Database;
let clock: ReturnType<typeof fixedClock>;
let ctx: ServiceContext;

beforeAll(async () => {
  database = await createTestDatabase();
  clock = fixedClock();
  ctx = testContext(database, { clock, caller: operator });
});

afterAll(async () => {
  await database?.close();
});

const now = () => clock.now();
const ago = (ms: number) => new Date(now().getTime() - ms);
const ahead = (ms: number) => new Date(now().getTime() + ms);
const unique = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`;

async function prune(options: { batchSize?: number } = {}) {
  const report = await pruneStores(ctx, options);
  if (report.outcome !== "pruned") throw new Error(`prune ${report.outcome}`);
  for (const store of report.stores) expect(store.error, store.store).toBeUndefined();
  return report;
}

function rowsIn(report: PruneReport, store: string): number {
  if (report.outcome === "skipped") return 0;
  return report.stores.find((s) => s.store === store)?.rows ?? 0;
}

async function exists(table: string, column: string, value: string): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(
    ctx.db,
    sql`select 1 as one from ${sql.identifier(table)} where ${sql.identifier(column)} = ${value}`,
  );
  return rows.length > 0;
}

async function client(refreshedAgoMs = 0): Promise<string> {
  const clientId = unique("client");
  await ctx.db.insert(oauthClients).values({
    clientId,
    name: "Test client",
    metadata: { client_id: clientId, redirect_uris: ["https://app.test/cb"] },
    createdAt: ago(refreshedAgoMs),
  });
  return clientId;
}

async function request(clientId: string, expiresAt: Date): Promise<string> {
  const id = unique("oar");
  await ctx.db.insert(oauthRequests).values({
    id,
    clientId,
    redirectUri: "https://app.test/cb",
    codeChallenge: "x".repeat(43),
    state: "s",
    scope: "agent",
    resource: "http://quire.test/mcp",
    createdAt: ago(HOUR),
    expiresAt,
  });
  return id;
}

let grantOwner: { ownerId: string; agentId: string } | undefined;

async function grantParty() {
  if (!grantOwner) {
    const owner = await makeOwner(ctx);
    const agent = await makeAgent(ctx, owner.handle);
    grantOwner = { ownerId: owner.id, agentId: agent.id };
  }
  return grantOwner;
}

async function grant(
  clientId: string,
  state: { codeUsedAt?: Date | null; codeExpiresAt?: Date; revokedAt?: Date | null } = {},
): Promise<string> {
  const { ownerId, agentId } = await grantParty();
  const id = unique("ogr");
  await ctx.db.insert(oauthGrants).values({
    id,
    clientId,
    agentId,
    ownerId,
    resource: "http://quire.test/mcp",
    scope: "agent",
    redirectUri: "https://app.test/cb",
    codeChallenge: "x".repeat(43),
    codeHash: hashKey(unique("code")),
    codeExpiresAt: state.codeExpiresAt ?? ago(40 * DAY),
    codeUsedAt: state.codeUsedAt === undefined ? ago(40 * DAY) : state.codeUsedAt,
    revokedAt: state.revokedAt ?? null,
    createdAt: ago(40 * DAY),
  });
  return id;
}

async function token(
  grantId: string,
  kind: "access" | "refresh",
  expiresAt: Date,
  usedAt: Date | null = null,
): Promise<{ raw: string; hash: string }> {
  const raw = unique(`quire_${kind === "access" ? "at" : "rt"}`);
  const hash = hashKey(raw);
  await ctx.db
    .insert(oauthTokens)
    .values({ tokenHash: hash, grantId, kind, createdAt: ago(DAY), expiresAt, usedAt });
  return { raw, hash };
}

async function unverifiedOwner(createdAgoMs: number): Promise<string> {
  const owner = await makeOwner(ctx, { verified: false });
  await ctx.db
    .update(owners)
    .set({ createdAt: ago(createdAgoMs) })
    .where(eq(owners.id, owner.id));
  return owner.id;
}

describe("pruneStores: each store loses what is past retention and keeps the rest", () => {
  it("oauth_requests: expired requests go, pending ones stay", async () => {
    const clientId = await client();
    const expired = await request(clientId, ago(1000));
    const pending = await request(clientId, ahead(5 * 60_000));
    const report = await prune();
    expect(rowsIn(report, "oauth_requests")).toBeGreaterThanOrEqual(1);
    expect(await exists("oauth_requests", "id", expired)).toBe(false);
    expect(await exists("oauth_requests", "id", pending)).toBe(true);
  });

  it("oauth_tokens: expired access and unused refresh tokens go a day after expiry; a used refresh token stays while its grant lives, so its replay still revokes the family", async () => {
    const clientId = await client();
    const grantId = await grant(clientId);
    const oldAccess = await token(grantId, "access", ago(DAY + HOUR));
    const recentAccess = await token(grantId, "access", ago(HOUR));
    const oldUnusedRefresh = await token(grantId, "refresh", ago(DAY + HOUR));
    const usedRefresh = await token(grantId, "refresh", ahead(10 * DAY), ago(HOUR));
    const longUsedRefresh = await token(grantId, "refresh", ago(31 * DAY), ago(59 * DAY));
    const live = await token(grantId, "refresh", ahead(29 * DAY));

    await prune();
    expect(await exists("oauth_tokens", "token_hash", oldAccess.hash)).toBe(false);
    expect(await exists("oauth_tokens", "token_hash", oldUnusedRefresh.hash)).toBe(false);
    expect(await exists("oauth_tokens", "token_hash", longUsedRefresh.hash)).toBe(false);
    expect(await exists("oauth_tokens", "token_hash", recentAccess.hash)).toBe(true);
    expect(await exists("oauth_tokens", "token_hash", usedRefresh.hash)).toBe(true);
    expect(await exists("oauth_tokens", "token_hash", live.hash)).toBe(true);

    // Reuse detection still works after the prune: the used token revokes the grant.
    await expect(
      exchangeRefreshToken(ctx, { clientId, refreshToken: usedRefresh.raw }),
    ).rejects.toThrow(OAuthRefusal);
    const [after] = await ctx.db
      .select({ revokedAt: oauthGrants.revokedAt })
      .from(oauthGrants)
      .where(eq(oauthGrants.id, grantId));
    expect(after?.revokedAt).not.toBeNull();
  });

  it("oauth_grants: revoked, never exchanged or with every refresh token expired a day ago, they go with their tokens; a live grant stays", async () => {
    const clientId = await client();
    const revoked = await grant(clientId, { revokedAt: ago(DAY + HOUR) });
    const revokedToken = await token(revoked, "refresh", ahead(20 * DAY), ago(DAY));
    const justRevoked = await grant(clientId, { revokedAt: ago(HOUR) });
    await token(justRevoked, "refresh", ahead(20 * DAY));
    const neverExchanged = await grant(clientId, { codeUsedAt: null, codeExpiresAt: ago(2 * DAY) });
    const codePending = await grant(clientId, { codeUsedAt: null, codeExpiresAt: ahead(30_000) });
    const ended = await grant(clientId);
    const endedUsed = await token(ended, "refresh", ago(2 * DAY), ago(3 * DAY));
    await token(ended, "refresh", ago(DAY + HOUR));
    const alive = await grant(clientId);
    await token(alive, "refresh", ahead(DAY));

    await prune();
    for (const gone of [revoked, neverExchanged, ended]) {
      expect(await exists("oauth_grants", "id", gone), gone).toBe(false);
    }
    for (const kept of [justRevoked, codePending, alive]) {
      expect(await exists("oauth_grants", "id", kept), kept).toBe(true);
    }
    expect(await exists("oauth_tokens", "token_hash", revokedToken.hash)).toBe(false);
    expect(await exists("oauth_tokens", "token_hash", endedUsed.hash)).toBe(false);
  });

  it("oauth_clients: unused for 25 hours they go; a grant, a pending request or a fresh registration keeps one", async () => {
    const unused = await client(26 * HOUR);
    const fresh = await client(HOUR);
    const withGrant = await client(40 * DAY);
    await grant(withGrant, { codeUsedAt: null, codeExpiresAt: ahead(30_000) });
    const withRequest = await client(40 * DAY);
    await request(withRequest, ahead(5 * 60_000));

    const report = await prune();
    expect(rowsIn(report, "oauth_clients")).toBeGreaterThanOrEqual(1);
    expect(await exists("oauth_clients", "client_id", unused)).toBe(false);
    for (const kept of [fresh, withGrant, withRequest]) {
      expect(await exists("oauth_clients", "client_id", kept), kept).toBe(true);
    }
  });

  it("oauth_clients: a metadata document fetched again refreshes its row (the trigger), so a client an instance may still have cached stays", async () => {
    const clientId = await client(40 * DAY);
    // What getClient's upsert does with each fresh copy of a document.
    await ctx.db
      .update(oauthClients)
      .set({ name: "Fetched again" })
      .where(eq(oauthClients.clientId, clientId));
    const [row] = await ctx.db
      .select({ refreshedAt: oauthClients.refreshedAt })
      .from(oauthClients)
      .where(eq(oauthClients.clientId, clientId));
    const refreshed = row?.refreshedAt as Date;
    expect(refreshed.getTime()).toBeGreaterThan(ago(DAY).getTime());

    const real = fixedClock(new Date(refreshed.getTime() + 24 * HOUR));
    const at = (c: typeof real) => testContext(database, { clock: c, caller: operator });
    await pruneStores(at(real));
    expect(await exists("oauth_clients", "client_id", clientId)).toBe(true);
    real.advance(2 * HOUR);
    await pruneStores(at(real));
    expect(await exists("oauth_clients", "client_id", clientId)).toBe(false);
  });

  it("sessions: expired sessions go, live ones stay", async () => {
    const owner = await makeOwner(ctx);
    const expired = unique("s");
    const live = unique("s");
    await ctx.db.insert(sessions).values([
      { tokenHash: expired, ownerId: owner.id, csrfSecret: "c", expiresAt: ago(1000) },
      { tokenHash: live, ownerId: owner.id, csrfSecret: "c", expiresAt: ahead(DAY) },
    ]);
    await prune();
    expect(await exists("sessions", "token_hash", expired)).toBe(false);
    expect(await exists("sessions", "token_hash", live)).toBe(true);
  });

  it("vacuums a table it deleted from, so the embedded engine (no autovacuum) reuses the space", async () => {
    const warnings: string[] = [];
    const logger = pino(
      { level: "warn" },
      new Writable({
        write(chunk, _enc, done) {
          warnings.push(String(chunk));
          done();
        },
      }),
    );
    const owner = await makeOwner(ctx);
    await ctx.db.insert(sessions).values(
      Array.from({ length: 50 }, () => ({
        tokenHash: unique("s"),
        ownerId: owner.id,
        csrfSecret: "c",
        expiresAt: ago(1000),
      })),
    );
    const report = await pruneStores({ ...ctx, logger });
    expect(rowsIn(report, "sessions")).toBeGreaterThanOrEqual(50);
    expect(warnings.join("")).not.toContain("vacuum");
    const [stats] = await rowsOf<{ vacuumed: boolean }>(
      ctx.db,
      sql`select last_vacuum is not null as vacuumed from pg_stat_user_tables where relname = 'sessions'`,
    );
    expect(stats?.vacuumed).toBe(true);
  });

  it("email_tokens: used or expired links go, live ones stay", async () => {
    const owner = await makeOwner(ctx);
    const [expired, used, live] = [unique("e"), unique("e"), unique("e")];
    await ctx.db.insert(emailTokens).values([
      { tokenHash: expired, ownerId: owner.id, purpose: "reset_password", expiresAt: ago(1000) },
      {
        tokenHash: used,
        ownerId: owner.id,
        purpose: "verify_email",
        expiresAt: ahead(DAY),
        usedAt: ago(1000),
      },
      { tokenHash: live, ownerId: owner.id, purpose: "verify_email", expiresAt: ahead(DAY) },
    ]);
    await prune();
    expect(await exists("email_tokens", "token_hash", expired)).toBe(false);
    expect(await exists("email_tokens", "token_hash", used)).toBe(false);
    expect(await exists("email_tokens", "token_hash", live)).toBe(true);
  });

  it("owners: an account never verified goes 7 days after sign-up when it owns nothing and has no live link or session; every other account stays", async () => {
    const abandoned = await unverifiedOwner(8 * DAY);
    const recent = await unverifiedOwner(6 * DAY);
    const verified = (await makeOwner(ctx)).id;
    await ctx.db
      .update(owners)
      .set({ createdAt: ago(400 * DAY) })
      .where(eq(owners.id, verified));
    const withAgent = await unverifiedOwner(8 * DAY);
    const [{ handle } = { handle: "" }] = await ctx.db
      .select({ handle: owners.handle })
      .from(owners)
      .where(eq(owners.id, withAgent));
    await makeAgent(ctx, handle);
    const withLink = await unverifiedOwner(8 * DAY);
    await ctx.db.insert(emailTokens).values({
      tokenHash: unique("e"),
      ownerId: withLink,
      purpose: "verify_email",
      expiresAt: ahead(DAY),
    });
    const withSession = await unverifiedOwner(8 * DAY);
    await ctx.db.insert(sessions).values({
      tokenHash: unique("s"),
      ownerId: withSession,
      csrfSecret: "c",
      expiresAt: ahead(DAY),
    });
    const moderated = await unverifiedOwner(8 * DAY);
    await ctx.db.insert(moderationEvents).values({
      id: unique("mod"),
      actor: "moderator",
      action: "owner.note",
      targetType: "owner",
      targetId: moderated,
      reason: "kept for the log",
      createdAt: ago(DAY),
    });

    const report = await prune();
    expect(rowsIn(report, "owners")).toBe(1);
    expect(await exists("owners", "id", abandoned)).toBe(false);
    for (const kept of [recent, verified, withAgent, withLink, withSession, moderated]) {
      expect(await exists("owners", "id", kept), kept).toBe(true);
    }
  });

  it("owners: every foreign key to owners that does not cascade is one the prune checks", async () => {
    const references = await rowsOf<{ table: string; column: string }>(
      ctx.db,
      sql`select c.conrelid::regclass::text as table, a.attname as column
          from pg_constraint c
          join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any(c.conkey)
          where c.contype = 'f' and c.confrelid = 'owners'::regclass and c.confdeltype <> 'c'
          order by 1, 2`,
    );
    const checked = OWNER_REFERENCES.map((r) => `${r.table}.${r.column}`).sort();
    expect(references.map((r) => `${r.table}.${r.column}`).sort()).toEqual(checked);
  });

  it("idempotency_keys: keys older than their 24-hour replay window go", async () => {
    const owner = await makeOwner(ctx);
    const agent = await makeAgent(ctx, owner.handle);
    const base = { agentId: agent.id, requestHash: "h", status: 201, response: "{}" };
    await ctx.db.insert(idempotencyKeys).values([
      { ...base, key: "old", createdAt: ago(DAY + 1000) },
      { ...base, key: "live", createdAt: ago(DAY - 60_000) },
    ]);
    await prune();
    const left = await ctx.db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.agentId, agent.id));
    expect(left.map((r) => r.key)).toEqual(["live"]);
  });

  it("reports: resolved reports go 180 days after resolution; open ones stay however old", async () => {
    const { paper_id: paperId } = await publishPaper(ctx);
    const base = { targetType: "paper" as const, targetId: paperId, paperId, reason: "spam" };
    const [oldResolved, recentResolved, oldOpen] = [unique("rpt"), unique("rpt"), unique("rpt")];
    await ctx.db.insert(reports).values([
      {
        ...base,
        id: oldResolved,
        status: "resolved",
        outcome: "dismissed",
        resolvedAt: ago(181 * DAY),
        createdAt: ago(200 * DAY),
      },
      {
        ...base,
        id: recentResolved,
        status: "resolved",
        outcome: "actioned",
        resolvedAt: ago(179 * DAY),
        createdAt: ago(200 * DAY),
      },
      { ...base, id: oldOpen, createdAt: ago(400 * DAY) },
    ]);
    await prune();
    expect(await exists("reports", "id", oldResolved)).toBe(false);
    expect(await exists("reports", "id", recentResolved)).toBe(true);
    expect(await exists("reports", "id", oldOpen)).toBe(true);
  });

  it("moderation_events: a reader's report.file event goes with its report; one whose report stays, and moderators' actions, stay", async () => {
    const { paper_id: paperId } = await publishPaper(ctx);
    const base = { targetType: "paper" as const, targetId: paperId, paperId, reason: "spam" };
    const [gone, kept] = [unique("rpt"), unique("rpt")];
    await ctx.db.insert(reports).values([
      {
        ...base,
        id: gone,
        status: "resolved",
        outcome: "dismissed",
        resolvedAt: ago(181 * DAY),
        createdAt: ago(200 * DAY),
      },
      { ...base, id: kept, createdAt: ago(200 * DAY) },
    ]);
    const event = (action: string, reportId: string | null) => ({
      id: unique("mod"),
      actor: action === "report.file" ? "reader" : "mod",
      action,
      targetType: "paper" as const,
      targetId: paperId,
      reason: "spam",
      details: reportId
        ? { report_id: reportId, paper_id: paperId, note: "a reader's words" }
        : null,
      createdAt: ago(200 * DAY),
    });
    const events = [
      event("report.file", gone),
      event("report.file", kept),
      event("report.resolve", gone),
      event("paper.remove", null),
    ];
    await ctx.db.insert(moderationEvents).values(events);
    await prune();
    expect(await exists("reports", "id", gone)).toBe(false);
    expect(await exists("moderation_events", "id", events[0]!.id)).toBe(false);
    for (const kept of events.slice(1)) {
      expect(await exists("moderation_events", "id", kept.id)).toBe(true);
    }
  });
});

/** A file content no version references (an import that stopped half-way), stored `agoMs` ago. */
async function unusedFile(agoMs: number): Promise<string> {
  const content = new TextEncoder().encode(unique("orphan"));
  const sha256 = createHash("sha256").update(content).digest("hex");
  await ctx.db.insert(files).values({
    sha256,
    mediaType: "text/plain",
    size: content.byteLength,
    content,
    createdAt: ago(agoMs),
  });
  return sha256;
}

/** These file contents, as if stored `agoMs` ago (so only references keep them). */
async function ageFiles(shas: Iterable<string>, agoMs: number): Promise<void> {
  await ctx.db
    .update(files)
    .set({ createdAt: ago(agoMs) })
    .where(inArray(files.sha256, [...shas]));
}

describe("pruneStores: file contents no version references", () => {
  it("go a day after they were stored; a content a version references stays however old, and one shared with another paper outlives the paper that goes", async () => {
    const old = await unusedFile(DAY + HOUR);
    const fresh = await unusedFile(HOUR);
    // Two papers sharing the diagram and the data; their plots differ (a shade apart).
    const a = await publishFigurePaper(ctx, 30);
    const b = await publishFigurePaper(ctx, 31);
    const hashes = (s: typeof a.source) => new Map(s.files.map((f) => [f.name, f.sha256]));
    const [filesA, filesB] = [hashes(a.source), hashes(b.source)];
    expect(filesA.get("figures/diagram.svg")).toBe(filesB.get("figures/diagram.svg"));
    expect(filesA.get("figures/plot.png")).not.toBe(filesB.get("figures/plot.png"));
    await ageFiles([...filesA.values(), ...filesB.values()], 40 * DAY);

    const counted = await pruneStores(ctx, { dryRun: true });
    expect(rowsIn(counted, "files")).toBe(1);
    await prune();
    expect(await exists("files", "sha256", old)).toBe(false);
    expect(await exists("files", "sha256", fresh)).toBe(true);
    for (const sha of [...filesA.values(), ...filesB.values()]) {
      expect(await exists("files", "sha256", sha), sha).toBe(true);
    }

    // Paper A's versions no longer list their files (as a purge would leave them).
    await ctx.db.delete(versionFiles).where(eq(versionFiles.paperId, a.paperId));
    const report = await prune();
    expect(rowsIn(report, "files")).toBe(1);
    expect(await exists("files", "sha256", filesA.get("figures/plot.png") as string)).toBe(false);
    for (const sha of filesB.values()) expect(await exists("files", "sha256", sha), sha).toBe(true);
  });

  it("are kept while a migration into the database is unfinished (its files come before its versions)", async () => {
    const orphan = await unusedFile(2 * DAY);
    await ctx.db.execute(sql`create schema quire_migrate`);
    try {
      await ctx.db.execute(sql`create table quire_migrate.run (source_id text)`);
      expect(rowsIn(await pruneStores(ctx, { dryRun: true }), "files")).toBe(0);
      await prune();
      expect(await exists("files", "sha256", orphan)).toBe(true);
    } finally {
      await ctx.db.execute(sql`drop schema quire_migrate cascade`);
    }
    await prune();
    expect(await exists("files", "sha256", orphan)).toBe(false);
  });

  it("go at most 50 to a statement (a content is up to 10 MiB), each batch reported; the report says the store's size against FILES_MAX_MB", async () => {
    await prune();
    for (let i = 0; i < 120; i++) await unusedFile(2 * DAY);
    expect(rowsIn(await pruneStores(ctx, { dryRun: true }), "files")).toBe(120);
    const progress: number[] = [];
    const report = await pruneStores(ctx, {
      onProgress: (p) => {
        if (p.store === "files") progress.push(p.rows);
      },
    });
    if (report.outcome !== "pruned") throw new Error(report.outcome);
    expect(report.stores.find((s) => s.store === "files")).toEqual({
      store: "files",
      rows: 120,
      batches: 3,
    });
    expect(progress).toEqual([50, 100, 120]);
    const [stored] = await rowsOf<{ n: string | number; bytes: string | number }>(
      ctx.db,
      sql`select count(*) as n, coalesce(sum(size), 0) as bytes from files`,
    );
    expect(report.usage).toEqual([
      {
        store: "files",
        rows: Number(stored?.n),
        bytes: Number(stored?.bytes),
        maxBytes: ctx.settings.filesMaxBytes,
      },
    ]);
  });

  it("a content a version is being stored with is not deleted from under it (on PostgreSQL: locked rows are skipped, not waited for)", async () => {
    const sha = await unusedFile(2 * DAY);
    if (database.kind === "postgres") {
      const other = await secondInstance(database);
      try {
        let release: () => void = () => {};
        const holding = new Promise<void>((resolve) => {
          release = resolve;
        });
        let entered: () => void = () => {};
        const inside = new Promise<void>((resolve) => {
          entered = resolve;
        });
        // What storeVersionFiles does with a content it is about to reference.
        const holder = other.db.transaction(async (tx) => {
          await tx.execute(sql`select 1 from files where sha256 = ${sha} for key share`);
          entered();
          await holding;
        });
        await inside;
        const report = await prune();
        expect(rowsIn(report, "files")).toBe(0);
        expect(await exists("files", "sha256", sha)).toBe(true);
        release();
        await holder;
      } finally {
        await other.close();
      }
    } else {
      // One connection: a version's transaction and the prune never overlap, so what the
      // version stores (again) after a prune is simply there.
      await prune();
      expect(await exists("files", "sha256", sha)).toBe(false);
    }
    const again = await publishFigurePaper(ctx, 32);
    await ageFiles(
      again.source.files.map((f) => f.sha256),
      40 * DAY,
    );
    await prune();
    for (const f of again.source.files) {
      expect(await exists("files", "sha256", f.sha256), f.name).toBe(true);
    }
  });
});

describe("pruneStores: batches, dry runs, the lock", () => {
  it("works through a backlog larger than a batch, one committed batch at a time, and a dry run counts it without deleting", async () => {
    await prune();
    const owner = await makeOwner(ctx);
    await ctx.db.insert(sessions).values(
      Array.from({ length: 25 }, (_, i) => ({
        tokenHash: unique(`backlog${i}`),
        ownerId: owner.id,
        csrfSecret: "c",
        expiresAt: ago(DAY),
      })),
    );

    const counted = await pruneStores(ctx, { dryRun: true });
    expect(counted.outcome).toBe("counted");
    expect(rowsIn(counted, "sessions")).toBe(25);
    expect(rowsIn(counted, "oauth_requests")).toBe(0);

    const progress: number[] = [];
    const report = await pruneStores(ctx, {
      batchSize: 10,
      onProgress: (p) => {
        if (p.store === "sessions") progress.push(p.rows);
      },
    });
    expect(report.outcome).toBe("pruned");
    if (report.outcome !== "pruned") return;
    expect(report.stores.find((s) => s.store === "sessions")).toEqual({
      store: "sessions",
      rows: 25,
      batches: 3,
    });
    expect(progress).toEqual([10, 20, 25]);
    expect(rowsIn(await pruneStores(ctx, { dryRun: true }), "sessions")).toBe(0);
  });

  it("a second prune while another instance holds the lock skips, saying so (on PostgreSQL another pool, so the advisory lock decides)", async () => {
    const other = await secondInstance(database);
    try {
      const otherCtx = testContext(other, { clock, caller: operator });
      let release: () => void = () => {};
      const holding = new Promise<void>((resolve) => {
        release = resolve;
      });
      let entered: () => void = () => {};
      const inside = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const holder = withTryAdvisoryLock(database.db, PRUNE_LOCK_KEY, async () => {
        entered();
        await holding;
      });
      await inside;
      expect(await pruneStores(otherCtx)).toEqual({ outcome: "skipped", reason: ANOTHER_INSTANCE });
      release();
      expect((await holder).ran).toBe(true);
      expect((await pruneStores(otherCtx)).outcome).toBe("pruned");
    } finally {
      if (other !== database) await other.close();
    }
  });

  it("only the operator prunes", async () => {
    await expect(pruneStores({ ...ctx, caller: { kind: "anonymous" } })).rejects.toThrow(Forbidden);
  });

  it("a store that fails is reported and the others are still pruned", async () => {
    const owner = await makeOwner(ctx);
    const expired = unique("s");
    await ctx.db
      .insert(sessions)
      .values({ tokenHash: expired, ownerId: owner.id, csrfSecret: "c", expiresAt: ago(1000) });
    // The reports table is gone from under the prune (its statements fail; owners' too).
    await ctx.db.execute(sql`alter table reports rename to reports_away`);
    try {
      const report = await pruneStores(ctx);
      if (report.outcome !== "pruned") throw new Error(report.outcome);
      expect(report.stores.find((s) => s.store === "reports")?.error).toMatch(/reports/);
      expect(await exists("sessions", "token_hash", expired)).toBe(false);
    } finally {
      await ctx.db.execute(sql`alter table reports_away rename to reports`);
    }
  });
});

/** Another instance on the same database: a second pool on PostgreSQL; PGlite has one process. */
async function secondInstance(db: Database): Promise<Database> {
  if (db.kind !== "postgres") return db;
  const pool = (db.db as unknown as { $client: { options: { connectionString: string } } }).$client;
  return openDatabase({ databaseUrl: pool.options.connectionString, migrate: false, poolSize: 2 });
}
