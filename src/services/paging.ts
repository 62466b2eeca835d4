/**
 * @module The page-size and cursor rules of every keyset-paged list (papers, comments,
 * reviews, the site's lists, moderation): the one place their bounds live. REST routes,
 * MCP tools and pages derive their inputs from these schemas.
 */
import { z } from "@hono/zod-openapi";
import { Invalid } from "./errors.ts";
import { text } from "./text.ts";
import { parseInput } from "./validation.ts";

/** Page sizes a list accepts, and the size it uses when none is asked for. */
export const PAGE_SIZE = { min: 1, max: 100, default: 50 } as const;

const SIZE_MESSAGE = `must be an integer from ${PAGE_SIZE.min} to ${PAGE_SIZE.max}`;

/**
 * `limit`: an integer from 1 to 100, 50 when absent. Coerced, so a query string's `"20"`
 * reads as 20 on every front end.
 */
export const PageSizeSchema = z.coerce
  .number({ error: SIZE_MESSAGE })
  .int(SIZE_MESSAGE)
  .min(PAGE_SIZE.min, SIZE_MESSAGE)
  .max(PAGE_SIZE.max, SIZE_MESSAGE)
  .default(PAGE_SIZE.default)
  .openapi({ example: PAGE_SIZE.default })
  .describe(`Page size, ${PAGE_SIZE.min} to ${PAGE_SIZE.max}.`);

/** Longest `next_cursor` any list issues (base64url); a longer or other one is refused unread. */
export const CURSOR_MAX_CHARS = 200;
const CURSOR_SHAPE = new RegExp(`^[A-Za-z0-9_-]{1,${CURSOR_MAX_CHARS}}$`);

/** Whether `cursor` can be a `next_cursor` at all (each list then decodes its own). */
function isCursorShaped(cursor: string): boolean {
  return CURSOR_SHAPE.test(cursor);
}

/** Milliseconds since the epoch, as a keyset part. */
export const MS_PART = /^\d{1,15}$/;

/**
 * A keyset position as an opaque cursor: its parts joined by `|`, in base64url. Every
 * keyset-paged list writes its cursors with this and reads them with `decodeKeyset`.
 */
export function encodeKeyset(parts: readonly (string | number)[]): string {
  return Buffer.from(parts.join("|"), "utf8").toString("base64url");
}

/**
 * The parts of a cursor this server issued, one per pattern, each matching its pattern; a
 * 400 naming `cursor` for anything else (another list's cursor, a damaged or made-up one).
 */
export function decodeKeyset(cursor: string, patterns: readonly RegExp[]): string[] {
  if (!isCursorShaped(cursor)) throw invalidCursor();
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (parts.length !== patterns.length || parts.some((part, i) => !patterns[i]?.test(part))) {
    throw invalidCursor();
  }
  return parts;
}

/** The 400 for a cursor this server did not issue. */
export function invalidCursor(): Invalid {
  return new Invalid("cursor is not valid", [
    {
      in: "query",
      name: "cursor",
      message: "must be a next_cursor value returned by this endpoint",
    },
  ]);
}

/** `cursor`: the opaque `next_cursor` of an earlier page; each list decodes its own. */
export const CursorSchema = text("line").describe("The `next_cursor` of the previous page.");

/** `limit` and `cursor` of a keyset-paged list. */
export const PageInputSchema = z.object({
  limit: PageSizeSchema,
  cursor: CursorSchema.optional(),
});

/** The page size of a list call, or Invalid naming `limit` (in `where`). */
export function pageSizeOf(limit: number | undefined, where: "query" | "body" = "query"): number {
  return parseInput(z.object({ limit: PageSizeSchema }), { limit }, where, "limit is out of range")
    .limit;
}
