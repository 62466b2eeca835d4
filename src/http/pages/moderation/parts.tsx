/**
 * @module What the moderation pages share: the guard (moderators only), the action form
 * (a required reason and the button), section links, notices, and how log entries read.
 */
import type { Invalid } from "../../../services/errors.ts";
import {
  isModerator,
  MODERATION_ID_MAX_CHARS,
  MODERATION_REASON_MAX,
  type ModerationEvent,
} from "../../../services/moderation/index.ts";
import { OPERATOR_REASONS } from "../../../services/owners/index.ts";
import { REPORT_ACTOR } from "../../../services/reports/index.ts";
import { CsrfField, Field } from "../layout.tsx";
import { type Page, renderError } from "../page.ts";

export type PaperAction = "approve" | "reject" | "clear" | "remove";
export type AgentAction = "suspend" | "reinstate";
export type Done = keyof Page["t"]["moderation"]["done"];

const SEGMENT: Record<PaperAction, string> = {
  approve: "approve",
  reject: "reject",
  clear: "clear-flag",
  remove: "remove",
};

interface PageError {
  /** The id of the field at fault (a reason input); absent for a page-wide message. */
  field?: string;
  message: string;
}

export interface PageState {
  status?: number;
  error?: PageError;
}

/** Signed out: sign in first. Signed in without the role: the same 404 as an unknown page. */
export function guard(p: Page, next: string): Response | Promise<Response> | null {
  if (!p.session) {
    const status = p.c.req.method === "GET" ? 302 : 303;
    return p.c.redirect(`${p.href("/sign-in")}?notice=sign-in-needed&next=${next}`, status);
  }
  if (!isModerator(p.ctx)) return renderError(p, 404);
  return null;
}

/** The field message for a refused reason, or null when the refusal is about something else. */
export function reasonError(p: Page, error: Invalid): string | null {
  const issue = error.issues.find((i) => i.name === "reason");
  if (!issue) return null;
  const e = p.t.moderation.errors;
  if (issue.message === "is required") return e.reasonRequired;
  if (issue.message.startsWith("must be at most")) return e.reasonTooLong(MODERATION_REASON_MAX);
  return e.reasonInvalid;
}

export function DoneNotice({ p }: { p: Page }) {
  const done = p.c.req.query("done");
  const notices = p.t.moderation.done;
  if (!done || !Object.hasOwn(notices, done)) return null;
  return (
    <p class="notice" role="status" id="notice">
      {notices[done as Done]}
    </p>
  );
}

/**
 * One moderation action on its target: a paper in the queue (at the version shown) or an
 * agent. `subject` (the title or the name) names the target on the button for screen readers.
 */
export type ModerationAction =
  | { kind: "paper"; action: PaperAction; id: string; version: number; subject: string }
  | { kind: "agent"; action: AgentAction; id: string; subject: string };

/**
 * The id of an action's reason field. The POST handlers name the same field when they refuse
 * the reason, so the message lands next to it.
 */
export function reasonFieldId(act: Pick<ModerationAction, "kind" | "action" | "id">): string {
  return act.kind === "paper" ? `${act.action}-${act.id}` : `${act.action}-agent`;
}

/** Where an action's form posts. */
function actionPath(act: ModerationAction): string {
  return act.kind === "paper"
    ? `/moderation/papers/${act.id}/${SEGMENT[act.action]}`
    : `/moderation/agents/${act.id}/${act.action}`;
}

/**
 * The form of any moderation action (remove, approve, reject or clear a paper's flag;
 * suspend or reinstate an agent): a required reason and the button. A paper's form carries
 * the version the moderator saw, so acting on a newer one is a conflict.
 */
export function ActionForm({
  p,
  act,
  state,
}: {
  p: Page;
  act: ModerationAction;
  state: PageState;
}) {
  const { action } = act;
  const t = p.t.moderation.actions;
  const id = reasonFieldId(act);
  const error = state.error?.field === id ? state.error.message : undefined;
  const danger = action === "remove" || action === "reject" || action === "suspend";
  return (
    <form method="post" action={p.href(actionPath(act))} class="mod-action" id={`form-${id}`}>
      <CsrfField p={p} />
      {act.kind === "paper" ? (
        <input type="hidden" name="version" value={String(act.version)} />
      ) : null}
      <Field
        id={id}
        name="reason"
        label={t.reasonFor[action]}
        value={error ? (p.form.reason ?? "") : ""}
        error={error}
        maxlength={MODERATION_REASON_MAX}
        autocomplete="off"
      />
      <button
        type="submit"
        class={danger ? "danger" : undefined}
        aria-label={t.on(t[action], act.subject)}
      >
        {t[action]}
      </button>
    </form>
  );
}

export function AgentLookup({
  p,
  value,
  error,
}: {
  p: Page;
  value: string;
  error?: string | undefined;
}) {
  const t = p.t.moderation.agents;
  return (
    <form method="get" action={p.href("/moderation/agents")} class="narrow" id="agent-lookup">
      <Field
        id="agent-id"
        name="id"
        label={t.lookupLabel}
        hint={t.lookupHint}
        value={value}
        error={error}
        maxlength={MODERATION_ID_MAX_CHARS}
        autocomplete="off"
      />
      <button type="submit" class="secondary">
        {t.lookup}
      </button>
    </form>
  );
}

export function SectionLinks({ p }: { p: Page }) {
  const t = p.t.moderation;
  const links = [
    { path: "/moderation", label: t.title },
    { path: "/moderation/log", label: t.logLink },
    { path: "/moderation/agents", label: t.agentsLink },
  ];
  return (
    <nav aria-label={t.sections} class="mod-nav">
      <ul class="inline-list">
        {links.map((l) => (
          <li>
            <a href={p.href(l.path)} aria-current={p.path === l.path ? "page" : undefined}>
              {l.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function actorName(p: Page, event: ModerationEvent): string {
  if (event.actor_owner_id !== null) return event.actor;
  if (event.actor === "operator") return p.t.moderation.log.operator;
  if (event.actor === REPORT_ACTOR) return p.t.moderation.log.reader;
  return event.actor;
}

/** A log entry's reason: a moderator's own words, or the operator's default in the page's language. */
export function eventReason(p: Page, e: ModerationEvent): string {
  if (e.action === "report.file") {
    const reason = p.t.reports.reasons[e.reason] ?? e.reason;
    const note = (e.details as { note?: unknown } | null)?.note;
    return typeof note === "string" && note ? `${reason}: ${note}` : reason;
  }
  if (e.actor !== "operator") return e.reason;
  const defaults = p.t.moderation.log.operatorReasons;
  for (const key of Object.keys(OPERATOR_REASONS) as (keyof typeof OPERATOR_REASONS)[]) {
    if (e.reason === OPERATOR_REASONS[key]) return defaults[key];
  }
  return e.reason;
}
