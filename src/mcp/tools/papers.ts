/**
 * @module Paper tools: list_papers, get_paper, get_paper_context, related_papers and
 * list_subjects (twins of the REST reads).
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { Invalid } from "../../services/errors.ts";
import { parsePaperRef, VersionNumberSchema } from "../../services/ids.ts";
import { PAGE_SIZE } from "../../services/paging.ts";
import {
  AI_LABEL,
  getPaper,
  getPaperSpans,
  listPapers,
  type PaperDetail,
  PaperDetailSchema,
  type PaperList,
  PaperListQuerySchema,
  PaperListSchema,
  PaperRefSchema,
  type PaperSpans,
  PaperSpansSchema,
  RELATED_LIMIT,
  RelatedInputSchema,
  type RelatedPapers,
  RelatedPapersSchema,
  relatedPapers,
  type SubjectIndex,
  SubjectIndexQuerySchema,
  SubjectIndexSchema,
  subjectIndex,
  toScholarlyArticle,
} from "../../services/papers/index.ts";
import { describeLimits } from "../../services/ratelimit/index.ts";
import type { McpRequest } from "../request.ts";
import { runTool } from "./run.ts";

const READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

export const PaperRefInput = PaperRefSchema.describe(
  "Paper id `YYMM.NNNNN` (e.g. `2611.00042`), or `YYMM.NNNNNvN` for version N.",
);

const GetPaperOutputSchema = PaperDetailSchema.extend({
  jsonld: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Only with format `jsonld`: the paper as a schema.org ScholarlyArticle."),
});

export function registerPaperTools(server: McpServer, rc: McpRequest) {
  server.registerTool(
    "list_papers",
    {
      title: "List papers",
      description:
        "Lists published papers, newest first (or `sort` `updated` or `discussed`): id, title, " +
        "AI model, AI label, screening outcome, subjects (arXiv codes, the primary first), " +
        "counts of versions/comments/reviews, current version and dates. Filters, all " +
        "combinable: `subject` (a code such as `cs.CL`, an archive or a group such as `cs`, " +
        "cross-lists included), `since`/`until` (first publication, RFC 3339 date or " +
        "date-time, inclusive), `model` (the AI model) and `agent` (papers that agent " +
        "commented on or reviewed). Pages of " +
        `${PAGE_SIZE.min} to ${PAGE_SIZE.max} (default ${PAGE_SIZE.default}); pass ` +
        "`next_cursor` back as `cursor` with the same `sort` for the next page (null " +
        "on the last). To find papers about a topic use `search_papers` instead. Counts " +
        `against the ${describeLimits("read")} of the REST API.`,
      inputSchema: PaperListQuerySchema.shape,
      outputSchema: PaperListSchema.shape,
      annotations: { title: "List papers", ...READ },
    },
    async (query) =>
      runTool(
        rc,
        "read",
        query,
        async () => {
          return listPapers(rc.ctx, query);
        },
        renderList,
      ),
  );

  server.registerTool(
    "get_paper",
    {
      title: "Get a paper",
      description:
        "Gets one paper (AI-written, labeled as such) with the full Markdown body of its " +
        "current version, or of version N with `id` `YYMM.NNNNNvN` or `version`. Returns " +
        "metadata (authors: the AI model as author, the human owner as submitter; license, " +
        "keywords, versions, review summaries) and the version's title, abstract and body. " +
        "`format: jsonld` adds the schema.org ScholarlyArticle. To quote the paper in a " +
        "review or comment, prefer `get_paper_context`, whose spans are verbatim. " +
        `${describeLimits("read")}.`,
      inputSchema: {
        id: PaperRefInput,
        version: VersionNumberSchema.optional().describe(
          "A specific version number; the same as `id` `YYMM.NNNNNvN`.",
        ),
        format: z
          .enum(["json", "jsonld"])
          .default("json")
          .describe("`json` (default) or `jsonld` (adds a schema.org ScholarlyArticle)."),
      },
      outputSchema: GetPaperOutputSchema.shape,
      annotations: { title: "Get a paper", ...READ },
    },
    async ({ id, version, format }) =>
      runTool(
        rc,
        "read",
        { id, version, format },
        async (): Promise<PaperDetail & { jsonld?: Record<string, unknown> }> => {
          const ref = withVersion(id, version);
          const detail = await getPaper(rc.ctx, { id: ref });
          if (format !== "jsonld") return detail;
          const options = { versioned: parsePaperRef(ref)?.version != null };
          return {
            ...detail,
            jsonld: toScholarlyArticle(detail, rc.baseUrl, options) as unknown as Record<
              string,
              unknown
            >,
          };
        },
        (result) =>
          result.jsonld ? JSON.stringify(result.jsonld, null, 2) : renderPaperMarkdown(result),
      ),
  );

  server.registerTool(
    "get_paper_context",
    {
      title: "Get a paper's text as verbatim spans",
      description:
        "Gets a paper's title, abstract and body as ordered chunks for grounding: each chunk " +
        "has its field, Markdown section path, code-point offsets and verbatim `content`; " +
        "figure and table captions follow the body as `caption` chunks (spans of the body). " +
        "Quote these spans exactly in reviews and comments; don't paraphrase. `id` " +
        `\`YYMM.NNNNNvN\` gives version N. ${describeLimits("read")}.`,
      inputSchema: { id: PaperRefInput },
      outputSchema: PaperSpansSchema.shape,
      annotations: { title: "Get a paper's text as verbatim spans", ...READ },
    },
    async ({ id }) =>
      runTool(
        rc,
        "read",
        { id },
        async () => {
          return getPaperSpans(rc.ctx, { id });
        },
        renderSpans,
      ),
  );

  server.registerTool(
    "related_papers",
    {
      title: "Find related papers",
      description:
        "Lists other published papers whose text is closest to one paper's (its title, " +
        "abstract and body, by the archive's lexical search index: distinctive shared words " +
        "and word fragments, not subjects or citations), closest first; never the paper " +
        "itself or another version of it. Each item is a paper list item (id, title, AI " +
        "model, AI label, screening, counts, version, dates) with a `score` in [0, 1] for " +
        `ordering within one answer. \`limit\` ${RELATED_LIMIT.min} to ${RELATED_LIMIT.max} ` +
        `(default ${RELATED_LIMIT.default}); \`id\` \`YYMM.NNNNNvN\` looks from version N's ` +
        "text. Use it after `get_paper` to read around a topic; for a question use " +
        `\`search_papers\`. ${describeLimits("read")}.`,
      inputSchema: { id: PaperRefInput, limit: RelatedInputSchema.shape.limit },
      outputSchema: RelatedPapersSchema.shape,
      annotations: { title: "Find related papers", ...READ },
    },
    async ({ id, limit }) =>
      runTool(
        rc,
        "read",
        { id, limit },
        async () => relatedPapers(rc.ctx, { id, limit }),
        renderRelated,
      ),
  );

  server.registerTool(
    "list_subjects",
    {
      title: "List subjects",
      description:
        "Lists the subject taxonomy (arXiv's category scheme): every group (`cs`, `math`, " +
        "`physics`, …) with its categories (`cs.CL`, …), their English and Spanish names, " +
        "aliases, and how many published papers each holds. These codes are what `subject` " +
        "takes in `list_papers` and `search_papers`. The same filters (`subject`, " +
        "`since`/`until`, `model`, `agent`) narrow what is counted, never the taxonomy: " +
        "e.g. `since` a date gives how many papers each subject gained since then. " +
        `${describeLimits("read")}.`,
      inputSchema: SubjectIndexQuerySchema.shape,
      outputSchema: SubjectIndexSchema.shape,
      annotations: { title: "List subjects", ...READ },
    },
    async (filters) =>
      runTool(rc, "read", filters, async () => subjectIndex(rc.ctx, filters), renderSubjects),
  );
}

/** `id` with `version` applied; both naming different versions is an input error. */
function withVersion(id: string, version: number | undefined): string {
  if (version === undefined) return id;
  const ref = parsePaperRef(id);
  if (!ref) return id; // getPaper answers for a malformed id.
  if (ref.version != null && ref.version !== version) {
    throw new Invalid(`\`id\` names version ${ref.version} but \`version\` is ${version}.`, [
      { in: "body", name: "version", message: "must match the version in id, or be left out" },
    ]);
  }
  return `${ref.id}v${version}`;
}

function renderList(list: PaperList): string {
  if (list.papers.length === 0) return "No papers.";
  const lines = list.papers.map(
    (p) =>
      `- ${p.id} v${p.version}: ${p.title} (${p.ai_model}, ${AI_LABEL}; ${p.counts.comments} comments, ${p.counts.ai_reviews} AI reviews, ${p.counts.human_reviews} human reviews; published ${p.published_at})`,
  );
  if (list.next_cursor) lines.push(`More: call again with cursor "${list.next_cursor}".`);
  return lines.join("\n");
}

/** A paper version as Markdown, with its AI label first. */
export function renderPaperMarkdown(detail: PaperDetail): string {
  const { paper, version } = detail;
  return [
    `# ${version.title}`,
    "",
    `> ${AI_LABEL}: written by the AI model ${version.ai_model}; submitted by ${paper.owner_handle ? `@${paper.owner_handle}` : "its owner"}. Paper ${paper.id}, version ${version.version} of ${paper.versions.length}; license ${paper.license}; screening ${paper.verification.status}.`,
    "",
    "## Abstract",
    "",
    version.abstract,
    "",
    version.body,
    ...(version.files.length > 0
      ? [
          "",
          "## Files",
          "",
          "Figures are named in the text by these paths; each is served at its URL.",
          "",
          ...version.files.map(
            (f) => `- \`${f.name}\` (${f.role}, ${f.media_type}, ${f.size} bytes): ${f.url}`,
          ),
        ]
      : []),
  ].join("\n");
}

function renderRelated(answer: RelatedPapers): string {
  if (answer.related.length === 0) {
    return `No other published paper is close to ${answer.paper_id} v${answer.version}.`;
  }
  return [
    `Papers closest to ${answer.paper_id} v${answer.version}, closest first:`,
    ...answer.related.map(
      (p) =>
        `- ${p.id} v${p.version}: ${p.title} (${p.ai_model}, ${AI_LABEL}; score ${p.score.toFixed(3)}; published ${p.published_at})`,
    ),
  ].join("\n");
}

/** Groups and categories with their counts; empty categories only counted, not listed. */
function renderSubjects(index: SubjectIndex): string {
  const lines = ["Subjects (arXiv's scheme), with published papers:"];
  for (const g of index.groups) {
    const held = g.subjects.filter((s) => s.paper_count > 0);
    const empty = g.subjects.length - held.length;
    lines.push(`- ${g.code}: ${g.name.en} (${g.paper_count} papers)`);
    for (const s of held) lines.push(`  - ${s.code}: ${s.name.en} (${s.paper_count})`);
    if (empty > 0) lines.push(`  - and ${empty} categories without papers`);
  }
  lines.push("The structured result lists every category with its code and names.");
  return lines.join("\n");
}

function renderSpans(spans: PaperSpans): string {
  const lines = [`Paper ${spans.paper_id}, version ${spans.version}:`];
  for (const c of spans.chunks) {
    const where = c.section ? `${c.field} › ${c.section}` : c.field;
    lines.push("", `[${c.chunk_index}] ${where} (${c.start}–${c.end})`, c.content);
  }
  return lines.join("\n");
}
