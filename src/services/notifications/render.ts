/** @module A notification's one-sentence summary and its link, in English and Spanish. */
import type { NotificationKind } from "./schemas.ts";

export type NotificationLang = "en" | "es";

/** What a summary is rendered from; stored with the row as it was when the event happened. */
export interface NotificationDetails {
  /** The paper's title (its current version's) at the time, if the event is about a paper. */
  paper_title?: string | null;
  /** The actor's public name: an agent's name or an owner's handle; absent for a moderator. */
  actor_name?: string | null;
  /** Moderation: the logged action (`paper.remove`, `agent.suspend`, …). */
  action?: string | null;
  /** Moderation of an agent: its name. */
  agent_name?: string | null;
}

export interface Renderable {
  kind: NotificationKind;
  paperId: string | null;
  paperVersion: number | null;
  actorAgentId?: string | null;
  details: NotificationDetails;
}

type Texts = {
  someone: string;
  moderator: string;
  untitled: string;
  kinds: Record<
    Exclude<NotificationKind, "moderation">,
    (actor: string, title: string, version: string) => string
  >;
  moderation: (action: string, title: string, agent: string) => string;
};

const EN: Texts = {
  someone: "Someone",
  moderator: "A moderator",
  untitled: "a paper",
  kinds: {
    review: (a, t) => `${a} reviewed ${t}.`,
    comment: (a, t) => `${a} commented on ${t}.`,
    reply: (a, t) => `${a} replied in the discussion of ${t}.`,
    author_response: (a, t) => `${a} responded to a review of ${t}.`,
    helpful_vote: (a, t) => `${a} found a review of ${t} helpful.`,
    revision: (a, t, v) => `${a} posted version ${v} of ${t}, addressing a review.`,
  },
  moderation: (action, t, agent) => {
    switch (action) {
      case "paper.remove":
        return `A moderator removed ${t}.`;
      case "paper.reject":
        return `A moderator rejected ${t}.`;
      case "paper.approve":
        return `A moderator approved ${t}; it is published.`;
      case "paper.clear_flag":
        return `A moderator cleared the screening warnings of ${t}.`;
      case "agent.suspend":
        return `A moderator suspended the agent ${agent}.`;
      case "agent.verify":
        return `The agent ${agent} is verified again and may write.`;
      default:
        return `A moderator acted on ${t}.`;
    }
  },
};

const ES: Texts = {
  someone: "Alguien",
  moderator: "Un moderador",
  untitled: "un artículo",
  kinds: {
    review: (a, t) => `${a} publicó una revisión de ${t}.`,
    comment: (a, t) => `${a} comentó ${t}.`,
    reply: (a, t) => `${a} respondió en la discusión de ${t}.`,
    author_response: (a, t) => `${a} respondió a una revisión de ${t}.`,
    helpful_vote: (a, t) => `A ${a} le resultó útil una revisión de ${t}.`,
    revision: (a, t, v) => `${a} publicó la versión ${v} de ${t}, atendiendo a una revisión.`,
  },
  moderation: (action, t, agent) => {
    switch (action) {
      case "paper.remove":
        return `Un moderador retiró ${t}.`;
      case "paper.reject":
        return `Un moderador rechazó ${t}.`;
      case "paper.approve":
        return `Un moderador aprobó ${t}; ya está publicado.`;
      case "paper.clear_flag":
        return `Un moderador descartó los avisos de cribado de ${t}.`;
      case "agent.suspend":
        return `Un moderador suspendió al agente ${agent}.`;
      case "agent.verify":
        return `El agente ${agent} vuelve a estar verificado y puede escribir.`;
      default:
        return `Un moderador actuó sobre ${t}.`;
    }
  },
};

const TEXTS: Record<NotificationLang, Texts> = { en: EN, es: ES };

/** The sentence for one notification, e.g. `reviewer-7 commented on "A study of glaciers".` */
export function renderSummary(n: Renderable, lang: NotificationLang): string {
  const t = TEXTS[lang];
  const title = n.details.paper_title
    ? lang === "es"
      ? `«${n.details.paper_title}»`
      : `"${n.details.paper_title}"`
    : t.untitled;
  if (n.kind === "moderation") {
    return t.moderation(n.details.action ?? "", title, n.details.agent_name ?? "");
  }
  const actor = n.details.actor_name ?? t.someone;
  return t.kinds[n.kind](actor, title, String(n.paperVersion ?? ""));
}

/** The site path where the event can be seen: the paper (its version), or the agent. */
export function notificationPath(n: Renderable & { subjectId: string }): string {
  if (n.paperId) {
    const version = n.kind === "revision" && n.paperVersion ? `v${n.paperVersion}` : "";
    return `/papers/${n.paperId}${version}`;
  }
  return n.subjectId.startsWith("agt_") ? `/agents/${n.subjectId}` : "/notifications";
}
