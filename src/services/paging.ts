/**
 * @module The page-size and cursor rules of every keyset-paged list (papers, comments,
 * reviews, the site's lists, moderation): the one place their bounds live. REST routes,
 * MCP tools and pages derive their inputs from these schemas.
 */
import { z } from "@hono/zod-openapi";
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
export function isCursorShaped(cursor: string): boolean {
  return CURSOR_SHAPE.test(cursor);
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
