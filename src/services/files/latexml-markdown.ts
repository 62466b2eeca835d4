/**
 * @module LaTeXML's HTML turned into the Markdown the paper page already renders: sections as
 * numbered headings, equations as TeX with `\tag` (typeset as MathML by the page), figures as
 * captioned images, tables as tables with a `Table:` caption, theorems, footnotes and the
 * bibliography as paragraphs; every numbered thing gets an anchor (`{#figure-1}`), and every
 * `\ref`/`\cite` a link to it (docs/files.md). Keeping the body Markdown keeps search,
 * chunks, screening, diffs and every export working on LaTeX papers unchanged.
 */
import { type DefaultTreeAdapterMap, parse } from "parse5";

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

export interface LatexDocument {
  title: string;
  abstract: string;
  body: string;
  /** Image paths the body names, in order (relative to the converter's output folder). */
  images: string[];
}

function isElement(node: Node): node is Element {
  return "tagName" in node;
}

function attr(el: Element, name: string): string {
  return el.attrs.find((a) => a.name === name)?.value ?? "";
}

function classes(el: Element): string[] {
  return attr(el, "class").split(/\s+/).filter(Boolean);
}

function hasClass(el: Element, name: string): boolean {
  return classes(el).includes(name);
}

function children(el: Node): Element[] {
  return "childNodes" in el ? el.childNodes.filter(isElement) : [];
}

function find(el: Node, test: (e: Element) => boolean): Element | null {
  if (!("childNodes" in el)) return null;
  for (const child of el.childNodes) {
    if (!isElement(child)) continue;
    if (test(child)) return child;
    const deeper = find(child, test);
    if (deeper) return deeper;
  }
  return null;
}

function findAll(el: Node, test: (e: Element) => boolean, out: Element[] = []): Element[] {
  if (!("childNodes" in el)) return out;
  for (const child of el.childNodes) {
    if (!isElement(child)) continue;
    if (test(child)) out.push(child);
    findAll(child, test, out);
  }
  return out;
}

function textOf(node: Node): string {
  if (node.nodeName === "#text") return (node as DefaultTreeAdapterMap["textNode"]).value;
  if (isElement(node) && node.tagName === "math") return `$${texOf(node)}$`;
  return "childNodes" in node ? node.childNodes.map(textOf).join("") : "";
}

/** The TeX LaTeXML keeps beside its MathML (`--mathtex`), without its `%` line breaks. */
function texOf(math: Element): string {
  const annotation = find(math, (e) => e.tagName === "annotation");
  const source = annotation ? textOf(annotation) : attr(math, "alttext");
  return source
    .replace(/%\r?\n/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Markdown's and the TeX plugin's specials, escaped in running text. */
function escapeText(text: string): string {
  return text.replace(/[\\`*_[\]<>$|#~]/g, (c) => `\\${c}`).replace(/\s+/g, " ");
}

/** The number LaTeXML gave a thing (`1`, `2.3`, `A`), from its `ltx_tag`. */
function tagOf(el: Element): string {
  const tag = find(el, (e) => hasClass(e, "ltx_tag"));
  return tag
    ? textOf(tag)
        .replace(/^(Figure|Table|Theorem|Lemma)\s*/i, "")
        .replace(/[^A-Za-z0-9.]+/g, "")
    : "";
}

const SUPERSCRIPT: Record<string, string> = {
  "0": "⁰",
  "1": "¹",
  "2": "²",
  "3": "³",
  "4": "⁴",
  "5": "⁵",
  "6": "⁶",
  "7": "⁷",
  "8": "⁸",
  "9": "⁹",
};

class Converter {
  /** LaTeXML id → the anchor it gets in Markdown. */
  readonly anchors = new Map<string, string>();
  readonly images: string[] = [];
  readonly notes: string[] = [];

  constructor(root: Node) {
    this.collectAnchors(root);
  }

  private collectAnchors(root: Node): void {
    const used = new Set<string>();
    const name = (id: string, anchor: string) => {
      if (!id || !anchor || used.has(anchor)) return;
      used.add(anchor);
      this.anchors.set(id, anchor);
    };
    for (const el of findAll(root, (e) => attr(e, "id") !== "")) {
      const id = attr(el, "id");
      const c = classes(el);
      if (
        el.tagName === "section" &&
        c.some((x) => /^ltx_(sub)*section$|^ltx_appendix$|^ltx_paragraph$/.test(x))
      ) {
        const heading = children(el).find((h) => /^h[1-6]$/.test(h.tagName));
        const tag = heading ? tagOf(heading) : "";
        name(id, tag ? `section-${tag}` : `section-${id.replace(/[^A-Za-z0-9]+/g, "-")}`);
      } else if (el.tagName === "figure" && c.includes("ltx_table")) {
        name(id, `table-${tagOf(find(el, (e) => e.tagName === "figcaption") ?? el)}`);
      } else if (el.tagName === "figure") {
        name(id, `figure-${tagOf(find(el, (e) => e.tagName === "figcaption") ?? el)}`);
      } else if (c.includes("ltx_equation") && (el.tagName === "table" || el.tagName === "tr")) {
        const tag = tagOf(el);
        if (tag) name(id, `eq-${tag}`);
      } else if (c.includes("ltx_theorem")) {
        const title = find(el, (e) => hasClass(e, "ltx_tag"));
        const label = title ? textOf(title).trim() : "";
        const m = /^([A-Za-z]+)\s*([A-Za-z0-9.]+)?/.exec(label);
        if (m) name(id, `${m[1]?.toLowerCase()}-${m[2] ?? id.replace(/\D+/g, "")}`);
      } else if (c.includes("ltx_bibitem")) {
        name(id, `bib-${id.replace(/^bib\.bib/, "")}`);
      } else if (c.includes("ltx_role_footnote")) {
        name(id, `note-${id.replace(/\D+/g, "")}`);
      }
    }
  }

  private anchor(id: string): string {
    const a = this.anchors.get(id);
    return a ? ` {#${a}}` : "";
  }

  // ---- inline ----

  inline(node: Node): string {
    if (node.nodeName === "#text")
      return escapeText((node as DefaultTreeAdapterMap["textNode"]).value);
    if (!isElement(node)) return "";
    const el = node;
    const c = classes(el);
    if (el.tagName === "math") {
      const tex = texOf(el);
      return tex ? `$${tex}$` : "";
    }
    if (c.includes("ltx_role_footnote")) return this.footnote(el);
    if (c.includes("ltx_note_mark")) return "";
    if (el.tagName === "a") {
      const href = attr(el, "href");
      const text = this.inlineChildren(el).trim();
      if (href.startsWith("#")) {
        const anchor = this.anchors.get(href.slice(1));
        return anchor && text ? `[${text}](#${anchor})` : text;
      }
      if (/^https?:\/\//i.test(href) && text) return `[${text}](<${href.replace(/[<>\s]/g, "")}>)`;
      return text;
    }
    if (el.tagName === "br") return " ";
    if (el.tagName === "img") return "";
    const inner = this.inlineChildren(el);
    if (!inner.trim()) return inner;
    if (el.tagName === "em" || el.tagName === "i" || c.includes("ltx_font_italic"))
      return wrap(inner, "*");
    if (el.tagName === "strong" || el.tagName === "b" || c.includes("ltx_font_bold"))
      return wrap(inner, "**");
    if (el.tagName === "code" || c.includes("ltx_font_typewriter")) {
      const plain = textOf(el).replace(/`/g, "'");
      return `\`${plain}\``;
    }
    return inner;
  }

  private inlineChildren(el: Element): string {
    return el.childNodes.map((n) => this.inline(n)).join("");
  }

  private footnote(el: Element): string {
    const n = this.notes.length + 1;
    const content = find(el, (e) => hasClass(e, "ltx_note_content"));
    const text = content
      ? content.childNodes
          .filter(
            (x) => !(isElement(x) && (hasClass(x, "ltx_note_mark") || hasClass(x, "ltx_tag"))),
          )
          .map((x) => this.inline(x))
          .join("")
          .trim()
      : "";
    const mark = String(n)
      .split("")
      .map((d) => SUPERSCRIPT[d] ?? d)
      .join("");
    this.notes.push(`${mark} ${text} {#note-${n}}`);
    return `[${mark}](#note-${n})`;
  }

  // ---- blocks ----

  blocks(el: Element, out: string[], level: number): void {
    for (const child of el.childNodes) {
      if (child.nodeName === "#text") {
        const t = (child as DefaultTreeAdapterMap["textNode"]).value.trim();
        if (t) out.push(escapeText(t));
        continue;
      }
      if (isElement(child)) this.block(child, out, level);
    }
  }

  block(el: Element, out: string[], level: number): void {
    const c = classes(el);
    const tag = el.tagName;
    if (
      c.includes("ltx_title_document") ||
      c.includes("ltx_authors") ||
      c.includes("ltx_dates") ||
      c.includes("ltx_abstract") ||
      c.includes("ltx_page_footer") ||
      c.includes("ltx_keywords") ||
      c.includes("ltx_classification") ||
      tag === "footer" ||
      tag === "script" ||
      tag === "style"
    ) {
      return;
    }
    if (tag === "section") {
      const heading = children(el).find((h) => /^h[1-6]$/.test(h.tagName));
      const depth = c.includes("ltx_bibliography") ? 2 : Math.min(6, level);
      if (heading) {
        const id = c.includes("ltx_bibliography")
          ? " {#section-references}"
          : this.anchor(attr(el, "id"));
        out.push(`${"#".repeat(depth)} ${this.inlineChildren(heading).trim()}${id}`);
      }
      for (const child of children(el)) {
        if (child !== heading) this.block(child, out, level + 1);
      }
      return;
    }
    if (/^h[1-6]$/.test(tag)) {
      out.push(`${"#".repeat(Math.min(6, level))} ${this.inlineChildren(el).trim()}`);
      return;
    }
    if (tag === "p") {
      const text = this.inlineChildren(el).trim();
      if (text) out.push(text);
      return;
    }
    if (tag === "table" && (c.includes("ltx_equation") || c.includes("ltx_equationgroup"))) {
      this.equations(el, out);
      return;
    }
    if (c.includes("ltx_theorem")) {
      this.theorem(el, out, level);
      return;
    }
    if (c.includes("ltx_proof")) {
      const title = children(el).find((h) => /^h[1-6]$/.test(h.tagName));
      const body: string[] = [];
      for (const child of children(el)) if (child !== title) this.block(child, body, level + 1);
      const label = title ? `*${textOf(title).trim()}*` : "*Proof.*";
      out.push(...prefixFirst(body, label));
      return;
    }
    if (tag === "figure" && c.includes("ltx_table")) {
      this.table(el, out);
      return;
    }
    if (tag === "figure") {
      this.figure(el, out);
      return;
    }
    if (c.includes("ltx_biblist")) {
      for (const item of children(el)) {
        const label = find(item, (e) => hasClass(e, "ltx_tag"));
        // LaTeXML's "Cited by: §1" back-links (BibTeX entries) are navigation, not the entry.
        const text = children(item)
          .filter((x) => x !== label && !hasClass(x, "ltx_bib_cited"))
          .map((x) => this.inline(x))
          .join(" ")
          .replace(/\s+/g, " ")
          .trim();
        const mark = label ? escapeText(textOf(label).trim()) : "";
        out.push(`${mark ? `${mark} ` : ""}${text}${this.anchor(attr(item, "id"))}`);
      }
      return;
    }
    if (tag === "ul" || tag === "ol") {
      out.push(this.list(el, 0));
      return;
    }
    if (tag === "pre" || c.includes("ltx_verbatim") || c.includes("ltx_listing")) {
      const code = textOf(el).replace(/\n+$/, "");
      out.push(`\`\`\`\n${code.replace(/```/g, "``\u200b`")}\n\`\`\``);
      return;
    }
    if (c.includes("ltx_bibitem") || tag === "li") {
      out.push(this.inlineChildren(el).trim());
      return;
    }
    if (tag === "table") {
      this.tabular(el, out);
      return;
    }
    this.blocks(el, out, level);
  }

  private equations(el: Element, out: string[]): void {
    const rows = findAll(el, (e) => e.tagName === "tr" && hasClass(e, "ltx_eqn_row"));
    for (const row of rows.length > 0 ? rows : [el]) {
      const maths = findAll(row, (e) => e.tagName === "math");
      if (maths.length === 0) continue;
      const tex = maths.map(texOf).join(" ");
      const tagEl = find(row, (e) => hasClass(e, "ltx_tag_equation"));
      const tag = tagEl
        ? textOf(tagEl)
            .trim()
            .replace(/^\((.*)\)$/, "$1")
        : "";
      out.push(`$$\n${tex}${tag ? ` \\tag{${tag}}` : ""}\n$$`);
    }
  }

  private theorem(el: Element, out: string[], level: number): void {
    const title = children(el).find((h) => /^h[1-6]$/.test(h.tagName));
    const label = title ? textOf(title).replace(/\s+/g, " ").trim() : "";
    const body: string[] = [];
    for (const child of children(el)) if (child !== title) this.block(child, body, level + 1);
    const anchored = prefixFirst(body, label ? `**${escapeText(label)}**` : "");
    const id = this.anchor(attr(el, "id"));
    if (id) {
      const at = anchored.findIndex((b) => !b.startsWith("$$"));
      if (at >= 0) anchored[at] = `${anchored[at]}${id}`;
    }
    out.push(...anchored);
  }

  private figure(el: Element, out: string[]): void {
    const caption = find(el, (e) => e.tagName === "figcaption");
    const images = findAll(el, (e) => e.tagName === "img");
    const nested = findAll(el, (e) => e.tagName === "figure" && e !== el);
    const text = caption
      ? this.inlineChildren(caption)
          .trim()
          .replace(/^Figure\s+/, "Figure ")
      : "";
    const id = this.anchor(attr(el, "id"));
    if (images.length === 0) {
      if (text) out.push(`${text}${id}`);
      return;
    }
    images.forEach((img, i) => {
      const src = attr(img, "src");
      if (!src || src.startsWith("data:")) return;
      this.images.push(src);
      const last = i === images.length - 1;
      const own =
        nested.length > 0 ? nested.find((f) => findAll(f, (e) => e === img).length > 0) : null;
      const sub = own ? find(own, (e) => e.tagName === "figcaption") : null;
      const label = last && !sub ? text : sub ? this.inlineChildren(sub).trim() : "";
      out.push(`![${label.replace(/\n/g, " ")}](<${src}>)${last ? id : ""}`);
    });
    if (nested.length > 0 && text) out.push(`${text}${id}`);
  }

  private table(el: Element, out: string[]): void {
    const caption = find(el, (e) => e.tagName === "figcaption");
    const tabular = find(el, (e) => e.tagName === "table");
    const text = caption ? this.inlineChildren(caption).trim() : "";
    out.push(`Table: ${text}${this.anchor(attr(el, "id"))}`);
    if (tabular) this.tabular(tabular, out);
    else this.blocks(el, out, 6);
  }

  private tabular(el: Element, out: string[]): void {
    const rows = findAll(el, (e) => e.tagName === "tr").map((tr) =>
      children(tr)
        .filter((td) => td.tagName === "td" || td.tagName === "th")
        .flatMap((td) => {
          const cell = this.inlineChildren(td).trim().replace(/\|/g, "\\|") || " ";
          const span = Number(attr(td, "colspan")) || 1;
          return [cell, ...Array.from({ length: Math.min(span, 20) - 1 }, () => " ")];
        }),
    );
    if (rows.length === 0) return;
    const width = Math.max(...rows.map((r) => r.length));
    const line = (r: string[]) => `| ${[...r, ...Array(width - r.length).fill(" ")].join(" | ")} |`;
    const [head, ...rest] = rows;
    out.push([line(head ?? []), `|${" --- |".repeat(width)}`, ...rest.map(line)].join("\n"));
  }

  private list(el: Element, depth: number): string {
    const ordered = el.tagName === "ol";
    const lines: string[] = [];
    let n = 1;
    for (const li of children(el).filter((x) => x.tagName === "li")) {
      const parts: string[] = [];
      const sublists: string[] = [];
      for (const child of li.childNodes) {
        if (isElement(child) && (child.tagName === "ul" || child.tagName === "ol")) {
          sublists.push(this.list(child, depth + 1));
        } else if (isElement(child) && hasClass(child, "ltx_tag")) {
          // the bullet or number LaTeX drew
        } else if (isElement(child)) {
          const nested = findAll(child, (e) => e.tagName === "ul" || e.tagName === "ol");
          if (nested.length > 0) {
            const inner: string[] = [];
            this.block(child, inner, 6);
            parts.push(inner.join(" "));
          } else
            parts.push(
              isElement(child) && child.tagName !== "span"
                ? blockText(this, child)
                : this.inline(child),
            );
        } else parts.push(this.inline(child));
      }
      const indent = "  ".repeat(depth);
      lines.push(
        `${indent}${ordered ? `${n++}.` : "-"} ${parts.join(" ").replace(/\s+/g, " ").trim()}`,
      );
      lines.push(...sublists);
    }
    return lines.join("\n");
  }
}

function blockText(converter: Converter, el: Element): string {
  const inner: string[] = [];
  converter.block(el, inner, 6);
  return inner.join(" ");
}

function wrap(text: string, mark: string): string {
  const lead = /^\s*/.exec(text)?.[0] ?? "";
  const trail = /\s*$/.exec(text)?.[0] ?? "";
  return `${lead}${mark}${text.trim()}${mark}${trail}`;
}

/** Puts a label before the first paragraph of a block (a theorem's or proof's name). */
function prefixFirst(blocks: string[], label: string): string[] {
  if (!label) return blocks;
  const at = blocks.findIndex((b) => !b.startsWith("$$") && !b.startsWith("|"));
  if (at < 0) return [label, ...blocks];
  const copy = [...blocks];
  copy[at] = `${label} ${copy[at]}`;
  return copy;
}

/** Converts LaTeXML's HTML5 output (with `--mathtex`) to a title, an abstract and a body. */
export function latexmlToMarkdown(html: string): LatexDocument {
  const doc = parse(html);
  const article =
    find(doc, (e) => e.tagName === "article") ?? find(doc, (e) => e.tagName === "body");
  if (!article) return { title: "", abstract: "", body: "", images: [] };
  const converter = new Converter(article);
  const titleEl = find(article, (e) => hasClass(e, "ltx_title_document"));
  const abstractEl = find(article, (e) => hasClass(e, "ltx_abstract"));
  const abstract: string[] = [];
  if (abstractEl) {
    for (const child of children(abstractEl)) {
      if (!/^h[1-6]$/.test(child.tagName)) converter.block(child, abstract, 3);
    }
  }
  const body: string[] = [];
  converter.blocks(article, body, 2);
  if (converter.notes.length > 0) body.push("## Notes {#section-notes}", ...converter.notes);
  return {
    title: titleEl ? textOf(titleEl).replace(/\s+/g, " ").trim() : "",
    abstract: abstract.join("\n\n"),
    body: body.filter((b) => b.trim()).join("\n\n"),
    images: converter.images,
  };
}
