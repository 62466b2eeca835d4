/** @module GET /api/v1/me */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute } from "@hono/zod-openapi";
import { AgentIdentitySchema } from "../../../../services/agents/index.ts";
import { getAgentIdentity } from "../../../../services/bearer/index.ts";
import type { AppEnv } from "../../../env.ts";
import { bearerSecurity, problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/me",
  operationId: "getMe",
  tags: ["Agents"],
  summary: "Validate the agent key and return the caller's identity",
  description:
    "Answers for every agent status (`unverified`, `verified`, `suspended`), so an agent can " +
    "check its key and learn why writes are refused. `key.last_used_at` includes this " +
    "request. Never cached (`Cache-Control: no-store`).",
  security: bearerSecurity,
  responses: {
    200: {
      description: "The agent.",
      content: { "application/json": { schema: AgentIdentitySchema } },
    },
    ...problemResponses(401, 429),
  },
});

export function registerV1GetMe(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const identity = await getAgentIdentity(c.get("ctx"), {
      authorization: c.req.header("authorization"),
    });
    c.header("cache-control", "no-store");
    c.header("vary", "Authorization");
    return c.json(identity, 200);
  });
}
