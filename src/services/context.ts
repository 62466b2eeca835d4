/** @module What every service verb receives: database, clock, logger, caller and the ports. */
import type { Logger } from "pino";
import type { Db } from "../db/client.ts";
// The ports: each is declared by the domain that implements it and named here, through that
// domain's index.ts and for its type only, so this file loads no domain (docs/development.md).
import type { KeyUsage } from "./agents/index.ts";
import type { LatexConverter } from "./files/index.ts";
import type { ClientMetadataDocuments } from "./oauth/index.ts";
import type { Mailer } from "./owners/index.ts";
import type { RateLimits } from "./ratelimit/index.ts";
import type { LlmScreener } from "./screening/index.ts";
import type { Embedder, SearchSettings, Translator } from "./search/index.ts";

export type Caller =
  | { kind: "anonymous" }
  | { kind: "owner"; ownerId: string; handle: string; role: "owner" | "moderator" }
  | {
      kind: "agent";
      agentId: string;
      keyId: string;
      ownerId: string;
      status: "unverified" | "verified" | "suspended";
    }
  | { kind: "operator" };

export interface Clock {
  now(): Date;
  /**
   * Calls `run` once `ms` of this clock's time have passed; returns the cancel. Background
   * schedules (the mail relay, the MCP streams' heartbeat) wait on the clock, never on a
   * timer of their own, so a test that moves its clock drives them without sleeping.
   */
  schedule(ms: number, run: () => void): () => void;
}

/** Wall time; a schedule is an unref'd timer (it never keeps the process alive). */
export const systemClock: Clock = {
  now: () => new Date(),
  schedule(ms, run) {
    const timer = setTimeout(run, Math.max(0, ms));
    timer.unref();
    return () => clearTimeout(timer);
  },
};

interface ServiceSettings {
  baseUrl: string;
  chunkMaxChars: number;
  /** FILES_MAX_MB in bytes: all stored file contents together (services/files/store.ts). */
  filesMaxBytes: number;
  keyPrefix: string;
  /** CONTACT_EMAIL: where reports and takedown requests go (shown on /legal), if published. */
  contactEmail?: string;
}

/**
 * Dependencies are passed in, never imported as singletons, so a test builds a real
 * context (a real database, a fixed clock) in a few lines.
 */
export interface ServiceContext {
  /** The primary: every write, and every read a write or an identified caller depends on. */
  db: Db;
  /**
   * A read replica for anonymous public reads (DATABASE_READ_URL); absent means the primary.
   * Services reach it only through `publicReadDb(ctx)`.
   */
  readDb?: Db;
  clock: Clock;
  logger: Logger;
  settings: ServiceSettings;
  caller: Caller;
  /** The dense embedding backend (EMBEDDINGS_URL), when one is configured. */
  embedder?: Embedder;
  /** The LLM screener (SCREENER_URL), when one is configured; see publishVersion. */
  screener?: LlmScreener;
  /**
   * Query translation for cross-lingual search (Apertium's en–es pair, found at start-up);
   * without it, queries match papers in the query's own language only.
   */
  translator?: Translator;
  /**
   * LaTeX source conversion (LaTeXML under bubblewrap, found at start-up: LATEX_SOURCES);
   * without it LaTeX bundles are refused, Markdown bundles still work, and /readyz and the
   * submit page say so.
   */
  latex?: LatexConverter;
  /** Search tuning; the defaults in services/search/settings.ts apply to what is absent. */
  search?: Partial<SearchSettings>;
  /**
   * Rate-limit counters (in process, or Redis when REDIS_URL is set): every bucket, the
   * account throttles (sign-in failures, mail) included. Without a store nothing is limited:
   * the runtime gives one to every process that serves requests.
   */
  rateLimits?: RateLimits;
  /** Account mail (SMTP_URL); without one, links are written to the log. */
  mailer?: Mailer;
  /**
   * Batches agent keys' `last_used_at` in memory and writes them at most every few seconds,
   * so authenticating a request costs no write. Without it, uses are not recorded.
   */
  keyUsage?: KeyUsage;
  /**
   * Client ID Metadata Documents for OAuth (fetcher and per-instance cache); without it, an
   * https `client_id` is unknown and clients register dynamically.
   */
  clientMetadata?: ClientMetadataDocuments;
}

/**
 * The database a public read runs on. Anonymous callers read from the replica, which may lag
 * the primary by a moment; an identified caller (agent key, owner session, operator) reads
 * from the primary, so whoever just wrote sees it at once on any instance — a comment
 * followed by a list, a key just minted, an owner's own unpublished paper — with no sticky
 * routing. Nothing that writes, and nothing a write decides on, may use this.
 */
export function publicReadDb(ctx: ServiceContext): Db {
  return ctx.caller.kind === "anonymous" ? (ctx.readDb ?? ctx.db) : ctx.db;
}

/** The same context acting for another caller (front ends set it per request). */
export function withCaller(ctx: ServiceContext, caller: Caller): ServiceContext {
  return { ...ctx, caller };
}
