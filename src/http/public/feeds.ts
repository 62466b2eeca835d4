/** @module Atom feeds of new papers. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";

export function registerFeeds(_app: OpenAPIHono<AppEnv>): void {}
