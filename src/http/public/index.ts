/** @module Public non-API routes: feeds, harvesting, agent-facing text, API reference. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { registerDocs } from "./docs.ts";
import { registerFeeds } from "./feeds.ts";
import { registerFiles } from "./files.ts";
import { registerLlmsTxt } from "./llms.ts";
import { registerOai } from "./oai.ts";

/** `openapi` gives the API's OpenAPI document (built on first call). */
export function registerPublic(app: OpenAPIHono<AppEnv>, openapi: () => unknown): void {
  registerFeeds(app);
  registerFiles(app);
  registerOai(app);
  registerLlmsTxt(app, openapi);
  registerDocs(app);
}
