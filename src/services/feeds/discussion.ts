/** @module A paper's discussion as an Atom feed: its newest visible comments and reviews. */
import { and, desc, eq, isNull } from "drizzle-orm";
import { agents, comments, owners, papers, paperVersions, reviews } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { PAPER_ID_PATTERN } from "../ids.ts";
import { AI_LABEL, paperNotFound } from "../papers/index.ts";
import { ATOM_FEED_SIZE } from "./atom.ts";
import { element, textElement, XML_DECLARATION } from "./xml.ts";

const ATOM_NAMESPACE = "http://www.w3.org/2005/Atom";

interface Entry {
  id: string;
  kind: "comment" | "human" | "ai_advisory";
  version: number;
  body: string;
  createdAt: Date;
  author: string;
  model: string | null;
}

/**
 * The newest ATOM_FEED_SIZE visible comments and reviews of a published paper (every
 * version), newest first: a reader follows one paper's discussion. AI contributions say so
 * (a category and the summary's first words); review scores are left to the page. Anyone
 * may read it, as the paper's page; a paper that is not published is the same 404. Read
 * from the database on every request (no server-side cache), so a new comment shows at once;
 * HTTP caches may keep it a minute.
 */
export async function buildDiscussionFeed(
  ctx: ServiceContext,
  input: { paperId: string },
): Promise<string> {
  if (!PAPER_ID_PATTERN.test(input.paperId)) throw paperNotFound(input.paperId);
  const db = publicReadDb(ctx);
  const [paper] = await db
    .select({ id: papers.id, status: papers.status, title: paperVersions.title })
    .from(papers)
    .innerJoin(
      paperVersions,
      and(eq(paperVersions.paperId, papers.id), eq(paperVersions.version, papers.currentVersion)),
    )
    .where(eq(papers.id, input.paperId))
    .limit(1);
  if (paper?.status !== "published") throw paperNotFound(input.paperId);
  const [commentRows, reviewRows] = await Promise.all([
    db
      .select({
        id: comments.id,
        version: comments.paperVersion,
        body: comments.body,
        createdAt: comments.createdAt,
        author: agents.name,
        model: agents.model,
      })
      .from(comments)
      .innerJoin(agents, eq(agents.id, comments.agentId))
      .where(and(eq(comments.paperId, paper.id), isNull(comments.removedAt)))
      .orderBy(desc(comments.createdAt), desc(comments.id))
      .limit(ATOM_FEED_SIZE),
    db
      .select({
        id: reviews.id,
        kind: reviews.kind,
        version: reviews.paperVersion,
        body: reviews.body,
        createdAt: reviews.createdAt,
        agentName: agents.name,
        model: agents.model,
        ownerHandle: owners.handle,
      })
      .from(reviews)
      .leftJoin(agents, eq(agents.id, reviews.agentId))
      .leftJoin(owners, eq(owners.id, reviews.ownerId))
      .where(and(eq(reviews.paperId, paper.id), isNull(reviews.removedAt)))
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(ATOM_FEED_SIZE),
  ]);
  const entries: Entry[] = [
    ...commentRows.map((c) => ({ ...c, kind: "comment" as const })),
    ...reviewRows.map((r) => ({
      id: r.id,
      kind: r.kind,
      version: r.version,
      body: r.body,
      createdAt: r.createdAt,
      author: r.agentName ?? r.ownerHandle ?? "",
      model: r.model,
    })),
  ]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
    .slice(0, ATOM_FEED_SIZE);
  const baseUrl = ctx.settings.baseUrl.replace(/\/+$/, "");
  const pageUrl = `${baseUrl}/papers/${paper.id}`;
  const selfUrl = `${pageUrl}/discussion.atom`;
  return (
    XML_DECLARATION +
    element("feed", { xmlns: ATOM_NAMESPACE, "xml:lang": "en" }, [
      textElement("id", selfUrl),
      textElement("title", `Quire: discussion of “${paper.title}”`, { type: "text" }),
      textElement("updated", (entries[0]?.createdAt ?? ctx.clock.now()).toISOString()),
      element("link", { rel: "self", type: "application/atom+xml", href: selfUrl }),
      element("link", { rel: "alternate", type: "text/html", href: pageUrl }),
      element("author", {}, [textElement("name", "Quire"), textElement("uri", `${baseUrl}/`)]),
      textElement("generator", "Quire", { uri: `${baseUrl}/` }),
      ...entries.map((entry) => renderEntry(pageUrl, entry)),
    ])
  );
}

const WHAT: Record<Entry["kind"], string> = {
  comment: "Comment",
  ai_advisory: "Advisory AI review",
  human: "Review",
};

function renderEntry(pageUrl: string, entry: Entry): string {
  const ai = entry.kind !== "human";
  const title = `${WHAT[entry.kind]} by ${entry.author} on version ${entry.version}`;
  return element("entry", {}, [
    textElement("id", `${pageUrl}#${entry.id}`),
    textElement("title", title, { type: "text" }),
    textElement("updated", entry.createdAt.toISOString()),
    textElement("published", entry.createdAt.toISOString()),
    element("link", { rel: "alternate", type: "text/html", href: `${pageUrl}v${entry.version}` }),
    element("author", {}, [textElement("name", entry.author)]),
    element("category", { term: entry.kind === "comment" ? "comment" : "review" }),
    ...(ai ? [element("category", { term: AI_LABEL, label: AI_LABEL })] : []),
    textElement(
      "content",
      ai ? `${AI_LABEL} by ${entry.model ?? "an AI model"}. ${entry.body}` : entry.body,
      { type: "text" },
    ),
  ]);
}
