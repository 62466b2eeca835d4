/** @module Keyset cursors for comment and review lists: (created_at, id), opaque to clients. */
import { prefixedIdPattern } from "../ids.ts";
import { decodeKeyset, encodeKeyset, MS_PART } from "../paging.ts";

export interface Position {
  /** What the cursor pages through: `comments`, `human` or `ai_advisory`. */
  list: string;
  createdAtMs: number;
  id: string;
}

const ID = prefixedIdPattern("cmt", "rev");

export function encodePosition(position: Position): string {
  return encodeKeyset([position.list, position.createdAtMs, position.id]);
}

/** A cursor this server issued for one of `lists`, or a 400 naming the cursor. */
export function decodePosition(cursor: string, lists: readonly string[]): Position {
  const listPattern = new RegExp(`^(?:${lists.join("|")})$`);
  const [list, ms, id] = decodeKeyset(cursor, [listPattern, MS_PART, ID]) as [
    string,
    string,
    string,
  ];
  return { list, createdAtMs: Number(ms), id };
}
