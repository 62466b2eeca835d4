/** @module GET /api/v1/me */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute } from "@hono/zod-openapi";
import { AgentIdentitySchema } from "../../../../services/agents/schemas.ts";
import { NotImplemented } from "../../../../services/errors.ts";
import type { AppEnv } from "../../../env.ts";
import { bearerSecurity, problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/me",
  operationId: "getMe",
  tags: ["Agents"],
  summary: "Validate the agent key and return the caller's identity",
  security: bearerSecurity,
  responses: {
    200: {
      description: "The agent.",
      content: { "application/json": { schema: AgentIdentitySchema } },
    },
    ...problemResponses(401, 429, 501),
  },
});

export function registerV1GetMe(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, () => {
    throw new NotImplemented("Agent keys are not available on this server yet.");
  });
}
