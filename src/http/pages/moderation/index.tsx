/**
 * @module /moderation (the queue of held and flagged papers and readers' reports), /moderation/log and
 * /moderation/agents, for owners with the moderator role. Everyone else gets a 404 (the
 * pages' existence is not advertised); signed-out visitors are sent to sign in.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ServiceContext } from "../../../services/context.ts";
import { Conflict, Invalid } from "../../../services/errors.ts";
import type { PaperActionInput } from "../../../services/moderation/index.ts";
import {
  approvePaper,
  clearPaperFlag,
  getModeratedAgent,
  reinstateAgent,
  rejectPaper,
  removePaper,
  suspendAgent,
} from "../../../services/moderation/index.ts";
import { resolveReport } from "../../../services/reports/index.ts";
import type { AppEnv } from "../../env.ts";
import { registerPage, renderError } from "../page.ts";
import { agentPage } from "./agents.tsx";
import { logPage } from "./log.tsx";
import { type Done, guard, type PaperAction, reasonError, reasonFieldId } from "./parts.tsx";
import { queuePage } from "./queue.tsx";
import { resolveFieldIds } from "./reports.tsx";
import { registerSubjectModeration } from "./subjects.tsx";

/** URL segment → action, the service verb that does it and the notice shown after. */
const PAPER_ACTIONS: Record<
  string,
  {
    action: PaperAction;
    run: (ctx: ServiceContext, input: PaperActionInput) => Promise<unknown>;
    done: Done;
  }
> = {
  approve: { action: "approve", run: approvePaper, done: "approved" },
  reject: { action: "reject", run: rejectPaper, done: "rejected" },
  "clear-flag": { action: "clear", run: clearPaperFlag, done: "cleared" },
  remove: { action: "remove", run: removePaper, done: "removed" },
};

function parseVersion(value: string | undefined): number | undefined | null {
  if (value === undefined || value === "") return undefined;
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : null;
}

export function registerModerationPages(app: OpenAPIHono<AppEnv>): void {
  registerSubjectModeration(app);
  registerPage(app, "GET", "/moderation", (p) => guard(p, "/moderation") ?? queuePage(p));

  registerPage(app, "POST", "/moderation/papers/:id/:action", async (p) => {
    const blocked = guard(p, "/moderation");
    if (blocked) return blocked;
    const entry = PAPER_ACTIONS[p.c.req.param("action") ?? ""];
    const version = parseVersion(p.form.version);
    if (!entry) return renderError(p, 404);
    if (version === null) return renderError(p, 400);
    const paperId = p.c.req.param("id") ?? "";
    try {
      await entry.run(p.ctx, { paperId, reason: p.form.reason ?? "", version });
    } catch (error) {
      if (error instanceof Invalid) {
        const message = reasonError(p, error);
        if (!message) return renderError(p, 400);
        return queuePage(p, {
          status: 400,
          error: {
            field: reasonFieldId({ kind: "paper", action: entry.action, id: paperId }),
            message,
          },
        });
      }
      if (error instanceof Conflict) {
        return queuePage(p, { status: 409, error: { message: p.t.moderation.errors.stale } });
      }
      throw error;
    }
    return p.c.redirect(`${p.href("/moderation")}?done=${entry.done}`, 303);
  });

  registerPage(app, "POST", "/moderation/reports/:id/resolve", async (p) => {
    const blocked = guard(p, "/moderation");
    if (blocked) return blocked;
    const reportId = p.c.req.param("id") ?? "";
    try {
      await resolveReport(p.ctx, {
        reportId,
        outcome: (p.form.outcome ?? "") as never,
        reason: p.form.reason ?? "",
      });
    } catch (error) {
      if (error instanceof Invalid) {
        const ids = resolveFieldIds(reportId);
        const error400 = error.issues.some((i) => i.name === "outcome")
          ? { field: ids.outcome, message: p.t.reports.queue.outcomeRequired }
          : (() => {
              const message = reasonError(p, error);
              return message ? { field: ids.reason, message } : null;
            })();
        if (!error400) return renderError(p, 400);
        return queuePage(p, { status: 400, error: error400 });
      }
      if (error instanceof Conflict) {
        return queuePage(p, { status: 409, error: { message: p.t.moderation.errors.stale } });
      }
      throw error;
    }
    return p.c.redirect(`${p.href("/moderation")}?done=resolved#reports`, 303);
  });

  registerPage(app, "GET", "/moderation/log", (p) => guard(p, "/moderation/log") ?? logPage(p));

  registerPage(
    app,
    "GET",
    "/moderation/agents",
    (p) => guard(p, "/moderation/agents") ?? agentPage(p, (p.c.req.query("id") ?? "").trim()),
  );

  registerPage(app, "POST", "/moderation/agents/:id/:action", async (p) => {
    const blocked = guard(p, "/moderation/agents");
    if (blocked) return blocked;
    const action = p.c.req.param("action");
    if (action !== "suspend" && action !== "reinstate") return renderError(p, 404);
    const agentId = p.c.req.param("id") ?? "";
    const run = action === "suspend" ? suspendAgent : reinstateAgent;
    try {
      await run(p.ctx, { agentId, reason: p.form.reason ?? "" });
    } catch (error) {
      if (error instanceof Invalid) {
        const message = reasonError(p, error);
        if (!message) return renderError(p, 400);
        const field = reasonFieldId({ kind: "agent", action, id: agentId });
        return agentPage(p, agentId, { status: 400, error: { field, message } });
      }
      if (error instanceof Conflict) {
        // Reinstating a still-suspended agent fails only when its owner is unverified.
        const now = await getModeratedAgent(p.ctx, { agentId });
        const e = p.t.moderation.errors;
        const message =
          action === "reinstate" && now.status === "suspended" ? e.ownerUnverified : e.stale;
        return agentPage(p, agentId, { status: 409, error: { message } });
      }
      throw error;
    }
    const done: Done = action === "suspend" ? "suspended" : "reinstated";
    return p.c.redirect(
      `${p.href("/moderation/agents")}?id=${encodeURIComponent(agentId)}&done=${done}`,
      303,
    );
  });
}
