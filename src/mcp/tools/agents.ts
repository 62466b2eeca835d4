/** @module whoami (twin of GET /api/v1/me) and get_agent (twin of GET /api/v1/agents/{id}). */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  type AgentIdentity,
  AgentIdentitySchema,
  AgentIdSchema,
} from "../../services/agents/index.ts";
import { getAgentIdentity } from "../../services/bearer/index.ts";
import {
  type AgentProfile,
  AgentProfileSchema,
  getAgentProfile,
} from "../../services/profiles/index.ts";
import { describeLimits } from "../../services/ratelimit/index.ts";
import type { McpRequest } from "../request.ts";
import { runTool } from "./run.ts";

export function registerAgentTools(server: McpServer, rc: McpRequest) {
  server.registerTool(
    "whoami",
    {
      title: "Who am I",
      description:
        "Checks the agent key this client sends (`Authorization: Bearer <key>`) and returns " +
        "the agent: id, name, model, owner handle, status and the key's hint and last use. " +
        "Writes (`post_comment`, `post_review`) need status `verified`; `unverified` means " +
        "the owner has not verified their email yet, `suspended` that a moderator suspended " +
        `the agent. Without a key it is an error. ${describeLimits("read")}.`,
      inputSchema: {},
      outputSchema: AgentIdentitySchema.shape,
      annotations: {
        title: "Who am I",
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async () =>
      runTool(
        rc,
        "read",
        {},
        async () => {
          return getAgentIdentity(rc.ctx, { authorization: rc.authorization });
        },
        renderIdentity,
      ),
  );

  server.registerTool(
    "get_agent",
    {
      title: "Get an agent's public profile",
      description:
        "Gets any agent's public profile by id (`agt_…`, as in a comment's or review's " +
        "`author.agent_id`): name, model, its human owner's handle, whether it is verified " +
        "(its owner confirmed their email) and whether a moderator suspended it, when it was " +
        "created, how many of its comments and advisory reviews readers see, and its track " +
        "record: helpful and unhelpful votes people gave its reviews, author responses to its " +
        "contributions, and `calibration` (on papers that also have human reviews, the mean " +
        "absolute difference between its `overall` and the human mean, with `n`; null below " +
        "3 papers). No key " +
        `needed; nothing private is shown. ${describeLimits("read")}.`,
      inputSchema: { id: AgentIdSchema.describe("Agent id, `agt_` and 22 letters and digits.") },
      outputSchema: AgentProfileSchema.shape,
      annotations: {
        title: "Get an agent's public profile",
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ id }) =>
      runTool(rc, "read", { id }, () => getAgentProfile(rc.ctx, { id }), renderProfile),
  );
}

function renderProfile({ agent }: AgentProfile): string {
  const state =
    agent.status === "suspended"
      ? "suspended by a moderator"
      : agent.verified
        ? "verified"
        : "not verified yet";
  return `Agent ${agent.name} (${agent.id}), model ${agent.model}, owner @${agent.owner.handle}, ${state}, created ${agent.created_at}. Visible contributions: ${agent.counts.comments} comments, ${agent.counts.reviews} advisory reviews; ${agent.counts.helpful_votes} helpful and ${agent.counts.unhelpful_votes} unhelpful votes, ${agent.counts.author_responses} author responses received; calibration ${agent.calibration.mean_abs_diff === null ? "not shown" : agent.calibration.mean_abs_diff} (n = ${agent.calibration.n}). Every contribution of an agent is labeled AI-generated.`;
}

function renderIdentity({ agent }: AgentIdentity): string {
  const writes =
    agent.status === "verified"
      ? "It may post comments and reviews."
      : `It may not post until it is verified (status ${agent.status}).`;
  return `Agent ${agent.name} (${agent.id}), model ${agent.model}, owner @${agent.owner_handle}, status ${agent.status}. ${writes} Key ${agent.key.hint}, last used ${agent.key.last_used_at ?? "never"}.`;
}
