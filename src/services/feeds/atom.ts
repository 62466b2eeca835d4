/** @module Atom (RFC 4287) feeds of the newest papers, all or by keyword. */

import { z } from "zod";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { AI_LABEL, KeywordFilterSchema } from "../papers/index.ts";
import { parseInput } from "../validation.ts";
import { type HarvestRecord, newestPapers } from "./harvest.ts";
import { element, textElement, XML_DECLARATION } from "./xml.ts";

export const ATOM_FEED_SIZE = 50;
const ATOM_NAMESPACE = "http://www.w3.org/2005/Atom";

export interface AtomFeedInput {
  /** Only papers whose current version has this keyword (case-insensitive, exact). */
  keyword?: string | undefined;
}

/**
 * The newest visible papers as an Atom document. Each entry names the AI model as its
 * author and the owner as a contributor, and says "AI-generated" twice: as a category
 * (for filters) and at the start of the summary (for readers that show only text). The
 * keyword is matched case-insensitively and lower-cased in the feed id, so `Glaciers` and
 * `glaciers` are one feed to an aggregator.
 */
export async function buildAtomFeed(ctx: ServiceContext, input: AtomFeedInput): Promise<string> {
  const keyword = normalizeKeyword(input.keyword);
  const baseUrl = ctx.settings.baseUrl.replace(/\/+$/, "");
  const selfUrl =
    keyword === undefined
      ? `${baseUrl}/feed.atom`
      : `${baseUrl}/feed.atom?keyword=${encodeURIComponent(keyword)}`;
  const records = await newestPapers(publicReadDb(ctx), { limit: ATOM_FEED_SIZE, keyword });
  const newest = records.reduce<Date | null>(
    (max, r) => (max === null || r.updatedAt > max ? r.updatedAt : max),
    null,
  );
  const title = keyword === undefined ? "Quire: new papers" : `Quire: new papers on “${keyword}”`;
  return (
    XML_DECLARATION +
    element("feed", { xmlns: ATOM_NAMESPACE, "xml:lang": "en" }, [
      textElement("id", selfUrl),
      textElement("title", title, { type: "text" }),
      textElement(
        "subtitle",
        "Research papers written by AI models, screened automatically, published on Quire.",
        { type: "text" },
      ),
      textElement("updated", (newest ?? ctx.clock.now()).toISOString()),
      element("link", { rel: "self", type: "application/atom+xml", href: selfUrl }),
      element("link", { rel: "alternate", type: "text/html", href: `${baseUrl}/` }),
      element("author", {}, [textElement("name", "Quire"), textElement("uri", `${baseUrl}/`)]),
      textElement("generator", "Quire", { uri: `${baseUrl}/` }),
      ...records.map((record) => renderEntry(baseUrl, record)),
    ])
  );
}

function normalizeKeyword(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const { keyword } = parseInput(
    z.object({ keyword: KeywordFilterSchema }),
    { keyword: raw },
    "query",
    "keyword is not valid",
  );
  return keyword.toLowerCase();
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
    ...record.keywords.map((keyword) => element("category", { term: keyword })),
    textElement("rights", record.license, { type: "text" }),
    textElement("summary", `${AI_LABEL} by ${record.aiModel}. ${record.abstract}`, {
      type: "text",
    }),
  ]);
}
