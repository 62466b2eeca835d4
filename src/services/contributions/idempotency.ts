/** @module Idempotency-Key: a retried POST gets the first answer instead of a duplicate. */
import { createHash } from "node:crypto";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { idempotencyKeys } from "../../db/schema/index.ts";
import { Conflict, Invalid, Unprocessable } from "../errors.ts";

/** Keys are remembered this long; after it, the same key starts a new request. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
export const IDEMPOTENCY_KEY_MAX_CHARS = 255;

export interface IdempotencyScope {
  agentId: string;
  key: string;
  /** SHA-256 of what the request asks for (operation, paper reference, normalised body). */
  requestHash: string;
}

export interface StoredAnswer {
  status: number;
  body: unknown;
}

const KEY_RULE = `must be 1 to ${IDEMPOTENCY_KEY_MAX_CHARS} visible ASCII characters, such as a UUID`;

/**
 * What is wrong with an Idempotency-Key value, or null: 1 to `IDEMPOTENCY_KEY_MAX_CHARS` visible ASCII characters
 * (a UUID is the usual choice). The IETF draft's quoted form (`"abc"`, a structured-field
 * string) is accepted too.
 */
export function idempotencyKeyProblem(raw: string): string | null {
  const value = /^".*"$/.test(raw) ? raw.slice(1, -1) : raw;
  const ok =
    value.length >= 1 && value.length <= IDEMPOTENCY_KEY_MAX_CHARS && /^[\x21-\x7e]+$/.test(value);
  return ok ? null : KEY_RULE;
}

/** The key without the quotes of its structured-field form, or a 400 naming the header. */
function normaliseIdempotencyKey(raw: string): string {
  const problem = idempotencyKeyProblem(raw);
  if (problem) {
    throw new Invalid("The Idempotency-Key header is not valid.", [
      { in: "header", name: "idempotency-key", message: problem },
    ]);
  }
  return /^".*"$/.test(raw) ? raw.slice(1, -1) : raw;
}

/**
 * The idempotency scope of an agent's write, or none when the request carried no key: the
 * key is validated (400 when malformed) and the request hashed from `parts`.
 */
export function agentIdempotency(
  agentId: string,
  rawKey: string | undefined,
  parts: unknown,
): IdempotencyScope | undefined {
  if (rawKey === undefined) return undefined;
  return { agentId, key: normaliseIdempotencyKey(rawKey), requestHash: requestHash(parts) };
}

function requestHash(parts: unknown): string {
  return createHash("sha256").update(JSON.stringify(parts), "utf8").digest("hex");
}

function cutoff(now: Date): Date {
  return new Date(now.getTime() - IDEMPOTENCY_TTL_SECONDS * 1000);
}

function answerOf(
  scope: IdempotencyScope,
  row: { requestHash: string; status: number; response: unknown },
): StoredAnswer {
  if (row.requestHash !== scope.requestHash) {
    throw new Unprocessable(
      "This Idempotency-Key was already used for a different request in the last 24 hours; " +
        "use a new key for a new request.",
    );
  }
  // Stored as a JSON text (a jsonb string) because jsonb reorders object keys: the replay
  // is then the first answer byte for byte.
  const body = typeof row.response === "string" ? JSON.parse(row.response) : row.response;
  return { status: row.status, body };
}

/**
 * The stored answer for a live key, before any work is done (so a replay costs no rate
 * limit), or null. A live key with a different request is a 422.
 */
export async function findAnswer(
  db: Db,
  scope: IdempotencyScope,
  now: Date,
): Promise<StoredAnswer | null> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.agentId, scope.agentId),
        eq(idempotencyKeys.key, scope.key),
        gte(idempotencyKeys.createdAt, cutoff(now)),
      ),
    );
  return row ? answerOf(scope, row) : null;
}

/**
 * Inside the write's transaction: takes the key (a new row, or an expired one taken over)
 * or, when another request with the same key committed first, returns that one's answer.
 * A concurrent request with the same key waits on the primary key until the first
 * commits or rolls back, so exactly one of them writes. Expired keys of this agent are
 * deleted on the way.
 */
export async function claimKey(
  db: Db,
  scope: IdempotencyScope,
  now: Date,
): Promise<StoredAnswer | null> {
  const expired = cutoff(now);
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.agentId, scope.agentId), lt(idempotencyKeys.createdAt, expired)));
  const claimed = await db
    .insert(idempotencyKeys)
    .values({
      agentId: scope.agentId,
      key: scope.key,
      requestHash: scope.requestHash,
      status: 0,
      response: {},
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: [idempotencyKeys.agentId, idempotencyKeys.key],
      set: { requestHash: scope.requestHash, status: 0, response: {}, createdAt: now },
      setWhere: sql`${idempotencyKeys.createdAt} < ${expired.toISOString()}::timestamptz`,
    })
    .returning({ agentId: idempotencyKeys.agentId });
  if (claimed.length > 0) return null;
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.agentId, scope.agentId), eq(idempotencyKeys.key, scope.key)));
  if (!row) {
    throw new Conflict("A request with this Idempotency-Key is still in progress; retry shortly.");
  }
  return answerOf(scope, row);
}

/** Records the answer under the claimed key, in the same transaction as the write. */
export async function storeAnswer(db: Db, scope: IdempotencyScope, answer: StoredAnswer) {
  await db
    .update(idempotencyKeys)
    .set({ status: answer.status, response: JSON.stringify(answer.body) })
    .where(and(eq(idempotencyKeys.agentId, scope.agentId), eq(idempotencyKeys.key, scope.key)));
}
