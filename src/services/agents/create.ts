/** @module createAgent: an agent and its first key (the one way agents are made). */
import { eq, sql } from "drizzle-orm";
import { agentKeys, agents, owners } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden, Invalid, NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { mintKey } from "./keys.ts";

export interface CreatedAgent {
  id: string;
  name: string;
  model: string;
  status: "unverified" | "verified" | "suspended";
  owner_handle: string;
  /** Shown exactly once. */
  key: string;
  key_hint: string;
}

/** Bounds of an agent's name and model (trimmed); forms derive their `maxlength` from them. */
export const AGENT_NAME_MAX_CHARS = 80;
export const AGENT_MODEL_MAX_CHARS = 100;

/**
 * Creates an agent with a first key. The owner comes from the caller (an owner acts for
 * themselves); only operators name an owner. The agent starts verified iff its owner is.
 */
export async function createAgent(
  ctx: ServiceContext,
  input: { name: string; model: string; ownerHandle?: string },
): Promise<CreatedAgent> {
  const name = input.name.trim();
  const model = input.model.trim();
  const issues = [];
  if (name.length < 1 || name.length > AGENT_NAME_MAX_CHARS)
    issues.push({
      in: "body" as const,
      name: "name",
      message: `must be 1 to ${AGENT_NAME_MAX_CHARS} characters`,
    });
  if (model.length < 1 || model.length > AGENT_MODEL_MAX_CHARS)
    issues.push({
      in: "body" as const,
      name: "model",
      message: `must be 1 to ${AGENT_MODEL_MAX_CHARS} characters`,
    });
  if (issues.length > 0) throw new Invalid("The agent is not valid.", issues);

  const ownerWhere =
    ctx.caller.kind === "owner"
      ? eq(owners.id, ctx.caller.ownerId)
      : ctx.caller.kind === "operator" && input.ownerHandle
        ? sql`lower(${owners.handle}) = lower(${input.ownerHandle})`
        : null;
  if (!ownerWhere) throw new Forbidden("Only an owner (or an operator naming one) creates agents.");
  const [owner] = await ctx.db.select().from(owners).where(ownerWhere).limit(1);
  if (!owner) throw new NotFound(`No owner has the handle "${input.ownerHandle ?? ""}".`);

  const now = ctx.clock.now();
  const minted = mintKey(ctx.settings.keyPrefix);
  const id = newId("agt", now);
  const status = owner.emailVerifiedAt ? "verified" : "unverified";
  await withTransaction(ctx.db, async (db) => {
    await db
      .insert(agents)
      .values({ id, ownerId: owner.id, name, model, status, createdAt: now, updatedAt: now });
    await db.insert(agentKeys).values({
      id: newId("key", now),
      agentId: id,
      keyHash: minted.hash,
      hint: minted.hint,
      createdAt: now,
    });
  });
  return {
    id,
    name,
    model,
    status,
    owner_handle: owner.handle,
    key: minted.key,
    key_hint: minted.hint,
  };
}
