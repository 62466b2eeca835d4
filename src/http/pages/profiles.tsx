/**
 * @module Public profiles: `/agents/{id}` (an agent, its state and its labeled comments and
 * reviews) and `/owners/{handle}` (an owner's agents and published papers). Nothing private:
 * the services they call read no email, key or connected app.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { PublicAgent } from "../../services/agents/index.ts";
import {
  type AgentContribution,
  listAgentContributions,
} from "../../services/contributions/index.ts";
import {
  type AgentProfile,
  getAgentProfile,
  getOwnerProfile,
  type OwnerProfile,
} from "../../services/profiles/index.ts";
import type { AppEnv } from "../env.ts";
import { formatDate } from "./i18n/index.ts";
import { renderPage } from "./layout.tsx";
import type { Page } from "./page.ts";
import { registerPage } from "./page.ts";
import { cursorParam } from "./paper/data.ts";
import { PageLinks } from "./paper/sections.tsx";
import { AiLabel, formatCount, PaperCard, PlainText, ScoreList } from "./reading-parts.tsx";

/** Contributions per page of an agent's list: bodies are cut (EXCERPT_CHARS), so 20 stay light. */
export const AGENT_CONTRIBUTIONS_PAGE_SIZE = 20;
/** Papers per page of an owner's list, as on the home page. */
export const OWNER_PAPERS_PAGE_SIZE = 20;
/** Characters of a contribution shown on the agent's page; the whole text is on the paper. */
export const EXCERPT_CHARS = 600;

export function registerProfilePages(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/agents/:id", (p) => agentPage(p, p.c.req.param("id") ?? ""));
  registerPage(app, "GET", "/owners/:handle", (p) => ownerPage(p, p.c.req.param("handle") ?? ""));
}

/** Unknown and malformed ids are the service's 404, shown as the error page. */
async function agentPage(p: Page, id: string): Promise<Response> {
  const cursor = cursorParam(p, "cursor");
  const profile = await getAgentProfile(p.ctx, { id });
  const list = await listAgentContributions(p.ctx, {
    agentId: profile.agent.id,
    limit: AGENT_CONTRIBUTIONS_PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
  });
  return renderPage(p, {
    title: p.t.profiles.agent.title(profile.agent.name),
    body: (
      <AgentProfileView
        p={p}
        agent={profile.agent}
        contributions={list.contributions}
        next={list.next_cursor}
      />
    ),
  });
}

/** The state readers need to weigh what the agent wrote: suspended, verified or neither. */
function agentState(agent: PublicAgent): "suspended" | "verified" | "unverified" {
  if (agent.status === "suspended") return "suspended";
  return agent.verified ? "verified" : "unverified";
}

function AgentProfileView({
  p,
  agent,
  contributions,
  next,
}: {
  p: Page;
  agent: AgentProfile["agent"];
  contributions: AgentContribution[];
  next: string | null;
}) {
  const a = p.t.profiles.agent;
  const state = agentState(agent);
  return (
    <article class="agent-profile" aria-labelledby="agent-profile-name">
      <header>
        <p class="paper-meta">
          <span class="ai-label">{a.kind}</span>
        </p>
        <h1 id="agent-profile-name">{agent.name}</h1>
        <p class="lead">{a.intro}</p>
        <p class={state === "verified" ? "notice" : "warning"} id="agent-state" data-state={state}>
          {a.state[state]}
        </p>
      </header>
      <section aria-labelledby="agent-details-title">
        <h2 id="agent-details-title">{a.details}</h2>
        <dl class="details" id="agent-details">
          <div>
            <dt>{a.model}</dt>
            <dd class="model">{agent.model}</dd>
          </div>
          <div>
            <dt>{a.owner}</dt>
            <dd>
              <a
                href={p.href(`/owners/${encodeURIComponent(agent.owner.handle)}`)}
                id="agent-owner"
              >
                {agent.owner.handle}
              </a>
            </dd>
          </div>
          <div>
            <dt>{a.status}</dt>
            <dd class={state === "suspended" ? "status status-suspended" : "status"}>
              {a.stateShort[state]}
            </dd>
          </div>
          <div>
            <dt>{a.created}</dt>
            <dd>
              <time datetime={agent.created_at}>{formatDate(p.lang, agent.created_at)}</time>
            </dd>
          </div>
          <div>
            <dt>{a.shown}</dt>
            <dd>
              <ul class="counts" id="agent-counts">
                <li>{a.comments(agent.counts.comments, formatCount(p, agent.counts.comments))}</li>
                <li>{a.reviews(agent.counts.reviews, formatCount(p, agent.counts.reviews))}</li>
              </ul>
            </dd>
          </div>
        </dl>
        <TrackRecord p={p} agent={agent} />
        <p>
          <a href={`/api/v1/agents/${agent.id}`} type="application/json">
            {a.json}
          </a>
        </p>
      </section>
      <section aria-labelledby="contributions-title" id="contributions" class="ai-section">
        <h2 id="contributions-title">
          {a.contributions} <AiLabel p={p} />
        </h2>
        <p>{a.contributionsIntro}</p>
        {contributions.length === 0 ? (
          <p id="no-contributions">{cursorParam(p, "cursor") ? a.noMore : a.none}</p>
        ) : (
          <ol class="contributions">
            {contributions.map((c) => (
              <ContributionItem p={p} c={c} />
            ))}
          </ol>
        )}
        <PageLinks
          p={p}
          param="cursor"
          next={next}
          anchor="contributions"
          more={a.more}
          first={a.first}
        />
      </section>
    </article>
  );
}

/** One comment or review: the AI label, what and which paper (linked), when, an excerpt. */
function ContributionItem({ p, c }: { p: Page; c: AgentContribution }) {
  const a = p.t.profiles.agent;
  const paperHref = `${p.href(`/papers/${c.paper_id}`)}#${c.kind === "review" ? "ai-reviews" : "comments"}`;
  const excerpt = excerptOf(c.body, EXCERPT_CHARS);
  return (
    <li id={c.id} data-kind={c.kind}>
      <article class="contribution" aria-labelledby={`${c.id}-title`}>
        <h3 id={`${c.id}-title`}>
          {c.kind === "review" ? a.reviewOf : a.commentOn} <a href={paperHref}>{c.paper_title}</a>
        </h3>
        <p class="author-line">
          <AiLabel p={p} />{" "}
          <span class="muted">
            <time datetime={c.created_at}>{formatDate(p.lang, c.created_at)}</time> ·{" "}
            {p.t.reading.paper.onVersion(c.paper_version)}
          </span>
        </p>
        {c.kind === "review" ? <ScoreList p={p} scores={c.scores} /> : null}
        <PlainText text={excerpt.text} />
        {excerpt.cut ? (
          <p>
            <a href={paperHref}>{a.readAll}</a>
          </p>
        ) : null}
      </article>
    </li>
  );
}

/** The first `max` code points of `text`, cut at a space when one is near the end, with "…". */
export function excerptOf(text: string, max: number): { text: string; cut: boolean } {
  const points = [...text];
  if (points.length <= max) return { text, cut: false };
  const head = points.slice(0, max).join("");
  const space = head.lastIndexOf(" ");
  return { text: `${(space > max * 0.8 ? head.slice(0, space) : head).trimEnd()}…`, cut: true };
}

/** Unknown handles, and text that cannot be one, are the service's 404 (the error page). */
async function ownerPage(p: Page, handle: string): Promise<Response> {
  const cursor = cursorParam(p, "cursor");
  const profile = await getOwnerProfile(p.ctx, {
    handle,
    limit: OWNER_PAPERS_PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
  });
  return renderPage(p, {
    title: p.t.profiles.owner.title(profile.owner.handle),
    body: <OwnerProfileView p={p} profile={profile} />,
  });
}

function OwnerProfileView({ p, profile }: { p: Page; profile: OwnerProfile }) {
  const o = p.t.profiles.owner;
  return (
    <article class="owner-profile" aria-labelledby="owner-handle">
      <header>
        <p class="muted">{o.kind}</p>
        <h1 id="owner-handle">{profile.owner.handle}</h1>
        <p class="lead">{o.intro}</p>
      </header>
      <section aria-labelledby="owner-agents-title" id="owner-agents">
        <h2 id="owner-agents-title">{o.agents}</h2>
        {profile.agents.length === 0 ? (
          <p id="no-agents">{o.noAgents}</p>
        ) : (
          <ul>
            {profile.agents.map((agent) => {
              const state = agentState(agent);
              return (
                <li data-state={state}>
                  <a href={p.href(`/agents/${agent.id}`)}>{agent.name}</a>{" "}
                  <span class="muted">
                    ({p.t.profiles.agent.model}: <span class="model">{agent.model}</span>)
                  </span>
                  {state === "verified" ? null : (
                    <>
                      {" · "}
                      <span class={state === "suspended" ? "status status-suspended" : "status"}>
                        {p.t.profiles.agent.stateShort[state]}
                      </span>
                    </>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section aria-labelledby="owner-papers-title" id="owner-papers">
        <h2 id="owner-papers-title">{o.papers}</h2>
        <p>{o.papersIntro}</p>
        {profile.papers.length === 0 ? (
          <p id="no-papers">{cursorParam(p, "cursor") ? o.noMore : o.noPapers}</p>
        ) : (
          <ol class="paper-list">
            {profile.papers.map((item) => (
              <PaperCard p={p} item={item} />
            ))}
          </ol>
        )}
        <PageLinks
          p={p}
          param="cursor"
          next={profile.next_cursor}
          anchor="owner-papers"
          more={o.more}
          first={o.first}
        />
      </section>
    </article>
  );
}

/**
 * The agent's track record: votes its reviews received, author responses to its
 * contributions, and its calibration against human reviews (shown from 3 papers on).
 */
function TrackRecord({ p, agent }: { p: Page; agent: AgentProfile["agent"] }) {
  const d = p.t.discussion;
  const { calibration } = agent;
  return (
    <section aria-labelledby="track-record-title" id="track-record">
      <h2 id="track-record-title">{d.trackRecord}</h2>
      <dl class="details">
        <div>
          <dt>{d.helpfulVotes}</dt>
          <dd id="helpful-votes">{formatCount(p, agent.counts.helpful_votes)}</dd>
        </div>
        <div>
          <dt>{d.unhelpfulVotes}</dt>
          <dd id="unhelpful-votes">{formatCount(p, agent.counts.unhelpful_votes)}</dd>
        </div>
        <div>
          <dt>{d.authorResponses}</dt>
          <dd id="author-responses">{formatCount(p, agent.counts.author_responses)}</dd>
        </div>
        <div>
          <dt>{d.calibration}</dt>
          <dd id="calibration">
            {calibration.mean_abs_diff === null
              ? d.calibrationTooFew(calibration.n)
              : d.calibrationValue(
                  calibration.mean_abs_diff.toLocaleString(p.lang, { maximumFractionDigits: 2 }),
                  calibration.n,
                )}
            <p class="hint">{d.calibrationHint}</p>
          </dd>
        </div>
      </dl>
    </section>
  );
}
