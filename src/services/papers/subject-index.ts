/**
 * @module subjectIndex: arXiv's category scheme as the API and MCP serve it, so a client can
 * learn the codes it may filter by: every group with its categories, their names in English
 * and Spanish, aliases, and how many visible papers each holds under the list's filters (the
 * facet counts the site shows beside its lists).
 */
import { z } from "@hono/zod-openapi";
import type { ServiceContext } from "../context.ts";
import { type PaperFiltersInput, PaperFiltersSchema } from "../filters/index.ts";
import { SUBJECT_GROUPS } from "../subjects/index.ts";
import { type SubjectCounts, subjectCounts } from "./subject-counts.ts";

/** The query: the list's filters, each narrowing the papers counted (the taxonomy is whole). */
export const SubjectIndexQuerySchema = PaperFiltersSchema;

const NameSchema = z
  .object({
    en: z.string().openapi({ example: "Computation and Language" }),
    es: z.string().openapi({ example: "Computación y lenguaje" }),
  })
  .openapi("SubjectName");

const PaperCountSchema = z.number().int().min(0).openapi({
  description: "Visible papers matching the filters that list it (primary or cross-list).",
  example: 12,
});

const SubjectEntrySchema = z
  .object({
    code: z.string().openapi({ description: "The canonical category code.", example: "cs.CL" }),
    archive: z.string().openapi({ description: "The arXiv archive it belongs to.", example: "cs" }),
    name: NameSchema,
    aliases: z.array(z.string()).openapi({
      description: "Other codes arXiv gives it; accepted on input, stored as `code`.",
      example: [],
    }),
    paper_count: PaperCountSchema,
  })
  .openapi("SubjectEntry");

const SubjectGroupEntrySchema = z
  .object({
    code: z
      .string()
      .openapi({ description: "The group, usable as a `subject` filter.", example: "cs" }),
    name: NameSchema,
    paper_count: PaperCountSchema.openapi({
      description:
        "Distinct visible papers the group's filter matches (a paper in two of its categories counts once; categories reached through an alias count too).",
    }),
    subjects: z
      .array(SubjectEntrySchema)
      .openapi({ description: "Its categories, in arXiv's order." }),
  })
  .openapi("SubjectGroupEntry");

export const SubjectIndexSchema = z
  .object({
    groups: z.array(SubjectGroupEntrySchema).openapi({
      description:
        "Every group of arXiv's scheme, in arXiv's order, with all its categories, empty or not.",
    }),
  })
  .openapi("SubjectIndex");

export type SubjectIndex = z.infer<typeof SubjectIndexSchema>;

/**
 * The whole taxonomy with paper counts under `filters` (checked as the list checks them;
 * every failed check listed). One aggregate query (`subjectCounts`); the names and order are
 * the shipped data's.
 */
export async function subjectIndex(
  ctx: ServiceContext,
  filters: PaperFiltersInput = {},
): Promise<SubjectIndex> {
  return toSubjectIndex(await subjectCounts(ctx, { filters }));
}

/** The scheme in arXiv's order with these counts; a code the counts do not name holds 0. */
export function toSubjectIndex(counts: SubjectCounts): SubjectIndex {
  const bySubject = new Map(counts.subjects.map((c) => [c.code, c.count]));
  const byGroup = new Map(counts.groups.map((c) => [c.code, c.count]));
  return {
    groups: SUBJECT_GROUPS.map((group) => ({
      code: group.code,
      name: { en: group.name.en, es: group.name.es },
      paper_count: byGroup.get(group.code) ?? 0,
      subjects: group.subjects.map((s) => ({
        code: s.code,
        archive: s.archive,
        name: { en: s.name.en, es: s.name.es },
        aliases: [...s.aliases],
        paper_count: bySubject.get(s.code) ?? 0,
      })),
    })),
  };
}
