import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.ts";

describe("renderMarkdown", () => {
  it("shows raw HTML as text and drops executable link targets", () => {
    const html = renderMarkdown(
      '<b onclick="x()">hi</b> [a](javascript:alert(1)) [b](https://x.org)',
    );
    expect(html).toContain("&lt;b onclick=&quot;x()&quot;&gt;hi&lt;/b&gt;");
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('<a href="https://x.org" rel="nofollow ugc noopener">b</a>');
  });

  it("moves the shallowest heading to topHeading and keeps the others in step", () => {
    expect(renderMarkdown("## A\n\n### B\n\n## C", { topHeading: 3 })).toBe(
      "<h3>A</h3>\n<h4>B</h4>\n<h3>C</h3>\n",
    );
    expect(renderMarkdown("# A\n\n###### F", { topHeading: 3 })).toBe("<h3>A</h3>\n<h6>F</h6>\n");
    expect(renderMarkdown("## A")).toBe("<h2>A</h2>\n");
  });

  it("makes code blocks focusable, since they scroll sideways on narrow screens", () => {
    expect(renderMarkdown("```\nx = 1\n```")).toBe(
      '<pre tabindex="0"><code>x = 1\n</code></pre>\n',
    );
    expect(renderMarkdown("    y = 2\n")).toBe('<pre tabindex="0"><code>y = 2\n</code></pre>\n');
  });

  it("puts each table in a focusable box that scrolls sideways on its own", () => {
    const html = renderMarkdown("| a | b |\n|---|---|\n| 1 | 2 |");
    expect(html.startsWith('<div class="table-scroll" tabindex="0">\n<table>\n<thead>')).toBe(true);
    expect(html.endsWith("</tbody>\n</table>\n</div>\n")).toBe(true);
  });

  it("highlights fenced code in a language highlight.js knows, and leaves other code plain", () => {
    expect(renderMarkdown("```python\nreturn x < 2  # two\n```")).toBe(
      '<pre tabindex="0"><code class="language-python"><span class="hljs-keyword">return</span> x &lt; ' +
        '<span class="hljs-number">2</span>  <span class="hljs-comment"># two</span>\n</code></pre>\n',
    );
    expect(renderMarkdown("```Julia\nf(x) = 2x\n```")).toContain('<span class="hljs-number">');
    expect(renderMarkdown("```no-such-language\nif a < b\n```")).toBe(
      '<pre tabindex="0"><code class="language-no-such-language">if a &lt; b\n</code></pre>\n',
    );
    expect(renderMarkdown("```\nif a < b\n```")).toBe(
      '<pre tabindex="0"><code>if a &lt; b\n</code></pre>\n',
    );
  });
});

describe("tables", () => {
  it("marks a column of numbers so it is right-aligned, and leaves a column of words alone", () => {
    const html = renderMarkdown(
      [
        "| Method | Error | Time (s) | Note |",
        "|---|---|---|---|",
        "| Kahan | 1.2e-16 | 3,120 | compensated |",
        "| naive | **4.5 ± 0.3** | — | 12 runs |",
        "| pairwise | −0.5% | 98 | 7 |",
      ].join("\n"),
    );
    expect(html).toContain('<th class="num">Error</th>');
    expect(html).toContain('<th class="num">Time (s)</th>');
    expect(html).toContain('<td class="num">1.2e-16</td>');
    expect(html).toContain('<td class="num">—</td>');
    expect(html).toContain("<th>Method</th>");
    expect(html).toContain("<td>12 runs</td>");
    expect(html).toContain("<td>Kahan</td>");
  });

  it("turns the author's column alignment into classes, since the pages allow no inline style", () => {
    const html = renderMarkdown("| a | b | c |\n|:--|:-:|--:|\n| x | y | z |");
    expect(html).not.toContain("style=");
    expect(html).toContain('<th class="align-left">a</th>');
    expect(html).toContain('<td class="align-center">y</td>');
    expect(html).toContain('<td class="align-right">z</td>');
  });
});
