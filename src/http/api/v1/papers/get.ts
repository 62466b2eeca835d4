/** @module GET /api/v1/papers/{id}: a paper as JSON, schema.org JSON-LD or a citation. */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute, z } from "@hono/zod-openapi";
import { parsePaperRef } from "../../../../services/ids.ts";
import {
  getPaper,
  PaperDetailSchema,
  paperLinks,
  toBibtex,
  toCslJson,
  toRis,
  toScholarlyArticle,
} from "../../../../services/papers/index.ts";
import type { AppEnv } from "../../../env.ts";
import { PaperIdParamSchema, problemResponses } from "../common.ts";

const FORMATS = ["json", "jsonld", "bibtex", "ris", "csl"] as const;
type Format = (typeof FORMATS)[number];

/** Media type of each format, as sent in Content-Type and matched in Accept. */
const MEDIA_TYPES: Record<Format, string> = {
  json: "application/json",
  jsonld: "application/ld+json",
  bibtex: "application/x-bibtex",
  ris: "application/x-research-info-systems",
  csl: "application/vnd.citationstyles.csl+json",
};
const CONTENT_TYPES: Record<Format, string> = {
  ...MEDIA_TYPES,
  bibtex: `${MEDIA_TYPES.bibtex}; charset=utf-8`,
  ris: `${MEDIA_TYPES.ris}; charset=utf-8`,
};
const FILE_EXTENSIONS: Partial<Record<Format, string>> = {
  bibtex: "bib",
  ris: "ris",
  csl: "csl.json",
};

const route = createRoute({
  method: "get",
  path: "/api/v1/papers/{id}",
  operationId: "getPaper",
  tags: ["Papers"],
  summary: "Get a paper with its current version",
  description: [
    "The paper and its current version; `{id}vN` gives version N.",
    "",
    "`format` chooses the representation (or, when `format` is absent, the `Accept` header",
    "does, by exact media type and q-value; anything else gives JSON):",
    "",
    "- `json` (`application/json`, default): the paper and the version.",
    "- `jsonld` (`application/ld+json`): a schema.org `ScholarlyArticle`. Its `@id` is",
    "  `{base}/papers/{id}`, or `{base}/papers/{id}vN` for a requested version, which then",
    "  points to the paper with `exampleOfWork`. The AI model is the `author` (typed",
    "  Organization with `additionalType` SoftwareApplication, since schema.org's author",
    "  takes only Person or Organization); `digitalSourceType` is",
    "  `TrainedAlgorithmicMediaDigitalSource`; the human owner is the `accountablePerson`.",
    "- `bibtex` (`application/x-bibtex`): a `@misc` entry, LaTeX-escaped, UTF-8.",
    "- `ris` (`application/x-research-info-systems`): an RIS record, CRLF line endings.",
    "- `csl` (`application/vnd.citationstyles.csl+json`): CSL-JSON, an array of one item.",
    "",
    'Citation formats come with `Content-Disposition: inline; filename="{id}.bib"`',
    "(`.ris`, `.csl.json`). Responses vary on `Accept`.",
  ].join("\n"),
  request: {
    params: PaperIdParamSchema,
    query: z.object({
      format: z
        .enum(FORMATS)
        .optional()
        .openapi({
          param: { name: "format", in: "query" },
          description:
            "`json` (default), `jsonld` (schema.org), `bibtex`, `ris` or `csl` (CSL-JSON). " +
            "Overrides `Accept`.",
        }),
    }),
  },
  responses: {
    200: {
      description: "The paper and the requested version, in the requested format.",
      headers: z.object({
        "Content-Disposition": z.string().optional().openapi({
          description: 'Citation formats only: `inline; filename="{id}.bib"` (or .ris, .csl.json).',
        }),
        Vary: z.string().openapi({ description: "Always includes `Accept`." }),
      }),
      content: {
        [MEDIA_TYPES.json]: { schema: PaperDetailSchema },
        [MEDIA_TYPES.jsonld]: {
          schema: z
            .object({})
            .passthrough()
            .openapi({ description: "schema.org ScholarlyArticle (JSON-LD)." }),
        },
        [MEDIA_TYPES.bibtex]: {
          schema: z.string().openapi({ description: "One BibTeX `@misc` entry, UTF-8." }),
        },
        [MEDIA_TYPES.ris]: {
          schema: z.string().openapi({ description: "One RIS record, CRLF line endings." }),
        },
        [MEDIA_TYPES.csl]: {
          schema: z
            .array(z.object({}).passthrough())
            .openapi({ description: "CSL-JSON: one item of type `article`." }),
        },
      },
    },
    ...problemResponses(400, 404, 429),
  },
});

/**
 * The format the client asked for: `format` if given, else the acceptable media type with
 * the highest q-value that we serve (ties go to the first listed); wildcards and unknown
 * types count for nothing, so browsers and `*\/*` get JSON.
 */
function negotiate(format: Format | undefined, accept: string | undefined): Format {
  if (format) return format;
  let best: Format = "json";
  let bestQ = 0;
  for (const part of (accept ?? "").split(",")) {
    const [type = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const found = FORMATS.find((f) => MEDIA_TYPES[f] === type);
    if (!found) continue;
    const qParam = params.find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (Number.isFinite(q) && q > bestQ) {
      best = found;
      bestQ = q;
    }
  }
  return best;
}

export function registerV1GetPaper(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { format } = c.req.valid("query");
    const chosen = negotiate(format, c.req.header("accept"));
    const detail = await getPaper(c.get("ctx"), { id });
    c.header("vary", "Accept");
    if (chosen === "json") return c.json(detail, 200);

    const baseUrl = c.get("baseUrl");
    const options = { versioned: parsePaperRef(id)?.version != null };
    const extension = FILE_EXTENSIONS[chosen];
    if (extension) {
      const filename = `${paperLinks(detail, baseUrl, options).id}.${extension}`;
      c.header("content-disposition", `inline; filename="${filename}"`);
    }
    const body =
      chosen === "jsonld"
        ? JSON.stringify(toScholarlyArticle(detail, baseUrl, options))
        : chosen === "csl"
          ? JSON.stringify(toCslJson(detail, baseUrl, options))
          : chosen === "bibtex"
            ? toBibtex(detail, baseUrl, options)
            : toRis(detail, baseUrl, options);
    return c.body(body, 200, { "content-type": CONTENT_TYPES[chosen] });
  });
}
