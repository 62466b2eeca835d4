/**
 * @module pruneStores: deletes what the retention policy says is past retention, in small
 * batches that each commit, with one instance at a time per database.
 */
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, withTryAdvisoryLock } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden } from "../errors.ts";
import { filesUsage } from "../files/index.ts";
import { RETENTION_RULES, type RetentionRule } from "./policy.ts";

/** The advisory-lock key of the prune (an arbitrary constant, per database): "qprn". */
export const PRUNE_LOCK_KEY = 0x7170726e;

const PRUNE_BATCH_DEFAULT = 1_000;

const PruneInputSchema = z.object({
  /** Count the rows past retention, delete nothing (and take no lock). */
  dryRun: z.boolean().default(false),
  /** Rows per statement: small enough that no delete holds its locks for long. */
  batchSize: z.number().int().min(1).max(10_000).default(PRUNE_BATCH_DEFAULT),
});

interface PruneProgress {
  store: string;
  /** Rows removed (or, on a dry run, counted) in this store so far. */
  rows: number;
  batches: number;
}

export interface PruneInput extends Partial<z.input<typeof PruneInputSchema>> {
  /** After each batch (and once per store on a dry run). */
  onProgress?: (progress: PruneProgress) => void;
  /** Stops between two batches (the server's shutdown); what was deleted stays deleted. */
  signal?: AbortSignal;
}

export interface StoreOutcome {
  store: string;
  /** Rows deleted; on a dry run, rows past retention. */
  rows: number;
  batches: number;
  /** Why this store stopped early; the others were still pruned. */
  error?: string;
}

/** A store bounded by size, measured after the prune: rows, bytes, and the bound in bytes. */
export interface StoreUsage {
  store: string;
  rows: number;
  bytes: number;
  maxBytes: number;
}

export type PruneReport =
  | {
      outcome: "pruned" | "counted" | "stopped";
      stores: StoreOutcome[];
      rows: number;
      /** The stores bounded by size (file contents, FILES_MAX_MB), as the run left them. */
      usage: StoreUsage[];
    }
  | { outcome: "skipped"; reason: string };

export const ANOTHER_INSTANCE = "another instance is pruning";

/**
 * Removes every row the retention policy (policy.ts) says is past retention, store by store.
 * Each batch is one statement that commits on its own, so a large backlog never holds locks
 * for long, an interrupted run keeps what it did, and running again simply continues.
 * Candidates are read first and deleted only when there are some, with their condition
 * checked again in the delete: a row that changed in between (a session renewed, an agent
 * created for an owner) is left alone, and a table whose statements notify other instances
 * (owners) is not touched when there is nothing to delete.
 *
 * One prune at a time per database: instances sharing a PostgreSQL database skip while
 * another holds the lock (`skipped`). A store that fails is logged and reported; the others
 * are still pruned. Only the operator prunes (the server's timer and `quire prune` are it).
 */
export async function pruneStores(
  ctx: ServiceContext,
  input: PruneInput = {},
): Promise<PruneReport> {
  if (ctx.caller.kind !== "operator") throw new Forbidden("Only the operator prunes stores.");
  const { dryRun, batchSize } = PruneInputSchema.parse({
    dryRun: input.dryRun,
    batchSize: input.batchSize,
  });
  if (dryRun) {
    const stores: StoreOutcome[] = [];
    for (const rule of RETENTION_RULES) {
      const outcome = await countRule(ctx, rule);
      stores.push(outcome);
      input.onProgress?.({ store: rule.store, rows: outcome.rows, batches: 0 });
    }
    return { outcome: "counted", stores, rows: total(stores), usage: await usage(ctx) };
  }
  const locked = await withTryAdvisoryLock(ctx.db, PRUNE_LOCK_KEY, async () => {
    const stores: StoreOutcome[] = [];
    for (const rule of RETENTION_RULES) {
      if (input.signal?.aborted) break;
      const outcome = await pruneRule(ctx, rule, batchSize, input);
      stores.push(outcome);
      if (outcome.rows > 0) await reclaim(ctx, rule.store);
    }
    const stopped = input.signal?.aborted === true;
    return {
      outcome: stopped ? "stopped" : "pruned",
      stores,
      rows: total(stores),
      usage: await usage(ctx),
    } as const;
  });
  return locked.ran ? locked.value : { outcome: "skipped", reason: ANOTHER_INSTANCE };
}

/**
 * Makes the space of deleted rows reusable at once (a plain VACUUM: no exclusive lock, the
 * table stays in use). PostgreSQL's autovacuum would get there too; the embedded engine has
 * no autovacuum, and without this its files would grow with every prune's worth of rows.
 * A failure is logged: the rows are gone either way.
 */
async function reclaim(ctx: ServiceContext, store: string): Promise<void> {
  try {
    await ctx.db.execute(sql`vacuum ${sql.identifier(store)}`);
  } catch (error) {
    ctx.logger.warn({ err: error, store }, "prune: vacuum after the prune failed");
  }
}

/** The size-bounded stores against their bounds; a failure to measure is logged, not fatal. */
async function usage(ctx: ServiceContext): Promise<StoreUsage[]> {
  try {
    const stored = await filesUsage(ctx.db);
    return [
      {
        store: "files",
        rows: stored.count,
        bytes: stored.bytes,
        maxBytes: ctx.settings.filesMaxBytes,
      },
    ];
  } catch (error) {
    ctx.logger.warn({ err: error }, "prune: measuring the file store failed");
    return [];
  }
}

async function countRule(ctx: ServiceContext, rule: RetentionRule): Promise<StoreOutcome> {
  const now = ctx.clock.now();
  const table = sql.identifier(rule.store);
  try {
    const [row] = await rowsOf<{ n: number | string }>(
      ctx.db,
      sql`select count(*) as n from ${table} where ${sql.join(
        rule.prunable(now).map((c) => sql`(${c})`),
        sql` or `,
      )}`,
    );
    return { store: rule.store, rows: Number(row?.n ?? 0), batches: 0 };
  } catch (error) {
    return failed(ctx, rule.store, 0, 0, error);
  }
}

async function pruneRule(
  ctx: ServiceContext,
  rule: RetentionRule,
  batchSize: number,
  input: PruneInput,
): Promise<StoreOutcome> {
  let rows = 0;
  let batches = 0;
  try {
    const conditions = rule.prunable(ctx.clock.now()).length;
    for (let i = 0; i < conditions; i++) {
      for (;;) {
        if (input.signal?.aborted) return { store: rule.store, rows, batches };
        // The clock is read per batch: a long run removes what expired while it ran.
        const condition = rule.prunable(ctx.clock.now())[i] as SQL;
        const limit = Math.min(batchSize, rule.batchMax ?? batchSize);
        const deleted = await deleteBatch(ctx, rule, condition, limit);
        if (deleted.candidates === 0) break;
        rows += deleted.rows;
        batches++;
        input.onProgress?.({ store: rule.store, rows, batches });
        // Fewer than a batch left; or none of these could be deleted (each changed meanwhile,
        // or is locked), and the next run looks again.
        if (deleted.candidates < limit || deleted.rows === 0) break;
      }
    }
    return { store: rule.store, rows, batches };
  } catch (error) {
    return failed(ctx, rule.store, rows, batches, error);
  }
}

/**
 * One batch: up to `limit` rows matching `condition`, found by ctid and deleted by it. With
 * `skipLocked`, a row another transaction holds is left out of the delete (for the next run).
 */
async function deleteBatch(
  ctx: ServiceContext,
  rule: RetentionRule,
  condition: SQL,
  limit: number,
): Promise<{ candidates: number; rows: number }> {
  const table = sql.identifier(rule.store);
  const found = await rowsOf<{ id: string }>(
    ctx.db,
    sql`select ctid::text as id from ${table} where ${condition} limit ${limit}`,
  );
  if (found.length === 0) return { candidates: 0, rows: 0 };
  const ids = sql`${sql.param(found.map((r) => r.id))}::text[]::tid[]`;
  const deleted = await rowsOf<{ one: number }>(
    ctx.db,
    rule.skipLocked
      ? sql`delete from ${table} where ctid in (
            select ctid from ${table} where ctid = any(${ids}) and ${condition}
            for update skip locked)
          returning 1 as one`
      : sql`delete from ${table} where ctid = any(${ids}) and ${condition} returning 1 as one`,
  );
  return { candidates: found.length, rows: deleted.length };
}

function failed(
  ctx: ServiceContext,
  store: string,
  rows: number,
  batches: number,
  error: unknown,
): StoreOutcome {
  ctx.logger.warn({ err: error, store, rows }, "prune: a store failed; the others go on");
  const message = error instanceof Error ? error.message : String(error);
  return { store, rows, batches, error: message.slice(0, 300) };
}

function total(stores: StoreOutcome[]): number {
  return stores.reduce((sum, s) => sum + s.rows, 0);
}
