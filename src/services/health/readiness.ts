/** @module Readiness: can this instance serve traffic now, and what around it is degraded. */
import { sql } from "drizzle-orm";
import { migrationState } from "../../db/migrations-state.ts";
import type { ServiceContext } from "../context.ts";
import { LATEX_HOWTO } from "../files/index.ts";
import { CROSS_LINGUAL_HOWTO } from "../search/index.ts";

type CheckStatus = "ok" | "failing" | "draining" | "starting" | "not_configured" | "unknown";

interface Check {
  status: CheckStatus;
  /** Whether a failure of this check makes the instance not ready (503). */
  critical: boolean;
  latency_ms?: number;
  detail?: string;
  [extra: string]: unknown;
}

export interface Readiness {
  /**
   * `ready` (200), `degraded` (200: a non-critical dependency fails), `starting` (503: start-up
   * work after listen still runs, nothing has failed), `not_ready` (503).
   */
  status: "ready" | "degraded" | "starting" | "not_ready";
  checks: {
    startup: Check;
    shutdown: Check;
    database: Check;
    migrations: Check;
    rate_limits: Check;
    embeddings: Check;
    cross_lingual: Check;
    /** LaTeX source bundles: LaTeXML and bubblewrap installed (files domain), or refused. */
    latex_sources: Check;
  };
}

/** A check that has not answered by then counts as failing: a probe must answer promptly. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * Runs the readiness checks, concurrently, each bounded by `timeoutMs`.
 *
 * Only what an instance cannot serve without decides readiness: not shutting down, the
 * database answering, and every bundled migration applied. Redis and the embedding backend
 * are reported but never make the instance unready, because the archive is built to work
 * without them (rate limits fail open to per-instance counters; search falls back to lexical
 * and says so): failing readiness on them would let a cache or model outage take every
 * instance out of the load balancer at once. The embedding backend is judged from the calls
 * it already served, never called by a probe.
 *
 * Error details of the database and Redis (addresses, ports) are logged, not returned: the
 * answer is public.
 */
export async function checkReadiness(
  ctx: ServiceContext,
  input: {
    draining: () => boolean;
    /** Start-up work after listen (search index, samples); "ok" when there is none. */
    startup?: () => "starting" | "ok" | "failing";
    timeoutMs?: number;
  },
): Promise<Readiness> {
  const timeoutMs = input.timeoutMs ?? CHECK_TIMEOUT_MS;
  const [database, migrations, rateLimits] = await Promise.all([
    timed("database", true, timeoutMs, ctx, async () => {
      await ctx.db.execute(sql`select 1`);
      return {};
    }),
    timed("migrations", true, timeoutMs, ctx, async () => {
      const state = await migrationState(ctx.db);
      const behind = [...state.pending, ...state.modified];
      return {
        ok: behind.length === 0,
        applied: state.applied,
        expected: state.expected,
        ...(state.pending.length > 0 ? { pending: state.pending } : {}),
        ...(state.modified.length > 0 ? { modified: state.modified } : {}),
        ...(behind.length > 0
          ? { detail: "the database lacks migrations bundled with this code" }
          : {}),
      };
    }),
    ctx.rateLimits?.probe
      ? timed("rate_limits", false, timeoutMs, ctx, async () => {
          const probe = await ctx.rateLimits!.probe!();
          if (!probe.ok) {
            ctx.logger.warn(
              { reason: probe.error },
              "readiness: the rate-limit store does not answer",
            );
          }
          return {
            ok: probe.ok,
            store: probe.store,
            ...(probe.ok
              ? {}
              : { detail: "Redis does not answer; limits are counted per instance" }),
          };
        })
      : Promise.resolve<Check>({ status: "not_configured", critical: false }),
  ]);
  const health = ctx.embedder?.health?.();
  const embeddings: Check = !ctx.embedder
    ? { status: "not_configured", critical: false }
    : health
      ? {
          status: health.status,
          critical: false,
          consecutive_failures: health.consecutive_failures,
          ...(health.last_success_at ? { last_success_at: health.last_success_at } : {}),
          ...(health.last_failure_at ? { last_failure_at: health.last_failure_at } : {}),
          ...(health.status === "failing" && health.last_error
            ? { detail: health.last_error }
            : {}),
        }
      : { status: "unknown", critical: false };
  const translator = ctx.translator?.status();
  const crossLingual: Check = translator
    ? {
        status: translator.status,
        critical: false,
        pairs: translator.pairs,
        consecutive_failures: translator.consecutive_failures,
        ...(translator.status === "failing"
          ? { detail: "query translation fails; search matches the query's own language only" }
          : {}),
      }
    : {
        status: "not_configured",
        critical: false,
        detail: `cross-lingual search is off; to turn it on, ${CROSS_LINGUAL_HOWTO}`,
      };
  const startup = input.startup?.() ?? "ok";
  const checks = {
    startup: {
      status: startup,
      critical: true,
      ...(startup === "failing" ? { detail: "start-up work failed; see the log" } : {}),
    } as Check,
    // Read after the checks: a shutdown that began while they ran already counts.
    shutdown: { status: input.draining() ? "draining" : "ok", critical: true } as Check,
    database,
    migrations,
    rate_limits: rateLimits,
    embeddings,
    cross_lingual: crossLingual,
    latex_sources: (ctx.latex
      ? {
          status: "ok",
          critical: false,
          converter: "latexml",
          timeout_seconds: ctx.latex.timeoutSeconds,
        }
      : {
          status: "not_configured",
          critical: false,
          detail: `LaTeX source bundles are refused; to accept them, ${LATEX_HOWTO}`,
        }) as Check,
  };
  const all = Object.values(checks);
  const blocking = all.filter((c) => c.critical && c.status !== "ok");
  const status = blocking.some((c) => c.status !== "starting")
    ? "not_ready"
    : blocking.length > 0
      ? "starting"
      : all.some((c) => c.status === "failing")
        ? "degraded"
        : "ready";
  return { status, checks };
}

/** Runs one check with a deadline; its latency, and `failing` on an error or the deadline. */
async function timed(
  name: string,
  critical: boolean,
  timeoutMs: number,
  ctx: ServiceContext,
  run: () => Promise<{ ok?: boolean; [extra: string]: unknown }>,
): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimedOut(timeoutMs)), timeoutMs);
  });
  try {
    const { ok = true, ...extra } = await Promise.race([run(), deadline]);
    return { status: ok ? "ok" : "failing", critical, latency_ms: since(started), ...extra };
  } catch (error) {
    ctx.logger.warn({ err: error, check: name }, "readiness check failed");
    return {
      status: "failing",
      critical,
      latency_ms: since(started),
      detail: error instanceof CheckTimedOut ? error.message : "does not answer",
    };
  } finally {
    clearTimeout(timer);
  }
}

class CheckTimedOut extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "CheckTimedOut";
  }
}

function since(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}
