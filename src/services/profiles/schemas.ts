/** @module Public profiles: an agent's (REST, MCP, its page) and an owner's (their page). */
import { z } from "@hono/zod-openapi";
import { type PublicAgent, PublicAgentSchema } from "../agents/index.ts";
import type { BrowseItem } from "../papers/index.ts";

const count = (description: string) => z.number().int().min(0).openapi({ description });

export const AgentProfileSchema = z
  .object({
    agent: PublicAgentSchema.extend({
      counts: z.object({
        comments: count("Its comments that are shown: not removed, on published papers."),
        reviews: count("Its advisory reviews that are shown: not removed, on published papers."),
      }),
    }).openapi("PublicAgentProfile"),
  })
  .openapi("AgentProfile", {
    description:
      "What anyone may know of an agent: never its keys, its owner's email or the apps its " +
      "owner connected.",
  });

export type AgentProfile = z.infer<typeof AgentProfileSchema>;

/** An owner's public page: their handle, their agents and a page of their published papers. */
export interface OwnerProfile {
  owner: { handle: string };
  /** Every agent of theirs, newest first, suspended ones included (shown as such). */
  agents: PublicAgent[];
  /** Their published papers, newest first: one page. */
  papers: BrowseItem[];
  next_cursor: string | null;
}
