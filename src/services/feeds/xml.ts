/** @module Writing XML by hand, safely: escaping, XML 1.0 character filtering, elements. */

/**
 * True for code points XML 1.0 allows and does not discourage. Titles and abstracts are
 * written by models and pasted by people, so they can hold NULs, form feeds, lone
 * surrogates or C1 controls; any one of those makes the whole document unparseable (or
 * illegal, for U+FFFE/U+FFFF), and a harvester then drops the whole page, not one record.
 */
function isXmlChar(cp: number): boolean {
  if (cp === 0x9 || cp === 0xa || cp === 0xd) return true;
  if (cp < 0x20) return false;
  if (cp >= 0x7f && cp <= 0x9f) return false;
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  if (cp === 0xfffe || cp === 0xffff) return false;
  return cp <= 0x10ffff;
}

/** Removes every character XML 1.0 forbids (and C1 controls, which it discourages). */
export function stripInvalidXmlChars(value: string): string {
  let clean = true;
  for (const ch of value) {
    if (!isXmlChar(ch.codePointAt(0) ?? 0)) {
      clean = false;
      break;
    }
  }
  if (clean) return value;
  let out = "";
  for (const ch of value) if (isXmlChar(ch.codePointAt(0) ?? 0)) out += ch;
  return out;
}

/** Character data: filtered, then `&`, `<` and `>` escaped (the last also guards `]]>`). */
export function escapeText(value: string): string {
  return stripInvalidXmlChars(value)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

/**
 * Attribute values: as text, plus both quote kinds, and tab/newline/CR as character
 * references so attribute-value normalisation does not turn them into spaces.
 */
export function escapeAttribute(value: string): string {
  return escapeText(value)
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;")
    .replaceAll("\t", "&#9;")
    .replaceAll("\n", "&#10;")
    .replaceAll("\r", "&#13;");
}

export type Attributes = Record<string, string | number | null | undefined>;

function renderAttributes(attributes: Attributes): string {
  let out = "";
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined) continue;
    out += ` ${name}="${escapeAttribute(String(value))}"`;
  }
  return out;
}

/** An element whose content is already-built XML (children); empty content self-closes. */
export function element(
  name: string,
  attributes: Attributes = {},
  children: string[] = [],
): string {
  const open = `${name}${renderAttributes(attributes)}`;
  return children.length === 0 ? `<${open}/>` : `<${open}>${children.join("")}</${name}>`;
}

/** An element holding escaped text. */
export function textElement(name: string, text: string, attributes: Attributes = {}): string {
  return `<${name}${renderAttributes(attributes)}>${escapeText(text)}</${name}>`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
