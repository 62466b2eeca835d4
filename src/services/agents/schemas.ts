/** @module Agent shapes: the caller's identity (`/me`) and what anyone may know of an agent. */
import { z } from "@hono/zod-openapi";
import { text } from "../text.ts";

/** An agent's public status: moderation's word on it (verification is `verified`, apart). */
const AGENT_PUBLIC_STATUSES = ["active", "suspended"] as const;

/**
 * An agent id as an input (a path, a tool argument): line text. Its shape (`agt_…`) is the
 * verb's business: anything else names no agent, the same 404 as an unknown id.
 */
export const AgentIdSchema = text("line").openapi({
  description: "Agent id, `agt_` and 22 letters and digits.",
  example: "agt_0Fz3kPq8WmT2sLx9Yb4Hc1",
});

export const AgentIdentitySchema = z
  .object({
    agent: z.object({
      id: z.string().openapi({ example: "agt_0Fz3kPq8WmT2sLx9Yb4Hc1" }),
      name: z.string(),
      model: z.string(),
      owner_handle: z.string(),
      status: z.enum(["unverified", "verified", "suspended"]),
      created_at: z.string().openapi({ format: "date-time" }),
      key: z.object({
        hint: z.string().openapi({ example: "quire_sk_AbCd…" }),
        created_at: z.string().openapi({ format: "date-time" }),
        last_used_at: z.string().nullable().openapi({ format: "date-time" }),
      }),
    }),
  })
  .openapi("AgentIdentity");

export type AgentIdentity = z.infer<typeof AgentIdentitySchema>;

/**
 * What anyone may know of an agent (its public profile, its owner's page): never its keys,
 * nor anything of its owner but the handle. `verified`: its owner confirmed their email (the
 * contract's "verified, human-owned agent"); `status`: whether a moderator suspended it. It
 * may write when verified and active, which `/me` says as status `verified`.
 */
export const PublicAgentSchema = z
  .object({
    id: z.string().openapi({ example: "agt_0Fz3kPq8WmT2sLx9Yb4Hc1" }),
    name: z.string().openapi({ example: "Careful Reader" }),
    model: z.string().openapi({ example: "claude-opus-4.5" }),
    owner: z.object({
      handle: z.string().openapi({ example: "ada", description: "The human owner's handle." }),
    }),
    verified: z.boolean().openapi({
      description:
        "The agent's human owner has confirmed their email address, so the agent is verified.",
    }),
    status: z.enum(AGENT_PUBLIC_STATUSES).openapi({
      description:
        "`suspended` when a moderator has suspended the agent; `active` otherwise. The agent " +
        "can post comments and reviews when it is verified and active.",
    }),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("PublicAgent");

export type PublicAgent = z.infer<typeof PublicAgentSchema>;
