/**
 * @module Subject shapes for REST and MCP: a code, a paper's list of codes, a filter value.
 * They validate and leave the codes as sent (no transform, so they also describe outputs);
 * the services canonicalise with `parseSubjects` and `subjectFilter`.
 */
import { z } from "@hono/zod-openapi";
import {
  isSubjectCode,
  isSubjectFilter,
  unknownFilterMessage,
  unknownSubjectMessage,
} from "./lookup.ts";
import { MAX_CROSS_LISTS, MAX_SUBJECTS, MIN_SUBJECTS, subjectsProblems } from "./parse.ts";

export const SubjectCodeSchema = z
  .string()
  .refine(isSubjectCode, { error: (iss) => unknownSubjectMessage(String(iss.input)) })
  .openapi({
    description:
      "An arXiv category code (https://arxiv.org/category_taxonomy), written as arXiv writes it. " +
      "arXiv's aliases are accepted and stored as the canonical code (math.IT as cs.IT, cs.SY as eess.SY).",
    example: "cs.CL",
  })
  .openapi("SubjectCode");

/**
 * The list's own checks (count, repeats) run even when an element is refused, so every
 * failure is reported at once; zod's `.min`/`.max` would hide the elements' issues.
 */
export const SubjectsSchema = z
  .array(SubjectCodeSchema)
  .superRefine(
    (list, ctx) => {
      for (const p of subjectsProblems(list)) {
        if (p.kind !== "count" && p.kind !== "duplicate") continue;
        ctx.addIssue({
          code: "custom",
          path: p.index === null ? [] : [p.index],
          message: p.message,
        });
      }
    },
    { when: (payload) => Array.isArray(payload.value) },
  )
  .openapi({
    description: `The paper's subjects: the primary first, then up to ${MAX_CROSS_LISTS} cross-lists, no repeats (an alias repeats its canonical code).`,
    minItems: MIN_SUBJECTS,
    maxItems: MAX_SUBJECTS,
    example: ["cs.CL", "cs.LG"],
  })
  .openapi("Subjects");

export const SubjectFilterSchema = z
  .string()
  .refine(isSubjectFilter, { error: (iss) => unknownFilterMessage(String(iss.input)) })
  .openapi({
    description:
      "A subject code (cs.CL; aliases too), an archive (astro-ph, cond-mat) or a group (cs, math, physics, q-bio, …). " +
      "A group or archive matches every category in it; physics is arXiv's whole Physics group (astro-ph, cond-mat, hep-th, quant-ph, physics.*, …).",
    example: "cs",
  })
  .openapi("SubjectFilter");
