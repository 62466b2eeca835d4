/** @module Agent identity shapes (`/me`). */
import { z } from "@hono/zod-openapi";

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
