/** @module Liveness and readiness probes: /healthz and /readyz (not in the API document). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { checkReadiness } from "../../services/health/index.ts";
import type { AppEnv } from "../env.ts";
import type { Lifecycle } from "../lifecycle.ts";

const NO_STORE = { "cache-control": "no-store" };

/**
 * `/healthz` says the process runs its event loop and nothing more: no I/O, so a slow
 * database never gets a live process restarted. `/readyz` says whether to send it traffic:
 * 200 when ready (or degraded), 503 with every check when not, including while start-up work
 * after listen runs ("starting") and while it drains at shutdown. Neither draws on a rate limit (see middleware/rate-limit.ts).
 */
export function registerHealth(app: OpenAPIHono<AppEnv>, deps: { lifecycle: Lifecycle }): void {
  app.get("/healthz", (c) => c.json({ status: "ok" }, 200, NO_STORE));
  app.get("/readyz", async (c) => {
    const report = await checkReadiness(c.get("ctx"), {
      draining: () => deps.lifecycle.draining,
      startup: () => deps.lifecycle.startup,
    });
    const unready = report.status === "not_ready" || report.status === "starting";
    return c.json(report, unready ? 503 : 200, NO_STORE);
  });
}
