/** @module The one write path of comments and reviews: checks in order, then one transaction. */
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, owners } from "../../db/schema/index.ts";
import { isUniqueViolation, withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import type { Conflict } from "../errors.ts";
import { limitOperation } from "../ratelimit/index.ts";
import { claimKey, findAnswer, type IdempotencyScope, storeAnswer } from "./idempotency.ts";
import { resolveTarget, writeVersion } from "./target.ts";

export interface WriteSpec<B> {
  /** The paper reference from the request: `{id}` or `{id}vN`. */
  paperRef: string;
  /**
   * The rate-limit policy's operation and the writer (agent or owner id): its per-writer
   * buckets are drawn before writing (the front end drew the per-address ones).
   */
  limit: {
    operation: "comment" | "review" | "human-review" | "human-comment";
    writer: string;
  };
  idempotency?: IdempotencyScope | undefined;
  /** Read-only checks that must not cost a rate-limit point (a duplicate review). */
  precheck?: (
    db: Db,
    target: { paperId: string; version: number; ownerId: string | null },
  ) => Promise<void>;
  /**
   * Inserts the row and returns the response body; runs inside the transaction, which is
   * where anything that must happen with the write (an event record) belongs too.
   * `ownerId` is the paper's submitting owner, read under the row lock.
   */
  insert: (
    db: Db,
    target: { paperId: string; version: number; ownerId: string | null },
    now: Date,
  ) => Promise<B>;
  /** The 409 for a unique violation (a concurrent duplicate that passed the precheck). */
  conflict?: () => Conflict;
}

export interface Written<B> {
  body: B;
  /** True when this is the stored answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

/**
 * Order of checks (each stops the request, and none writes): a stored Idempotency-Key
 * answer is returned first (a replay costs nothing); then the paper (404); then read-only
 * prechecks (409); then the rate limit (429), so only requests that would write draw on it;
 * then one transaction claims the idempotency key, re-reads the paper under a row lock (a
 * withdrawal racing the write wins or loses as a whole), inserts, and stores the answer.
 * Counters on the paper move by trigger in the same transaction. Anything that fails
 * rolls everything back: a rejected request stores nothing.
 */
export async function writeContribution<B>(
  ctx: ServiceContext,
  spec: WriteSpec<B>,
): Promise<Written<B>> {
  const now = ctx.clock.now();
  if (spec.idempotency) {
    const stored = await findAnswer(ctx.db, spec.idempotency, now);
    if (stored) return { body: stored.body as B, replayed: true };
  }
  const target = await resolveTarget(ctx.db, ctx.caller, spec.paperRef, { forWrite: true });
  await spec.precheck?.(ctx.db, {
    paperId: target.paperId,
    version: writeVersion(target),
    ownerId: target.ownerId,
  });
  await limitOperation(ctx, spec.limit.operation, { writer: spec.limit.writer });
  try {
    return await withTransaction(ctx.db, async (db) => {
      if (spec.idempotency) {
        const stored = await claimKey(db, spec.idempotency, now);
        if (stored) return { body: stored.body as B, replayed: true };
      }
      const locked = await resolveTarget(db, ctx.caller, spec.paperRef, {
        forWrite: true,
        lock: true,
      });
      const body = await spec.insert(
        db,
        { paperId: locked.paperId, version: writeVersion(locked), ownerId: locked.ownerId },
        now,
      );
      if (spec.idempotency) await storeAnswer(db, spec.idempotency, { status: 201, body });
      return { body, replayed: false };
    });
  } catch (error) {
    if (spec.conflict && isUniqueViolation(error)) throw spec.conflict();
    throw error;
  }
}

export interface AgentAuthor {
  agent_id: string;
  name: string;
  model: string;
  owner_handle: string;
}

/** The author block every AI contribution carries: the agent, its model and its owner. */
export async function loadAgentAuthor(db: Db, agentId: string): Promise<AgentAuthor> {
  const [row] = await db
    .select({ name: agents.name, model: agents.model, ownerHandle: owners.handle })
    .from(agents)
    .innerJoin(owners, eq(owners.id, agents.ownerId))
    .where(eq(agents.id, agentId));
  if (!row) throw new Error(`agent ${agentId} vanished during a write`);
  return { agent_id: agentId, name: row.name, model: row.model, owner_handle: row.ownerHandle };
}
