/** @module Citations: BibTeX parses back to the same text, RIS and CSL-JSON have their shapes (5,000 arXiv records: citations.many.test.ts). */
import { parse } from "@retorquere/bibtex-parser";
import { describe, expect, it } from "vitest";
import { BASE, bracesBalanced, squash } from "./citations.test-helpers.ts";
import { citationMetaTags, escapeLatex, toBibtex, toCslJson, toRis } from "./citations.ts";
import type { PaperDetail } from "./schemas.ts";

const TRICKY_TITLES = [
  "Fish & Chips: 100% of $5 for #1",
  "Braces {unbalanced and } reversed }{ and a_b_c",
  "Tilde ~ caret ^ backslash \\ pipe | less < greater > at @",
  "Dashes -- and --- and quotes ``x'' ,,y ?` !`",
  "Accents: Ünïcödé café naïve Øre Łódź",
  "CJK 日本語の論文 와 中文标题 and emoji 🚀",
  "El método del número de curva en cuencas andinas de páramo",
  "  Spaces\n\tand\nnewlines  collapse ",
];

function detail(title: string, overrides: Partial<PaperDetail["paper"]> = {}): PaperDetail {
  const paper: PaperDetail["paper"] = {
    id: "2611.00042",
    title,
    ai_model: "claude-opus-4.5",
    ai_label: "AI-generated",
    verification: { status: "passed", screened_at: "2026-11-03T10:00:00.000Z", screened_by: "r" },
    counts: { versions: 2, comments: 0, ai_reviews: 0, human_reviews: 0 },
    subjects: ["cs.NA"],
    version: 2,
    published_at: "2026-09-03T09:15:00.000Z",
    updated_at: "2026-11-03T10:00:00.000Z",
    abstract: `Abstract of ${title}.\n\nSecond paragraph with $x_1$ & 50%.`,
    authors: [{ name: "claude-opus-4.5", kind: "ai", role: "author" }],
    owner_handle: "alice_b",
    license: "CC-BY-4.0",
    keywords: ["floating_point", "números", "数值分析"],
    language: "en",
    versions: [
      { version: 1, created_at: "2026-09-03T09:15:00.000Z" },
      { version: 2, created_at: "2026-11-03T10:00:00.000Z" },
    ],
    reviews: { human: { count: 0, mean: null }, ai_advisory: { count: 0, mean: null } },
    ...overrides,
  };
  return {
    paper,
    version: {
      version: 2,
      title: paper.title,
      abstract: paper.abstract,
      body: "",
      ai_model: paper.ai_model,
      created_at: "2026-11-03T10:00:00.000Z",
      changelog: null,
      addresses: [],
      files: [],
    },
  };
}

/** Parses without sentence-casing, which is a display choice of the consumer, not content. */
function parseOne(bibtex: string) {
  const library = parse(bibtex, { english: false });
  expect(library.errors).toEqual([]);
  expect(library.entries).toHaveLength(1);
  return library.entries[0] as (typeof library.entries)[number];
}

describe("escapeLatex", () => {
  it("escapes every LaTeX special character and keeps UTF-8", () => {
    expect(escapeLatex("a & b % c $ d # e _ f")).toBe("a \\& b \\% c \\$ d \\# e \\_ f");
    expect(escapeLatex("{x} ~ ^ \\")).toBe(
      "\\textbraceleft{}x\\textbraceright{} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}",
    );
    expect(escapeLatex("a--b")).toBe("a-{}-b");
    expect(escapeLatex("Ünï 論文")).toBe("Ünï 論文");
  });
});

describe("toBibtex", () => {
  it("parses back to the same fields, whatever the title holds", () => {
    for (const title of TRICKY_TITLES) {
      const d = detail(title);
      const bib = toBibtex(d, BASE);
      expect(bracesBalanced(bib), bib).toBe(true);
      const entry = parseOne(bib);
      expect(entry.type).toBe("misc");
      expect(entry.key).toBe("quire:2611.00042");
      expect(entry.fields.title, title).toBe(squash(title));
      expect(entry.fields.abstract).toBe(squash(d.paper.abstract));
      expect(entry.fields.author).toEqual([{ name: "claude-opus-4.5" }]);
      expect(entry.fields.year).toBe("2026");
      expect(entry.fields.month).toBe("9");
      expect(entry.fields.url).toBe(`${BASE}/papers/2611.00042`);
      expect(entry.fields.note).toBe("AI-generated; submitted by @alice_b; Quire id 2611.00042v2");
      expect(entry.fields.eprint).toBe("2611.00042v2");
      expect(entry.fields.archiveprefix).toBe("Quire");
      expect(entry.fields.version).toBe("2");
      expect([...(entry.fields.keywords ?? [])].sort()).toEqual(
        ["floating_point", "números", "数值分析"].sort(),
      );
    }
  });

  it("keeps a model name with special characters as one literal author", () => {
    const d = detail("T", { authors: [{ name: "GPT_5 & {co}", kind: "ai", role: "author" }] });
    const entry = parseOne(toBibtex(d, BASE));
    expect(entry.fields.author).toEqual([{ name: "GPT_5 & {co}" }]);
  });

  it("cites a requested version under its own key, date and URL", () => {
    const d = detail("T");
    const old: PaperDetail = {
      ...d,
      version: { ...d.version, version: 1, created_at: "2026-09-03T09:15:00.000Z" },
    };
    const entry = parseOne(toBibtex(old, BASE));
    expect(entry.key).toBe("quire:2611.00042v1");
    expect(entry.fields.url).toBe(`${BASE}/papers/2611.00042v1`);
    expect(entry.fields.note).toContain("Quire id 2611.00042v1");
    const pinned = parseOne(toBibtex(d, BASE, { versioned: true }));
    expect(pinned.key).toBe("quire:2611.00042v2");
    expect(pinned.fields.month).toBe("11");
  });
});

describe("toRis", () => {
  it("is one CRLF record of `XX  - value` lines from TY to ER", () => {
    for (const title of TRICKY_TITLES) {
      const ris = toRis(detail(title), BASE);
      expect(ris.endsWith("ER  - \r\n")).toBe(true);
      expect(ris.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
      const lines = ris.slice(0, -2).split("\r\n");
      expect(lines[0]).toBe("TY  - GEN");
      expect(lines.at(-1)).toBe("ER  - ");
      for (const line of lines.slice(0, -1)) expect(line).toMatch(/^[A-Z][A-Z0-9] {2}- \S/);
      const tags = (tag: string) =>
        lines.filter((l) => l.startsWith(`${tag}  - `)).map((l) => l.slice(6));
      expect(tags("TI")).toEqual([squash(title)]);
      expect(tags("AU")).toEqual(["claude-opus-4.5"]);
      expect(tags("PY")).toEqual(["2026"]);
      expect(tags("DA")).toEqual(["2026/09/03/"]);
      expect(tags("UR")).toEqual([`${BASE}/papers/2611.00042`]);
      expect(tags("KW")).toEqual(["floating_point", "números", "数值分析"]);
      expect(tags("N1")).toEqual(["AI-generated; submitted by @alice_b; Quire id 2611.00042v2"]);
      expect(tags("ID")).toEqual(["quire:2611.00042"]);
      expect(tags("AB")).toHaveLength(1);
    }
  });
});

describe("toCslJson", () => {
  it("is an array of one `article` item with literal authors", () => {
    const d = detail(TRICKY_TITLES[0] as string);
    const items = JSON.parse(JSON.stringify(toCslJson(d, BASE)));
    expect(items).toEqual([
      {
        id: "quire:2611.00042",
        type: "article",
        title: d.version.title,
        author: [{ literal: "claude-opus-4.5" }],
        issued: { "date-parts": [[2026, 9, 3]] },
        URL: `${BASE}/papers/2611.00042`,
        abstract: d.version.abstract,
        keyword: "floating_point, números, 数值分析",
        note: "AI-generated; submitted by @alice_b; Quire id 2611.00042v2",
        version: "2",
        number: "2611.00042v2",
        publisher: "Quire",
        genre: "AI-generated paper",
        language: "en",
      },
    ]);
  });
});

describe("citationMetaTags", () => {
  it("gives Google Scholar's Highwire tags, one per author, dates as YYYY/MM/DD", () => {
    const tags = citationMetaTags(detail("Fish & Chips"), BASE);
    expect(tags).toEqual([
      { name: "citation_title", content: "Fish & Chips" },
      { name: "citation_author", content: "claude-opus-4.5" },
      { name: "citation_publication_date", content: "2026/09/03" },
      { name: "citation_online_date", content: "2026/11/03" },
      { name: "citation_abstract_html_url", content: `${BASE}/papers/2611.00042` },
      { name: "citation_language", content: "en" },
      { name: "citation_keywords", content: "floating_point; números; 数值分析" },
      { name: "citation_publisher", content: "Quire" },
    ]);
    expect(tags.some((t) => t.name === "citation_pdf_url")).toBe(false);
  });
});
