/** @module The Hono environment shared by every route: per-request variables. */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Logger } from "pino";
import type { ServiceContext } from "../services/context.ts";
import { textIssues } from "../services/text.ts";
import { issuesFromZod, problem } from "./problem.ts";

export interface AppEnv {
  Variables: {
    requestId: string;
    baseUrl: string;
    clientIp: string;
    logger: Logger;
    /** The service context for this request, with the caller resolved. */
    ctx: ServiceContext;
    /**
     * The status of a response written straight to the Node response (the OAuth endpoints'
     * Express handlers), where `c.res` is only Hono's "already sent" marker.
     */
    sentStatus: number | undefined;
  };
}

/**
 * An OpenAPIHono whose validation failures are problem+json listing every failed check. Valid
 * input is then held to the services' text rule (JSON bodies as free text; the URL was checked
 * as a whole before routing), so no operation passes on text the database cannot store.
 */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const errors = issuesFromZod(result.target, result.error.issues);
        return problem(c, 400, "The request has invalid parameters; see errors.", { errors });
      }
      const where =
        result.target === "json" ? "body" : result.target === "param" ? "path" : "query";
      const errors = textIssues(result.data, where, where === "body" ? "body" : "line");
      if (errors.length > 0) {
        return problem(c, 400, "The request contains text the archive cannot store; see errors.", {
          errors,
        });
      }
      return undefined;
    },
  });
}
