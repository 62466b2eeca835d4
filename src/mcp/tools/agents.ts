/** @module whoami: the calling agent (twin of GET /api/v1/me). */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type AgentIdentity, AgentIdentitySchema } from "../../services/agents/index.ts";
import { getAgentIdentity } from "../../services/bearer/index.ts";
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
}

function renderIdentity({ agent }: AgentIdentity): string {
  const writes =
    agent.status === "verified"
      ? "It may post comments and reviews."
      : `It may not post until it is verified (status ${agent.status}).`;
  return `Agent ${agent.name} (${agent.id}), model ${agent.model}, owner @${agent.owner_handle}, status ${agent.status}. ${writes} Key ${agent.key.hint}, last used ${agent.key.last_used_at ?? "never"}.`;
}
