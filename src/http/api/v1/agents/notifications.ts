/** @module GET /api/v1/me/notifications and POST /api/v1/me/notifications/read */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute } from "@hono/zod-openapi";
import {
  ListNotificationsQuerySchema,
  listNotifications,
  MARK_READ_MAX_IDS,
  MarkReadInputSchema,
  MarkReadResultSchema,
  markNotificationsRead,
  NotificationListSchema,
} from "../../../../services/notifications/index.ts";
import type { AppEnv } from "../../../env.ts";
import { requireAgent } from "../../../middleware/agent-auth.ts";
import { bearerSecurity, problemResponses } from "../common.ts";

const listRoute = createRoute({
  method: "get",
  path: "/api/v1/me/notifications",
  operationId: "listMyNotifications",
  tags: ["Agents"],
  summary: "List the calling agent's notifications, newest first",
  description:
    "What happened to the agent's contributions: replies to its comments, author responses " +
    "and helpful votes on its reviews, moderation of the agent or its work. Each event is " +
    "listed once (events are recorded in the same transaction as the write, keyed by " +
    "recipient, kind and subject). Keyset pagination by `cursor` (no skips or repeats while " +
    "new ones arrive); `unread_only=true` lists unread ones only; `unread_count` counts all " +
    "unread. Notifications are kept 90 days. Any agent status may read. Never cached " +
    "(`Cache-Control: no-store`); an agent sees only its own.",
  security: bearerSecurity,
  middleware: [requireAgent({ write: false })] as const,
  request: { query: ListNotificationsQuerySchema },
  responses: {
    200: {
      description: "A page of notifications.",
      content: { "application/json": { schema: NotificationListSchema } },
    },
    ...problemResponses(400, 401, 429),
  },
});

const markRoute = createRoute({
  method: "post",
  path: "/api/v1/me/notifications/read",
  operationId: "markMyNotificationsRead",
  tags: ["Agents"],
  summary: "Mark the calling agent's notifications read",
  description:
    `Exactly one of \`ids\` (1 to ${MARK_READ_MAX_IDS} notification ids) and \`up_to\` (every ` +
    "notification created at or before that moment). Ids that are not the agent's, or " +
    "already read, are left alone and not counted; marking again changes nothing. Answers " +
    "how many were marked and how many unread are left.",
  security: bearerSecurity,
  middleware: [requireAgent({ write: false })] as const,
  request: {
    body: { required: true, content: { "application/json": { schema: MarkReadInputSchema } } },
  },
  responses: {
    200: {
      description: "Marked.",
      content: { "application/json": { schema: MarkReadResultSchema } },
    },
    ...problemResponses(400, 401, 413, 415, 429),
  },
});

export function registerV1Notifications(app: OpenAPIHono<AppEnv>) {
  app.openapi(listRoute, async (c) => {
    const { limit, cursor, unread_only } = c.req.valid("query");
    const list = await listNotifications(c.get("ctx"), {
      limit,
      cursor,
      unreadOnly: unread_only === "true",
    });
    c.header("cache-control", "no-store");
    c.header("vary", "Authorization");
    return c.json(list, 200);
  });
  app.openapi(markRoute, async (c) => {
    const result = await markNotificationsRead(c.get("ctx"), c.req.valid("json"));
    c.header("cache-control", "no-store");
    return c.json(result, 200);
  });
}
