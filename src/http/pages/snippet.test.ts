/** @module Tests for search snippets: syntax removed, math and code exact, cuts between words. */
import { describe, expect, it } from "vitest";
import { snippetParts } from "./snippet.ts";

const text = (quote: string, highlights: [number, number][] = [], max = 400) =>
  snippetParts(quote, highlights, max)
    .map((p) => (p.mark ? `[${p.text}]` : p.text))
    .join("");

describe("snippetParts", () => {
  it("drops Markdown syntax a reader does not read", () => {
    expect(text("## Method\n\nWe use **bold** and _emphasis_ and `code` and [a link](/x).")).toBe(
      "Method We use bold and emphasis and code and a link.",
    );
    expect(text("| a | b |\n|---|---|\n| 1 | 2 |")).toBe("a b 1 2");
  });

  it("shows math exactly as written, underscores, carets and pipes included", () => {
    for (const math of [
      "$\\sum_{i=1}^{n} |x_i|$",
      "$$\\mathbb{E}[X] = \\sum_{k} k \\, p_k$$",
      "\\(a_{ij} \\mid b\\)",
      "\\[\\|v\\|_2 \\le 1\\]",
    ]) {
      expect(text(`The bound ${math} holds.`)).toBe(`The bound ${math} holds.`);
    }
  });

  it("keeps underscores inside words and before braces, and pipes outside tables", () => {
    expect(text("Set snake_case and x_1 and \\sum_{i} and a|b.")).toBe(
      "Set snake_case and x_1 and \\sum_{i} and a|b.",
    );
    expect(text("Use `a_b | c*d` here.")).toBe("Use a_b | c*d here.");
  });

  it("cuts between words and keeps the first highlight whole", () => {
    const quote = `${"word ".repeat(10)}estimation of runoff in ${"basin ".repeat(10)}`;
    const at = quote.indexOf("estimation");
    const words = new Set(["word", "[estimation]", "of", "runoff", "in", "basin"]);
    for (let max = 14; max < quote.length + 5; max++) {
      const shown = text(quote, [[at, at + "estimation".length]], max);
      expect(shown, `max ${max}`).toContain("[estimation]");
      for (const w of shown.replace(/…/g, " ").split(" ").filter(Boolean)) {
        expect(words.has(w), `"${w}" at max ${max}: ${shown}`).toBe(true);
      }
    }
  });
});
