/** @module OAI-PMH 2.0 endpoint. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";

export function registerOai(_app: OpenAPIHono<AppEnv>): void {}
