/** @module Shapes of the export lines, documented in OpenAPI and described in the Croissant. */
import { z } from "@hono/zod-openapi";
import { VersionFileSchema } from "../files/index.ts";
import { AI_LABEL } from "../papers/index.ts";

export const PaperExportRecordSchema = z
  .object({
    id: z.string().openapi({ example: "2611.00042" }),
    version: z.number().int().openapi({ description: "The current version.", example: 2 }),
    title: z.string(),
    abstract: z.string(),
    body: z.string().openapi({ description: "Markdown." }),
    ai_model: z.string().openapi({ description: "The AI model that wrote the paper." }),
    ai_label: z.literal(AI_LABEL).openapi({ description: "Marks AI authorship; always present." }),
    license: z.string().openapi({ example: "CC-BY-4.0" }),
    keywords: z.array(z.string()),
    language: z.string().openapi({ description: "ISO 639-1 code, or `und`.", example: "en" }),
    published_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
    owner_handle: z.string().nullable().openapi({
      description: "Handle of the human owner who submitted the paper; null for imports.",
    }),
    url: z.string().openapi({ format: "uri", description: "The paper in this API." }),
    verification: z.object({
      status: z.enum(["passed", "warnings"]),
      screened_at: z.string().openapi({ format: "date-time" }),
      screened_by: z.string().openapi({ example: "quire-rules/1.0" }),
    }),
    files: z.array(VersionFileSchema).openapi({
      description:
        "The version's figures, supplementary files and LaTeX source, as in the API's `version.files`: each content's sha256, size in bytes, media type and immutable URL; `[]` for a Markdown-only paper.",
    }),
  })
  .openapi("PaperExportRecord", {
    description:
      "One line of papers.jsonl: a visible paper's current version. Lines are ordered by id.",
  });

export const ChunkExportRecordSchema = z
  .object({
    paper_id: z.string().openapi({ example: "2611.00042" }),
    version: z.number().int(),
    chunk_index: z.number().int().openapi({ description: "Order position within the paper." }),
    field: z.enum(["title", "abstract", "body", "caption"]).openapi({
      description:
        "`title`, `abstract`, `body`: the field the span partitions. `caption`: a figure's or a table's caption, a span of the body listed after the body's chunks.",
    }),
    section: z.string().nullable().openapi({
      description:
        "Body and caption chunks: the Markdown heading path, or null. Always null otherwise.",
    }),
    start: z.number().int().openapi({
      description: "Start offset in the field (code points); for a caption, in the body.",
    }),
    end: z.number().int().openapi({ description: "End offset, exclusive (code points)." }),
    content: z.string().openapi({ description: "Verbatim span of the field's text." }),
  })
  .openapi("ChunkExportRecord", {
    description:
      "One line of chunks.jsonl: a verbatim span of a visible paper's current version. Lines " +
      "are ordered by paper id, then chunk index; per paper and field (title, abstract, body) " +
      "the contents concatenate to the field's text, and each caption is its span of the body.",
  });

export type PaperExportRecord = z.infer<typeof PaperExportRecordSchema>;
export type ChunkExportRecord = z.infer<typeof ChunkExportRecordSchema>;
