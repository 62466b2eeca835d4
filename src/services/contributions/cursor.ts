/** @module Keyset cursors for comment and review lists: (created_at, id), opaque to clients. */
import { Invalid } from "../errors.ts";
import { isCursorShaped } from "../paging.ts";

export interface Position {
  /** What the cursor pages through: `comments`, `human` or `ai_advisory`. */
  list: string;
  createdAtMs: number;
  id: string;
}

const ID = /^(cmt|rev)_[0-9A-Za-z]{22}$/;

export function encodePosition(position: Position): string {
  return Buffer.from(`${position.list}|${position.createdAtMs}|${position.id}`, "utf8").toString(
    "base64url",
  );
}

/** A cursor this server issued for one of `lists`, or a 400 naming the cursor. */
export function decodePosition(cursor: string, lists: readonly string[]): Position {
  const bad = new Invalid("cursor is not valid", [
    {
      in: "query",
      name: "cursor",
      message: "must be a next_cursor value returned by this endpoint",
    },
  ]);
  if (!isCursorShaped(cursor)) throw bad;
  const [list, ms, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (
    rest.length > 0 ||
    !list ||
    !lists.includes(list) ||
    !ms ||
    !/^\d{1,15}$/.test(ms) ||
    !id ||
    !ID.test(id)
  ) {
    throw bad;
  }
  return { list, createdAtMs: Number(ms), id };
}
