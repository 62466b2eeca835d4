/** @module TeX in paper Markdown: typeset as MathML, bad TeX shown as source, dollars in prose left alone. */
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.ts";
import { renderTex } from "./markdown-math.ts";

const MATHML = '<math xmlns="http://www.w3.org/1998/Math/MathML"';

describe("TeX in paper Markdown", () => {
  it("typesets inline $…$ and \\(…\\) as inline MathML that keeps its TeX as an annotation", () => {
    for (const source of ["Energy $E = mc^2$ holds.", "Energy \\(E = mc^2\\) holds."]) {
      const html = renderMarkdown(source);
      expect(html).toContain(`<p>Energy <span class="katex">${MATHML}><semantics>`);
      expect(html).toContain("<msup><mi>c</mi><mn>2</mn></msup>");
      expect(html).toContain('<annotation encoding="application/x-tex">E = mc^2</annotation>');
      expect(html).not.toContain('display="block"');
    }
  });

  it("typesets $$…$$ and \\[…\\] blocks as display MathML in a box that scrolls on its own", () => {
    for (const source of ["$$\n\\sum_{i=1}^{n} x_i\n$$", "\\[\n\\sum_{i=1}^{n} x_i\n\\]"]) {
      const html = renderMarkdown(`Before.\n\n${source}\n\nAfter.`);
      expect(html).toContain(
        `<div class="math-display" tabindex="0"><span class="katex">${MATHML} display="block">`,
      );
      expect(html).toContain("<p>Before.</p>");
      expect(html).toContain("<p>After.</p>");
      expect(html).toContain("<munderover><mo>∑</mo>");
    }
  });

  it("shows TeX that does not parse as its source, without delimiters, and never throws", () => {
    expect(renderMarkdown("bad $\\frac{1}{$ here")).toBe(
      '<p>bad <code class="math-source">\\frac{1}{</code> here</p>\n',
    );
    expect(renderMarkdown("$$\n\\begin{matrix} a & <b>\n$$")).toBe(
      '<div class="math-display" tabindex="0"><code class="math-source">\\begin{matrix} a &amp; &lt;b&gt;</code></div>\n',
    );
    expect(renderTex("\\undefinedcommand{x}", false)).toContain("\\undefinedcommand");
  });

  it("leaves prices, code spans and code blocks alone", () => {
    expect(renderMarkdown("Costs $5 and $10 each.")).toBe("<p>Costs $5 and $10 each.</p>\n");
    expect(renderMarkdown("`$x$` stays")).toBe("<p><code>$x$</code> stays</p>\n");
    expect(renderMarkdown("```\n$x$\n```")).not.toContain("<math");
  });

  it("keeps links and markup out of formulas (KaTeX's trust is off)", () => {
    const html = renderMarkdown(
      "$\\href{javascript:alert(1)}{x} \\htmlClass{a}{b} \\url{https://x.org}$",
    );
    expect(html).toContain("<math");
    expect(html).not.toMatch(/href=|<a |class="a"/);
  });
});
