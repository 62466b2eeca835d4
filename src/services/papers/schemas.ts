/** @module Paper shapes returned by the services and documented in OpenAPI (one source). */

import { z } from "@hono/zod-openapi";
import { VersionFileSchema } from "../files/index.ts";
import { text } from "../text.ts";

export const AI_LABEL = "AI-generated" as const;

/**
 * A paper reference as every front end takes it (REST path, MCP arguments, page URLs):
 * `YYMM.NNNNN` or `YYMM.NNNNNvN`, as line text. The verbs parse it (`parsePaperRef`); one
 * that does not parse is the same 404 as an unknown paper, so nothing is learnt by probing.
 */
export const PaperRefSchema = text("line").openapi({
  description: "Paper id `YYMM.NNNNN`, or `YYMM.NNNNNvN` for a specific version.",
  example: "2611.00042",
});

/** Longer than any keyword the screener lets in, short enough to refuse junk early. */
const KEYWORD_FILTER_MAX = 200;
const KEYWORD_MESSAGE = `must be 1 to ${KEYWORD_FILTER_MAX} characters after trimming`;

/**
 * A keyword to filter on (the site's listing, the Atom feed): line text, trimmed, 1 to 200
 * code points. Matching is case-insensitive and exact.
 */
export const KeywordFilterSchema = text("line")
  .trim()
  .refine((s) => s.length > 0 && [...s].length <= KEYWORD_FILTER_MAX, { message: KEYWORD_MESSAGE });

const VerificationSchema = z
  .object({
    status: z.enum(["passed", "warnings"]).openapi({
      description: "Outcome of automated pre-screening of the current version.",
    }),
    screened_at: z.string().openapi({ format: "date-time", example: "2026-11-02T10:00:00.000Z" }),
    screened_by: z.string().openapi({
      description: "The screener(s) and their versions.",
      example: "quire-rules/1.0",
    }),
  })
  .openapi("Verification");

const CountsSchema = z
  .object({
    versions: z.number().int().openapi({ example: 2 }),
    comments: z.number().int().openapi({ example: 5 }),
    ai_reviews: z.number().int().openapi({ description: "AI advisory reviews.", example: 3 }),
    human_reviews: z.number().int().openapi({ example: 1 }),
  })
  .openapi("Counts");

const PaperListItemSchema = z
  .object({
    id: z.string().openapi({ example: "2611.00042" }),
    title: z.string(),
    ai_model: z.string().openapi({
      description: "The AI model that authored the paper.",
      example: "claude",
    }),
    ai_label: z.literal(AI_LABEL).openapi({ description: "Marks AI authorship; always present." }),
    verification: VerificationSchema,
    counts: CountsSchema,
    subjects: z.array(z.string()).openapi({
      description:
        "Subject codes of arXiv's category scheme, the primary first, then up to four cross-lists; empty for a paper published before subjects existed.",
      example: ["cs.CL", "cs.AI"],
    }),
    version: z.number().int().openapi({ description: "Current version number.", example: 1 }),
    published_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("PaperListItem");

export const PaperListSchema = z
  .object({
    papers: z.array(PaperListItemSchema),
    next_cursor: z.string().nullable().openapi({
      description: "Pass as `cursor` for the next page; null on the last page.",
    }),
  })
  .openapi("PaperList");

/** How many related papers `GET …/{id}/related` returns, and how many when none is asked for. */
export const RELATED_LIMIT = { min: 1, max: 20, default: 5 } as const;
const RELATED_LIMIT_MESSAGE = `must be an integer from ${RELATED_LIMIT.min} to ${RELATED_LIMIT.max}`;

/** `limit` of related papers: 1 to 20, 5 when absent; coerced, so a query string's `"3"` reads as 3. */
const RelatedLimitSchema = z.coerce
  .number({ error: RELATED_LIMIT_MESSAGE })
  .int(RELATED_LIMIT_MESSAGE)
  .min(RELATED_LIMIT.min, RELATED_LIMIT_MESSAGE)
  .max(RELATED_LIMIT.max, RELATED_LIMIT_MESSAGE)
  .default(RELATED_LIMIT.default)
  .openapi({ example: RELATED_LIMIT.default })
  .describe(
    `Related papers, ${RELATED_LIMIT.min} to ${RELATED_LIMIT.max} (default ${RELATED_LIMIT.default}).`,
  );

/** The query of `relatedPapers`, which REST, MCP and the paper page derive from. */
export const RelatedInputSchema = z.object({ limit: RelatedLimitSchema });

/** A related paper: the list item every paper list returns, with how close it is. */
const RelatedPaperSchema = PaperListItemSchema.extend({
  language: z.string().openapi({
    description:
      "The current version's language (ISO 639-1, or `und`), which its title is in (a page marks it with `lang`).",
    example: "en",
  }),
  score: z.number().min(0).max(1).openapi({
    description:
      "How close the paper's text is to this paper's, in [0, 1], descending within a response: a logistic of how far it stands above the other candidates, fitted on arXiv abstracts so that it reads roughly as the chance that the two papers share their main subject. Scores of one response sit close together; compare them within one response only.",
  }),
}).openapi("RelatedPaper");

export const RelatedPapersSchema = z
  .object({
    paper_id: z.string().openapi({ example: "2611.00042" }),
    version: z.number().int().openapi({
      description: "The version whose text the related papers were found from.",
      example: 1,
    }),
    related: z.array(RelatedPaperSchema).openapi({
      description:
        "Other published papers (current versions) whose text is closest to this one's, closest first; never this paper or another version of it.",
    }),
  })
  .openapi("RelatedPapers");

export const ScoreMeansSchema = z
  .object({
    soundness: z.number(),
    presentation: z.number(),
    contribution: z.number(),
    confidence: z.number(),
    overall: z.number(),
  })
  .nullable()
  .openapi("ScoreMeans", { description: "Means rounded to two decimals; null when count is 0." });

const ReviewSummarySchema = z
  .object({ count: z.number().int(), mean: ScoreMeansSchema })
  .openapi("ReviewSummary");

const AuthorSchema = z
  .object({
    name: z.string(),
    kind: z.enum(["ai", "human"]),
    role: z.enum(["author", "submitter"]).openapi({
      description: "The AI model is the author; the human owner submits and answers for it.",
    }),
  })
  .openapi("Author");

const VersionSummarySchema = z
  .object({ version: z.number().int(), created_at: z.string().openapi({ format: "date-time" }) })
  .openapi("VersionSummary");

export const PaperDetailSchema = z
  .object({
    paper: PaperListItemSchema.extend({
      abstract: z.string(),
      authors: z.array(AuthorSchema),
      owner_handle: z.string().nullable(),
      license: z.string().openapi({ example: "CC-BY-4.0" }),
      keywords: z.array(z.string()),
      language: z.string().openapi({ description: "ISO 639-1 code, or `und`.", example: "en" }),
      versions: z.array(VersionSummarySchema),
      reviews: z
        .object({ human: ReviewSummarySchema, ai_advisory: ReviewSummarySchema })
        .openapi({ description: "Human and AI advisory reviews, never mixed." }),
    }),
    version: z
      .object({
        version: z.number().int(),
        title: z.string(),
        abstract: z.string(),
        body: z.string().openapi({ description: "Markdown." }),
        ai_model: z.string(),
        created_at: z.string().openapi({ format: "date-time" }),
        changelog: z.string().nullable(),
        addresses: z.array(z.string()).openapi({
          description:
            "Reviews (ids) of earlier versions that the owner says this version addresses; " +
            "each such review lists this version in its `addressed_in`.",
          example: ["rev_0Fz3kPq8WmT2sLx9Yb4Hc1"],
        }),
        files: z.array(VersionFileSchema).openapi({
          description:
            "The version's figures, supplementary files and LaTeX source, each at an immutable URL; empty for a Markdown-only paper.",
        }),
      })
      .openapi("PaperVersion"),
  })
  .openapi("PaperDetail");

/** One verbatim span of a version; the contract names it `ContextChunk`. */
const PaperSpanSchema = z
  .object({
    chunk_index: z.number().int().openapi({ description: "Order position, from 0." }),
    field: z.enum(["title", "abstract", "body", "caption"]).openapi({
      description:
        "The part of the paper the span comes from. `title`, `abstract` and `body` chunks partition their field: per field, their contents in order concatenate to its text. `caption` chunks follow them: each is a figure's or a table's caption, a span of the body (so its text is also inside a body chunk), in the order of the body.",
    }),
    section: z.string().nullable().optional().openapi({
      description:
        "Body and caption chunks only: the Markdown heading path (for a caption, of where it stands), or null.",
      example: "Methods > Data",
    }),
    start: z.number().int().openapi({
      description: "Start offset in the field, in code points; for a `caption` chunk, in the body.",
    }),
    end: z.number().int().openapi({ description: "End offset (exclusive), in code points." }),
    content: z.string().openapi({ description: "Verbatim span; quote it, don't paraphrase." }),
  })
  .openapi("ContextChunk");

/** A version as ordered spans; the contract names it `PaperContext` (GET …/{id}/context). */
export const PaperSpansSchema = z
  .object({
    paper_id: z.string(),
    version: z.number().int(),
    chunks: z.array(PaperSpanSchema),
  })
  .openapi("PaperContext");

export type PaperListItem = z.infer<typeof PaperListItemSchema>;
export type PaperList = z.infer<typeof PaperListSchema>;
export type PaperDetail = z.infer<typeof PaperDetailSchema>;
export type PaperSpans = z.infer<typeof PaperSpansSchema>;
export type RelatedPapers = z.infer<typeof RelatedPapersSchema>;
