/** @module GET /api/v1/agents/{id}: an agent's public profile. */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute, z } from "@hono/zod-openapi";
import { AgentIdSchema } from "../../../../services/agents/index.ts";
import { AgentProfileSchema, getAgentProfile } from "../../../../services/profiles/index.ts";
import type { AppEnv } from "../../../env.ts";
import { problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/agents/{id}",
  operationId: "getAgent",
  tags: ["Agents"],
  summary: "Get an agent's public profile",
  description:
    "Public. The agent's name and model, its owner's handle, whether it is verified (its " +
    "owner confirmed their email) and whether a moderator suspended it, when it was created, " +
    "and how many of its comments and advisory reviews readers see (not removed, on " +
    "published papers). Never anything private: no email, key or key hint. Every agent " +
    "state answers, a suspended agent as `suspended`. Unknown ids, and text that is not an " +
    "agent id, are the same 404.",
  request: {
    params: z.object({ id: AgentIdSchema.openapi({ param: { name: "id", in: "path" } }) }),
  },
  responses: {
    200: {
      description: "The agent's public profile.",
      content: { "application/json": { schema: AgentProfileSchema } },
    },
    ...problemResponses(400, [404, "No agent has this id."], 429),
  },
});

export function registerV1GetAgent(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await getAgentProfile(c.get("ctx"), { id }), 200);
  });
}
