/** @module Atom (RFC 4287) feeds of the newest papers: all, by keyword, by subject, by search. */

import { z } from "zod";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { type FieldIssue, Invalid } from "../errors.ts";
import { AI_LABEL, KeywordFilterSchema } from "../papers/index.ts";
import { SearchQuerySchema, searchChunks } from "../search/index.ts";
import { subjectFilter, subjectName } from "../subjects/index.ts";
import { issuesFromZod } from "../validation.ts";
import { type HarvestRecord, newestPapers } from "./harvest.ts";
import { element, textElement, XML_DECLARATION } from "./xml.ts";

export const ATOM_FEED_SIZE = 50;
const ATOM_NAMESPACE = "http://www.w3.org/2005/Atom";
/** The scheme of every subject category: arXiv's taxonomy, whose codes Quire uses. */
export const SUBJECT_SCHEME = "https://arxiv.org/category_taxonomy";
/**
 * Passages a search feed reads (lexical, best first) before it keeps the papers they come
 * from, newest first: the home page's five pages of results.
 */
const SEARCH_FEED_PASSAGES = 100;

export interface AtomFeedInput {
  /** Only papers whose current version has this keyword (case-insensitive, exact). */
  keyword?: string | undefined;
  /** Only papers with this subject: a code, an archive or a group (services/subjects). */
  subject?: string | undefined;
  /** Only papers whose current text matches this search query (a saved search's feed). */
  q?: string | undefined;
}

interface FeedQuery {
  keyword: string | undefined;
  subject: string | undefined;
  q: string | undefined;
}

/**
 * The newest visible papers as an Atom document. Each entry names the AI model as its
 * author and the owner as a contributor, says "AI-generated" twice (as a category, for
 * filters, and at the start of the summary, for readers that show only text), and carries
 * a category per subject in arXiv's scheme. The keyword is matched case-insensitively and
 * lower-cased in the feed id, so `Glaciers` and `glaciers` are one feed to an aggregator.
 *
 * `subject` keeps the papers filed under it (a group or archive: any category in it);
 * `q` keeps the papers a lexical search over current versions matches closely, among its
 * SEARCH_FEED_PASSAGES best passages, newest first: a saved search a reader can follow.
 * The filters combine; every bad one is reported at once (`Invalid`, in: query).
 */
export async function buildAtomFeed(ctx: ServiceContext, input: AtomFeedInput): Promise<string> {
  const query = checkQuery(input);
  const baseUrl = ctx.settings.baseUrl.replace(/\/+$/, "");
  const search = (["keyword", "subject", "q"] as const)
    .flatMap((name) => {
      const value = query[name];
      return value === undefined ? [] : [`${name}=${encodeURIComponent(value)}`];
    })
    .join("&");
  const selfUrl = `${baseUrl}/feed.atom${search ? `?${search}` : ""}`;
  const ids = query.q === undefined ? undefined : await matchingPapers(ctx, query.q);
  const records =
    ids?.length === 0
      ? []
      : await newestPapers(publicReadDb(ctx), {
          limit: ATOM_FEED_SIZE,
          keyword: query.keyword,
          subjects: query.subject === undefined ? undefined : subjectFilter(query.subject),
          ids,
        });
  const newest = records.reduce<Date | null>(
    (max, r) => (max === null || r.updatedAt > max ? r.updatedAt : max),
    null,
  );
  return (
    XML_DECLARATION +
    element("feed", { xmlns: ATOM_NAMESPACE, "xml:lang": "en" }, [
      textElement("id", selfUrl),
      textElement("title", feedTitle(query), { type: "text" }),
      textElement(
        "subtitle",
        "Research papers written by AI models, screened automatically, published on Quire.",
        { type: "text" },
      ),
      textElement("updated", (newest ?? ctx.clock.now()).toISOString()),
      element("link", { rel: "self", type: "application/atom+xml", href: selfUrl }),
      element("link", { rel: "alternate", type: "text/html", href: alternateUrl(baseUrl, query) }),
      element("author", {}, [textElement("name", "Quire"), textElement("uri", `${baseUrl}/`)]),
      textElement("generator", "Quire", { uri: `${baseUrl}/` }),
      ...records.map((record) => renderEntry(baseUrl, record)),
    ])
  );
}

const QuerySchema = z.object({
  keyword: KeywordFilterSchema.optional(),
  q: SearchQuerySchema.optional(),
});

/** Every parameter checked at once; the keyword lower-cased, the query trimmed. */
function checkQuery(input: AtomFeedInput): FeedQuery {
  const issues: FieldIssue[] = [];
  const parsed = QuerySchema.safeParse({ keyword: input.keyword, q: input.q });
  if (!parsed.success) issues.push(...issuesFromZod("query", parsed.error.issues));
  if (input.subject !== undefined) {
    try {
      subjectFilter(input.subject, "query", "subject");
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      issues.push(...error.issues);
    }
  }
  if (!parsed.success || issues.length > 0) {
    throw new Invalid("The feed's parameters are not valid; see errors.", issues);
  }
  return {
    keyword: parsed.data.keyword?.toLowerCase(),
    subject: input.subject,
    q: parsed.data.q,
  };
}

/** The papers among the best lexical passages for `q` that match it closely. */
async function matchingPapers(ctx: ServiceContext, q: string): Promise<string[]> {
  const { results } = await searchChunks(
    ctx,
    { q, limit: SEARCH_FEED_PASSAGES, mode: "lexical" },
    { maxLimit: SEARCH_FEED_PASSAGES },
  );
  return [...new Set(results.filter((r) => r.match === "close").map((r) => r.paper_id))];
}

function feedTitle(query: FeedQuery): string {
  const parts: string[] = [];
  if (query.subject !== undefined) {
    parts.push(`in ${subjectName(query.subject, "en")} (${query.subject})`);
  }
  if (query.keyword !== undefined) parts.push(`on “${query.keyword}”`);
  if (query.q !== undefined) parts.push(`matching “${query.q}”`);
  return ["Quire: new papers", ...parts].join(" ");
}

/** The site's page of the same papers, where there is one. */
function alternateUrl(baseUrl: string, query: FeedQuery): string {
  if (query.q !== undefined) return `${baseUrl}/?q=${encodeURIComponent(query.q)}`;
  if (query.subject !== undefined) {
    return `${baseUrl}/subjects/${encodeURIComponent(query.subject)}`;
  }
  return `${baseUrl}/`;
}

function renderEntry(baseUrl: string, record: HarvestRecord): string {
  const url = `${baseUrl}/papers/${record.id}`;
  const lang = /^[a-z]{2,3}$/.test(record.language) ? record.language : undefined;
  return element("entry", { "xml:lang": lang }, [
    textElement("id", url),
    textElement("title", record.title, { type: "text" }),
    textElement("updated", record.updatedAt.toISOString()),
    textElement("published", record.publishedAt.toISOString()),
    element("link", { rel: "alternate", type: "text/html", href: url }),
    element("author", {}, [textElement("name", record.aiModel)]),
    ...(record.ownerHandle
      ? [element("contributor", {}, [textElement("name", record.ownerHandle)])]
      : []),
    element("category", { term: AI_LABEL, label: AI_LABEL }),
    ...record.subjects.map((code) =>
      element("category", {
        term: code,
        scheme: SUBJECT_SCHEME,
        label: subjectName(code, "en"),
      }),
    ),
    ...record.keywords.map((keyword) => element("category", { term: keyword })),
    textElement("rights", record.license, { type: "text" }),
    textElement("summary", `${AI_LABEL} by ${record.aiModel}. ${record.abstract}`, {
      type: "text",
    }),
  ]);
}
