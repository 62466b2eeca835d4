/** @module Unit tests for hand-written XML: escaping and XML 1.0 character filtering. */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { element, escapeAttribute, escapeText, stripInvalidXmlChars, textElement } from "./xml.ts";

const parse = (xml: string) =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    trimValues: false,
    parseTagValue: false,
    parseAttributeValue: false,
  }).parse(xml) as Record<string, Record<string, string>>;

describe("stripInvalidXmlChars", () => {
  it("removes C0 controls (but not tab, LF, CR), DEL and C1, lone surrogates, U+FFFE/U+FFFF", () => {
    const bad = [0x0, 0x1, 0x8, 0xb, 0xc, 0x1f, 0x7f, 0x85, 0x9f, 0xfffe, 0xffff];
    const input = `a${bad.map((cp) => String.fromCharCode(cp)).join("")}b\t\n\rc\ud800d\udc00e`;
    expect(stripInvalidXmlChars(input)).toBe("ab\t\n\rcde");
  });

  it("keeps everything else, astral characters included, and returns clean input as is", () => {
    const input = "naïve café — 数学 🧪 \u00a0 \ue000 \ufffd";
    expect(stripInvalidXmlChars(input)).toBe(input);
  });
});

describe("escaping", () => {
  it("escapes markup in text, including the ]]> sequence", () => {
    expect(escapeText(`a<b>&c]]>"'`)).toBe(`a&lt;b&gt;&amp;c]]&gt;"'`);
  });

  it("escapes quotes and whitespace in attributes so they survive normalisation", () => {
    expect(escapeAttribute(`"x" 'y' <z>&\t\n\r`)).toBe(
      "&quot;x&quot; &apos;y&apos; &lt;z&gt;&amp;&#9;&#10;&#13;",
    );
  });

  it("round-trips hostile text and attributes through a parser", () => {
    const hostile = `Tom & "Jerry" <script>alert('x')</script> ]]> \u0003end\u0000`;
    const xml = element("root", { title: hostile }, [textElement("t", hostile)]);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = parse(xml);
    const clean = `Tom & "Jerry" <script>alert('x')</script> ]]> end`;
    expect(parsed.root?.t).toBe(clean);
    expect(parsed.root?.["@title"]).toBe(clean);
  });

  it("leaves out null and undefined attributes and self-closes empty elements", () => {
    expect(element("link", { rel: "self", type: undefined, hreflang: null, length: 3 })).toBe(
      '<link rel="self" length="3"/>',
    );
  });
});
