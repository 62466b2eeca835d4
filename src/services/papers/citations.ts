/** @module Citations of a paper: BibTeX, RIS, CSL-JSON and Google Scholar (Highwire) meta tags. */
import { aiAuthors, paperLinks, type RenderOptions } from "./jsonld.ts";
import { AI_LABEL, type PaperDetail } from "./schemas.ts";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** What every format says: one place, so the four cannot disagree. */
interface Citation {
  key: string;
  title: string;
  abstract: string;
  authors: string[];
  /** The date the cited text was first published (the paper's, or the version's). */
  issued: Date;
  /** The date this version went online. */
  online: Date;
  url: string;
  versionId: string;
  version: number;
  keywords: string[];
  language: string | null;
  note: string;
}

function citation(detail: PaperDetail, baseUrl: string, options: RenderOptions): Citation {
  const links = paperLinks(detail, baseUrl, options);
  const { paper, version } = detail;
  const owner = paper.owner_handle ? `submitted by @${paper.owner_handle}; ` : "";
  return {
    key: `quire:${links.id}`,
    title: version.title,
    abstract: version.abstract,
    authors: aiAuthors(detail, options),
    issued: new Date(links.versioned ? version.created_at : paper.published_at),
    online: new Date(version.created_at),
    url: links.url,
    versionId: links.versionId,
    version: version.version,
    keywords: paper.keywords,
    language: paper.language && paper.language !== "und" ? paper.language : null,
    note: `${AI_LABEL}; ${owner}Quire id ${links.versionId}`,
  };
}

const LATEX: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "{": "\\textbraceleft{}",
  "}": "\\textbraceright{}",
  "&": "\\&",
  "%": "\\%",
  $: "\\$",
  "#": "\\#",
  _: "\\_",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "<": "\\textless{}",
  ">": "\\textgreater{}",
  "|": "\\textbar{}",
};

/**
 * Plain text as a BibTeX field value that renders as the same text in LaTeX. Braces
 * become `\textbrace…{}` rather than `\{`, because BibTeX counts escaped braces too and
 * an unbalanced one would end the field. TeX ligatures (`--`, ``` `` ```, `''`, `?``,
 * `,,`) are broken with `{}` so they do not turn into dashes or quotes. Whitespace runs
 * collapse to one space (a blank line in a field is a paragraph break); non-ASCII stays
 * UTF-8, which BibTeX 8-bit, Biber and every modern reader accept.
 */
export function escapeLatex(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\\{}&%$#_~^<>|]/g, (c) => LATEX[c] ?? c)
    .replace(/(?<=-)(?=-)|(?<=`)(?=`)|(?<=')(?=')|(?<=[?!])(?=`)|(?<=,)(?=,)/g, "{}");
}

/**
 * Keywords are a verbatim list (never typeset), so they stay as written, except what would
 * break the list (commas), the field (braces) or the `.bbl` file Biber copies them into
 * (backslash, `%`, `#`).
 */
function bibtexKeyword(keyword: string): string {
  return keyword
    .replace(/[{}\\%#]/g, "")
    .replace(/,/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * A BibTeX `@misc` entry. The AI model goes in `author` inside an extra pair of braces so
 * BibTeX treats it as one literal name, not a person's "First Last"; the title is
 * protected the same way so styles keep its capitalisation. `note` says the text is
 * AI-generated and who submitted it, since bibliography styles print `note` but have no
 * field for either.
 */
export function toBibtex(
  detail: PaperDetail,
  baseUrl: string,
  options: RenderOptions = {},
): string {
  const c = citation(detail, baseUrl, options);
  const fields: [string, string][] = [
    ["title", `{{${escapeLatex(c.title)}}}`],
    ["author", `{${c.authors.map((a) => `{${escapeLatex(a)}}`).join(" and ")}}`],
    ["year", `{${c.issued.getUTCFullYear()}}`],
    ["month", MONTHS[c.issued.getUTCMonth()] as string],
    ["howpublished", `{Quire, \\url{${c.url}}}`],
    ["url", `{${c.url}}`],
    ["note", `{${escapeLatex(c.note)}}`],
    ["eprint", `{${c.versionId}}`],
    ["archiveprefix", "{Quire}"],
    ["version", `{${c.version}}`],
    ["publisher", "{Quire}"],
  ];
  const keywords = c.keywords.map(bibtexKeyword).filter(Boolean);
  if (keywords.length > 0) fields.push(["keywords", `{${keywords.join(", ")}}`]);
  if (c.abstract) fields.push(["abstract", `{${escapeLatex(c.abstract)}}`]);
  const width = Math.max(...fields.map(([name]) => name.length));
  const body = fields.map(([name, value]) => `  ${name.padEnd(width)} = ${value},`).join("\n");
  return `@misc{${c.key},\n${body}\n}\n`;
}

function risValue(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function risDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/`;
}

/**
 * An RIS record (`TY  - GEN`). RIS has one value per line, so line breaks inside values
 * become spaces; repeated tags (AU, KW) carry lists. Lines end in CRLF, as the format
 * specifies and reference managers expect.
 */
export function toRis(detail: PaperDetail, baseUrl: string, options: RenderOptions = {}): string {
  const c = citation(detail, baseUrl, options);
  const lines: [string, string][] = [
    ["TY", "GEN"],
    ["TI", c.title],
    ...c.authors.map((a): [string, string] => ["AU", a]),
    ["PY", String(c.issued.getUTCFullYear())],
    ["DA", risDate(c.issued)],
    ["UR", c.url],
    ["AB", c.abstract],
    ...c.keywords.map((k): [string, string] => ["KW", k]),
    ["N1", c.note],
    ["PB", "Quire"],
    ["DB", "Quire"],
    ["AN", c.versionId],
    ...(c.language ? [["LA", c.language] as [string, string]] : []),
    ["ID", c.key],
  ];
  const body = lines
    .map(([tag, value]) => [tag, risValue(value)] as const)
    .filter(([, value]) => value !== "")
    .map(([tag, value]) => `${tag}  - ${value}`);
  return `${[...body, "ER  - "].join("\r\n")}\r\n`;
}

/** One CSL-JSON item, the input of citeproc processors (Zotero, Pandoc, Mendeley). */
export interface CslItem {
  id: string;
  type: "article";
  title: string;
  author: { literal: string }[];
  issued: { "date-parts": [[number, number, number]] };
  URL: string;
  abstract: string;
  keyword?: string;
  note: string;
  version: string;
  number: string;
  publisher: string;
  genre: string;
  language?: string;
}

/**
 * CSL-JSON: an array with one item of type `article` (CSL's preprint / working paper).
 * Authors are `literal` names, so processors never split a model name into given and
 * family parts.
 */
export function toCslJson(
  detail: PaperDetail,
  baseUrl: string,
  options: RenderOptions = {},
): CslItem[] {
  const c = citation(detail, baseUrl, options);
  return [
    {
      id: c.key,
      type: "article",
      title: c.title,
      author: c.authors.map((literal) => ({ literal })),
      issued: {
        "date-parts": [
          [c.issued.getUTCFullYear(), c.issued.getUTCMonth() + 1, c.issued.getUTCDate()],
        ],
      },
      URL: c.url,
      abstract: c.abstract,
      ...(c.keywords.length > 0 ? { keyword: c.keywords.join(", ") } : {}),
      note: c.note,
      version: String(c.version),
      number: c.versionId,
      publisher: "Quire",
      genre: `${AI_LABEL} paper`,
      ...(c.language ? { language: c.language } : {}),
    },
  ];
}

/**
 * Highwire Press `citation_*` tags for the paper's HTML page, the markup Google Scholar
 * indexes (it does not read JSON-LD). One `citation_author` per AI author; the human
 * submitter is not an author. No `citation_pdf_url`: Quire serves no PDF. Values are raw
 * text; the page escapes them.
 */
export function citationMetaTags(
  detail: PaperDetail,
  baseUrl: string,
  options: RenderOptions = {},
): { name: string; content: string }[] {
  const c = citation(detail, baseUrl, options);
  const day = (d: Date) => risDate(d).slice(0, -1);
  return [
    { name: "citation_title", content: risValue(c.title) },
    ...c.authors.map((content) => ({ name: "citation_author", content })),
    { name: "citation_publication_date", content: day(c.issued) },
    { name: "citation_online_date", content: day(c.online) },
    { name: "citation_abstract_html_url", content: c.url },
    ...(c.language ? [{ name: "citation_language", content: c.language }] : []),
    ...(c.keywords.length > 0
      ? [{ name: "citation_keywords", content: c.keywords.join("; ") }]
      : []),
    { name: "citation_publisher", content: "Quire" },
  ];
}
