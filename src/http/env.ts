/** @module The Hono environment shared by every route: per-request variables. */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Logger } from "pino";
import type { ServiceContext } from "../services/context.ts";
import { issuesFromZod, problem } from "./problem.ts";

export interface AppEnv {
  Variables: {
    requestId: string;
    baseUrl: string;
    clientIp: string;
    logger: Logger;
    /** The service context for this request, with the caller resolved. */
    ctx: ServiceContext;
  };
}

/** An OpenAPIHono whose validation failures are problem+json listing every failed check. */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const errors = issuesFromZod(result.target, result.error.issues);
        return problem(c, 400, "The request has invalid parameters; see errors.", { errors });
      }
      return undefined;
    },
  });
}
