/**
 * @module The one place request bodies are admitted, for every front end: the size cap
 * (refusing an oversized body without breaking keep-alive) and the UTF-8 check (a body's
 * bytes are kept or refused, never replaced with U+FFFD).
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { FieldIssue } from "../services/errors.ts";

/** The largest request body any front end reads: 256 KiB. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * Caps a request body at `maxSize` bytes; `onError` answers (413) when it is over.
 *
 * A declared `Content-Length` is checked before anything touches the body. That matters:
 * once the body is opened as a web stream (as `hono/body-limit` does first), the Node adapter
 * cannot discard the unread rest after an early answer (the stream pauses the socket again),
 * so it destroys the connection half a second later, and a client that reuses it, as the
 * 413's `Connection: keep-alive` invites, gets a reset. Refused before the stream exists, the
 * unread body is drained by Node and the connection stays usable. A chunked body (no length)
 * is counted as it streams; over the cap, that answer closes the connection.
 */
export function limitBody<C extends Context>(options: {
  maxSize: number;
  onError: (c: C) => Response | Promise<Response>;
}): MiddlewareHandler {
  const streaming = bodyLimit({
    maxSize: options.maxSize,
    onError: async (c) => {
      const res = await options.onError(c as C);
      res.headers.set("connection", "close");
      return res;
    },
  });
  return async (c, next) => {
    const declared = c.req.header("content-length");
    if (declared !== undefined && c.req.header("transfer-encoding") === undefined) {
      const size = Number(declared);
      if (!Number.isSafeInteger(size) || size < 0 || size > options.maxSize) {
        return options.onError(c as C);
      }
      return next();
    }
    return streaming(c, next);
  };
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The issue of a body that is not UTF-8: its field cannot be known when nothing decodes. */
export const NOT_UTF8: FieldIssue = { in: "body", name: "body", message: "is not valid UTF-8" };

/**
 * Reads the body's bytes once and checks that they are UTF-8 (an invalid sequence such as
 * `C3 28`, an overlong one such as `C0 AF`, a lone surrogate): the issue when they are not,
 * null when they are. Decoders elsewhere (`JSON.parse` via `c.req.json()`, form parsers,
 * the MCP transport) replace bad bytes with U+FFFD without a word, so a client's text would
 * be stored changed; checked here first, it is refused instead.
 *
 * A form (`application/x-www-form-urlencoded`) carries text percent-encoded too, so each
 * field's decoded bytes are checked as well and the issue names the field. A multipart body
 * is checked whole, unless the page takes files (`fileFields`, the paper forms' source
 * bundle): then every part but those files is checked, and the issue names its field.
 *
 * The request keeps the bytes (`c.req.raw` is rebuilt over them), so whoever reads next reads
 * what was checked. Run it inside `limitBody`: a body over the cap fails the read there.
 */
export async function utf8BodyIssue(
  c: Context,
  options: { fileFields?: readonly string[] } = {},
): Promise<FieldIssue | null> {
  const raw = c.req.raw;
  if (raw.body === null) return null;
  const bytes = new Uint8Array(await raw.arrayBuffer());
  c.req.raw = new Request(raw, { body: bytes });
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (options.fileFields?.length && type.startsWith("multipart/form-data")) {
    return multipartTextIssue(bytes, c.req.header("content-type") ?? "", options.fileFields);
  }
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return NOT_UTF8;
  }
  if (type.startsWith("application/x-www-form-urlencoded")) return formFieldIssue(text);
  return null;
}

const CRLF2 = Buffer.from("\r\n\r\n");

/**
 * The first part of a multipart body whose headers or content are not UTF-8, skipping the
 * content of files sent in `fileFields` (bytes, not text). A body the splitter cannot make
 * sense of is left to the form parser, which refuses it (400).
 */
function multipartTextIssue(
  bytes: Uint8Array,
  contentType: string,
  fileFields: readonly string[],
): FieldIssue | null {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) return null;
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const part = body.subarray(start, next);
    at = next;
    const headEnd = part.indexOf(CRLF2);
    const head = part.subarray(0, headEnd === -1 ? part.length : headEnd).toString("latin1");
    const name = /\bname="([^"]*)"/i.exec(head)?.[1] ?? "";
    if (fileFields.includes(name) && /\bfilename\*?=/i.test(head)) continue;
    try {
      strictUtf8.decode(part);
    } catch {
      return name
        ? { in: "body", name: name.slice(0, 100), message: "is not valid UTF-8" }
        : NOT_UTF8;
    }
  }
  return null;
}

/**
 * Refuses (with `onInvalid`'s answer, a 400 in the front end's own shape) a body that is not
 * UTF-8; see `utf8BodyIssue`.
 */
export function requireUtf8Body<C extends Context>(
  onInvalid: (c: C, issue: FieldIssue) => Response | Promise<Response>,
): MiddlewareHandler {
  return async (c, next) => {
    const issue = await utf8BodyIssue(c);
    if (issue) return onInvalid(c as C, issue);
    return next();
  };
}

/** The first field of a urlencoded form whose name or value decodes to bytes that are not UTF-8. */
function formFieldIssue(text: string): FieldIssue | null {
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const name = percentDecoded(rawName);
    const value = eq === -1 ? "" : percentDecoded(pair.slice(eq + 1));
    if (name === null) return NOT_UTF8;
    if (value === null) {
      return { in: "body", name: name.slice(0, 100), message: "is not valid UTF-8" };
    }
  }
  return null;
}

/** A form component decoded as URLSearchParams does (`+` is a space), or null when not UTF-8. */
function percentDecoded(component: string): string | null {
  const bytes: number[] = [];
  const text = component.replaceAll("+", " ");
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === "%" ? text.slice(i + 1, i + 3) : "";
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      const code = text.codePointAt(i) as number;
      if (code > 0xffff) i++;
      bytes.push(...Buffer.from(String.fromCodePoint(code)));
    }
  }
  try {
    return strictUtf8.decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}
