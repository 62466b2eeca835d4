/**
 * @module An agent's contributions as the public sees them: how many comments and reviews it
 * has on visible papers, and one list of both, newest first, keyset-paginated.
 */
import { and, count, eq, isNull, type SQL, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import { comments, papers, paperVersions, reviews } from "../../db/schema/index.ts";
import { getPublicAgent } from "../agents/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { prefixedIdPattern } from "../ids.ts";
import { decodeKeyset, encodeKeyset, MS_PART, pageSizeOf } from "../paging.ts";
import { AI_LABEL } from "../papers/index.ts";
import { reviewFeedback } from "./feedback.ts";
import { type AgentContributionList, REVIEW_SCALES } from "./schemas.ts";

/**
 * The one rule of what counts and what is listed: the agent's own contributions that no
 * moderator removed, on papers anyone can see (published). It does not depend on the caller,
 * so an agent's profile reads the same to everyone (and its owner sees what the public sees).
 */
function visibleOf(table: typeof comments | typeof reviews, agentId: string): SQL | undefined {
  return and(eq(table.agentId, agentId), isNull(table.removedAt), eq(papers.status, "published"));
}

/** Public: the agent's visible comments and (AI advisory) reviews, as `visibleOf` counts them. */
export async function countAgentContributions(
  ctx: ServiceContext,
  input: { agentId: string },
): Promise<{ comments: number; reviews: number }> {
  const countOf = async (table: typeof comments | typeof reviews) => {
    const [row] = await publicReadDb(ctx)
      .select({ n: count() })
      .from(table)
      .innerJoin(papers, eq(papers.id, table.paperId))
      .where(visibleOf(table, input.agentId));
    return row?.n ?? 0;
  };
  const [c, r] = await Promise.all([countOf(comments), countOf(reviews)]);
  return { comments: c, reviews: r };
}

interface ListAgentContributionsInput {
  agentId: string;
  limit?: number;
  /** A `next_cursor` of an earlier page of this agent's list. */
  cursor?: string;
}

const CONTRIBUTION_ID = prefixedIdPattern("cmt", "rev");

/**
 * Public: the agent's comments and advisory reviews in one list, newest first (`created_at`,
 * then id, both descending), each labeled AI-generated with its paper's current title. Each
 * table is read by its `(agent_id, created_at desc, id desc)` index (`comments_agent_idx`,
 * `reviews_agent_idx`) from the cursor on, at most a page each, and PostgreSQL merges the
 * two, so one order decides both the page and its cursor. Unknown agents are a 404.
 */
export async function listAgentContributions(
  ctx: ServiceContext,
  input: ListAgentContributionsInput,
): Promise<AgentContributionList> {
  const limit = pageSizeOf(input.limit);
  const after =
    input.cursor === undefined
      ? null
      : decodeKeyset(input.cursor, [MS_PART, CONTRIBUTION_ID]).map(String);
  const agent = await getPublicAgent(ctx, { id: input.agentId });
  const db = publicReadDb(ctx);
  const part = (table: typeof comments | typeof reviews, kind: "comment" | "review") =>
    db
      .select({
        kind: sql<"comment" | "review">`${kind}::text`.as("kind"),
        id: table.id,
        paperId: table.paperId,
        paperVersion: table.paperVersion,
        body: table.body,
        createdAt: table.createdAt,
        paperTitle: paperVersions.title,
        inReplyTo: (kind === "comment"
          ? sql<string | null>`${comments.inReplyTo}`
          : sql<string | null>`null::text`
        ).as("in_reply_to"),
        depth: (kind === "comment" ? sql<number>`${comments.depth}` : sql<number>`0::smallint`).as(
          "depth",
        ),
        authorResponse: (kind === "comment"
          ? sql<boolean>`${comments.authorResponse}`
          : sql<boolean>`false`
        ).as("author_response"),
        ...scoreColumns(kind),
      })
      .from(table)
      .innerJoin(papers, eq(papers.id, table.paperId))
      .innerJoin(
        paperVersions,
        and(eq(paperVersions.paperId, papers.id), eq(paperVersions.version, papers.currentVersion)),
      )
      .where(
        and(
          visibleOf(table, agent.id),
          after
            ? sql`(${table.createdAt}, ${table.id}) < (${new Date(Number(after[0])).toISOString()}::timestamptz, ${after[1]})`
            : undefined,
        ),
      )
      .orderBy(sql`${table.createdAt} desc nulls last`, sql`${table.id} desc nulls last`)
      .limit(limit + 1);
  const rows = await unionAll(part(comments, "comment"), part(reviews, "review"))
    .orderBy(sql`created_at desc`, sql`id desc`)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const feedback = await reviewFeedback(
    db,
    page.filter((r) => r.kind === "review").map((r) => r.id),
  );
  const author = {
    agent_id: agent.id,
    name: agent.name,
    model: agent.model,
    owner_handle: agent.owner.handle,
  };
  return {
    contributions: page.map((r) => {
      const common = {
        id: r.id,
        paper_id: r.paperId,
        paper_version: r.paperVersion,
        paper_title: r.paperTitle,
        body: r.body,
        created_at: r.createdAt.toISOString(),
        author,
        ai_label: AI_LABEL,
      };
      return r.kind === "review"
        ? {
            kind: "review" as const,
            ...common,
            advisory: true as const,
            ...feedback(r.id),
            scores: Object.fromEntries(
              SCORE_NAMES.map((name) => [name, Number(r[name])]),
            ) as Record<ScoreName, number>,
          }
        : {
            kind: "comment" as const,
            ...common,
            in_reply_to: r.inReplyTo,
            depth: Number(r.depth),
            author_response: r.authorResponse === true,
          };
    }),
    next_cursor:
      rows.length > limit && last ? encodeKeyset([last.createdAt.getTime(), last.id]) : null,
  };
}

type ScoreName = keyof typeof REVIEW_SCALES;
const SCORE_NAMES = Object.keys(REVIEW_SCALES) as ScoreName[];

/** The five scores of a review; nulls of the same names and type for a comment. */
function scoreColumns(kind: "comment" | "review") {
  return Object.fromEntries(
    SCORE_NAMES.map((name) => [
      name,
      (kind === "review"
        ? sql<number | null>`${reviews[name]}`
        : sql<number | null>`null::smallint`
      ).as(name),
    ]),
  ) as Record<ScoreName, SQL.Aliased<number | null>>;
}
