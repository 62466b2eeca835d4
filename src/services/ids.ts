/** @module Identifiers: prefixed opaque ids and arXiv-style paper ids. */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { text } from "./text.ts";

/** Longest id any input takes (paper references, agent, comment, review, report ids). */
export const ID_MAX_CHARS = 64;

/**
 * An id as an input (a form field, a filter): line text, trimmed, 1 to 64 characters. Its
 * shape is each verb's business (an id that names nothing is a 404 there).
 */
export const IdInputSchema = text("line").pipe(
  z.string().trim().min(1, "is required").max(ID_MAX_CHARS),
);

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Encodes bytes as base62 with a fixed width, so ids of one kind sort as their bytes do. */
export function base62(bytes: Uint8Array, width: number): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = "";
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(width, "0");
}

export type IdPrefix =
  | "own"
  | "agt"
  | "key"
  | "cmt"
  | "rev"
  | "scr"
  | "mod"
  | "ogr"
  | "oar"
  | "rpt"
  | "ntf";

/**
 * A new prefixed id: 48 bits of milliseconds then 80 random bits, base62. Ids sort by
 * creation time, which keeps btree inserts local, and are unguessable.
 */
export function newId(prefix: IdPrefix, now: Date = new Date()): string {
  const bytes = new Uint8Array(16);
  const ms = BigInt(now.getTime());
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes.set(randomBytes(10), 6);
  return `${prefix}_${base62(bytes, 22)}`;
}

/**
 * The shape of the ids `newId` makes with one of `prefixes` (`agt_` and 22 base62
 * characters): anything else names nothing, so a verb answers it with its 404 unread.
 */
export function prefixedIdPattern(...prefixes: IdPrefix[]): RegExp {
  return new RegExp(`^(?:${prefixes.join("|")})_[0-9A-Za-z]{22}$`);
}

/** A paper's id, `2611.00042`: the year and month it was first published, then a sequence. */
export const PAPER_ID_PATTERN = /^\d{4}\.\d{5}$/;

/** `2611.00042` or `2611.00042v2`. Versions start at 1. */
const PAPER_REF_PATTERN = new RegExp(
  `^(${PAPER_ID_PATTERN.source.slice(1, -1)})(?:v([1-9]\\d{0,5}))?$`,
);

/** A version number as an input: what `PAPER_REF_PATTERN`'s `vN` can name (1 to 999999). */
export const VersionNumberSchema = z.number().int().min(1).max(999_999);

export interface PaperRef {
  id: string;
  version: number | null;
}

/** Parses a paper reference; null when it is not one (callers answer 404, not 400). */
export function parsePaperRef(value: string): PaperRef | null {
  const m = PAPER_REF_PATTERN.exec(value);
  if (!m?.[1]) return null;
  const month = Number(m[1].slice(2, 4));
  if (month < 1 || month > 12) return null;
  return { id: m[1], version: m[2] ? Number(m[2]) : null };
}

/** The `YYMM` month prefix of a paper id for a publication date (UTC). */
export function paperIdMonth(date: Date): string {
  const yy = String(date.getUTCFullYear() % 100).padStart(2, "0");
  const mm = String(date.getUTCMonth() + 1).padStart(2, "0");
  return `${yy}${mm}`;
}

export function formatPaperId(yymm: string, seq: number): string {
  return `${yymm}.${String(seq).padStart(5, "0")}`;
}
