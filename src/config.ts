/** @module Configuration: the environment parsed once with zod; the only reader of process.env. */
import { z } from "zod";

const optionalUrl = z
  .string()
  .trim()
  .min(1)
  .refine((v) => URL.canParse(v), "must be an absolute URL")
  .optional();

export const ConfigSchema = z.object({
  PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(3000)
    .describe("HTTP port (`0` picks a free one)."),
  HOST: z.string().trim().min(1).default("0.0.0.0").describe("Listen address."),
  BASE_URL: optionalUrl.describe(
    "Public URL, used in links, problem types and JSON-LD. Default `http://localhost:$PORT`.",
  ),
  DATA_DIR: z
    .string()
    .trim()
    .min(1)
    .default("./data")
    .describe("Embedded database directory (ignored with `DATABASE_URL`)."),
  DATABASE_URL: optionalUrl
    .refine(
      (v) => v === undefined || /^postgres(ql)?:\/\//.test(v),
      "must be a postgres:// or postgresql:// URL",
    )
    .describe("`postgres://…`: use PostgreSQL (with pgvector) instead of the embedded engine."),
  /** A streaming replica of DATABASE_URL for public reads (see docs/adr/0011-read-replicas.md). */
  DATABASE_READ_URL: optionalUrl
    .refine(
      (v) => v === undefined || /^postgres(ql)?:\/\//.test(v),
      "must be a postgres:// or postgresql:// URL",
    )
    .describe(
      "`postgres://…` of a streaming replica for anonymous public reads (PostgreSQL only).",
    ),
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(10)
    .describe("PostgreSQL connections per instance (and as many to the replica)."),
  /**
   * The embedded engine's buffer pool (PostgreSQL's shared_buffers), in MB. Unset: sized to
   * the database at each start, 32–128 MB (128 is PGlite's own default). PostgreSQL zeroes the
   * whole pool when it starts, so a smaller one starts faster and reads a large archive
   * slightly slower (docs/adr/0026-start-up.md).
   */
  PGLITE_SHARED_BUFFERS_MB: z.coerce
    .number()
    .int()
    .min(1)
    .max(1024)
    .optional()
    .describe(
      "Embedded engine's buffer pool (shared_buffers) in MB. Unset: the smallest power of two holding the database's files, 32–128 MB; smaller starts faster.",
    ),
  REDIS_URL: optionalUrl
    .refine(
      (v) => v === undefined || /^rediss?:\/\//.test(v),
      "must be a redis:// or rediss:// URL",
    )
    .describe(
      "Redis for rate-limit counters shared by every instance (otherwise they are per process).",
    ),
  /**
   * The IPv6 prefix a client address is rate-limited by: one host is handed a whole /64, so
   * counting per address would let it multiply every limit; 32 to 128, default 64.
   */
  RATE_LIMIT_IPV6_PREFIX: z.coerce
    .number()
    .int()
    .min(32)
    .max(128)
    .default(64)
    .describe("The IPv6 prefix length a client is rate-limited by (a host is handed a whole /64)."),
  RESPONSE_CACHE_MB: z.coerce
    .number()
    .min(0)
    .max(65_536)
    .default(64)
    .describe(
      "Response cache of anonymous public API reads, in MB (`0` turns it off); see ADR 0025 and 0039.",
    ),
  /**
   * How long a request waits on Redis for its rate-limit count before it is counted in this
   * process instead (fail-open). Raise it for a Redis far away or a heavily loaded host.
   */
  REDIS_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(60_000)
    .default(200)
    .describe(
      "How long a request waits on Redis for its count before counting in this process instead.",
    ),
  EMBEDDINGS_URL: optionalUrl.describe(
    "OpenAI-compatible `/v1/embeddings` backend: adds the dense search channel.",
  ),
  EMBEDDINGS_MODEL: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe("The embeddings model to ask for (required with `EMBEDDINGS_URL`)."),
  EMBEDDINGS_API_KEY: z
    .string()
    .min(1)
    .optional()
    .describe("Bearer key for the embeddings backend, if it needs one."),
  /**
   * Cross-lingual search: `auto` translates queries between English and Spanish when
   * Apertium's en–es pair is installed (apertium-en-es); `off` never does.
   */
  CROSS_LINGUAL: z
    .enum(["auto", "off"])
    .default("auto")
    .describe(
      "`auto` translates queries between English and Spanish when Apertium's en–es pair is installed; `off` never does.",
    ),
  /**
   * Wall-clock bound of one LaTeX conversion (docs/files.md); a bundle that takes longer is
   * refused with a message. Submissions wait for it, so keep it below the proxy's read timeout.
   */
  LATEX_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(600)
    .default(60)
    .describe("Seconds one LaTeX conversion may take before it is stopped and the bundle refused."),
  SCREENER_URL: optionalUrl.describe(
    "OpenAI-compatible `/v1/chat/completions` backend for the LLM screener.",
  ),
  SCREENER_MODEL: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe("The screener model to ask for (required with `SCREENER_URL`)."),
  SCREENER_API_KEY: z
    .string()
    .min(1)
    .optional()
    .describe("Bearer key for the screener backend, if it needs one."),
  /** Per-attempt timeout of the LLM screener (a submitter waits; see docs/adr/0012). */
  SCREENER_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(300_000)
    .default(20_000)
    .describe("Per-attempt timeout of the LLM screener (three attempts at most)."),
  TRUST_PROXY: z
    .string()
    .trim()
    .default("")
    .describe("Comma-separated addresses or CIDRs whose `X-Forwarded-For` is honoured."),
  SMTP_URL: optionalUrl.describe(
    "Mail for verification and reset links (otherwise they are written to the log).",
  ),
  /** Where readers send reports and takedown requests; shown on /legal. */
  CONTACT_EMAIL: z
    .string()
    .trim()
    .email("must be an email address")
    .max(254)
    .optional()
    .describe("Where readers send reports and takedown requests; shown on `/legal`."),
  KEY_PREFIX: z
    .string()
    .regex(
      /^[a-z][a-z0-9]{1,15}$/,
      "must be 2-16 lowercase letters or digits, starting with a letter",
    )
    .default("quire")
    .describe("Agent key prefix (`<prefix>_sk_…`)."),
  /** Serve /metrics on a port of its own (no token needed there unless METRICS_TOKEN is set). */
  METRICS_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .optional()
    .describe("Serve `/metrics` on a port of its own (off when unset)."),
  /** Listen address of the metrics port (default: HOST). */
  METRICS_HOST: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe("Listen address of `METRICS_PORT` (default: `HOST`)."),
  /** Bearer token for /metrics on the main port (and on METRICS_PORT when both are set). */
  METRICS_TOKEN: z
    .string()
    .min(16, "must be at least 16 characters")
    .max(256)
    .regex(/^[\x21-\x7e]+$/, "must be visible ASCII without spaces")
    .optional()
    .describe(
      "Bearer token that opens `/metrics` on the main port (and on `METRICS_PORT` when both are set).",
    ),
  /**
   * How long a client may take to send a request's headers, and its whole request (headers
   * and body), before the server answers 408 and closes the connection: a request that never
   * finishes arriving cannot hold a connection (docs/adr/ on input limits). Body ≥ headers.
   */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(600_000)
    .default(10_000)
    .describe("A request's headers must arrive within this, or 408 and the connection closes."),
  HTTP_BODY_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .default(30_000)
    .describe(
      "The whole request (headers and body) must arrive within this (at least the headers timeout).",
    ),
  /**
   * How often the server deletes what is past retention (expired OAuth requests and tokens,
   * unused clients, expired sessions and links, unverified accounts, old idempotency keys and
   * resolved reports; docs/data-lifecycle.md), in seconds; 0 turns it off (`quire prune` by
   * hand or from cron then). Instances sharing a database take turns.
   */
  PRUNE_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(86_400)
    .default(600)
    .describe(
      "How often the server deletes what is past retention (docs/data-lifecycle.md); `0` turns it off.",
    ),
  /** How long a stopping server lets requests in flight finish before closing connections. */
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(600_000)
    .default(10_000)
    .describe(
      "How long a stopping server lets requests in flight finish before closing connections.",
    ),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info")
    .describe("pino level; JSON lines on stdout."),
  /**
   * The bound on all stored figures and supplementary files together (each content counted
   * once, however many versions use it; docs/data-lifecycle.md): a version whose new files
   * would pass it is refused (503) until the operator raises it or the prune frees space.
   */
  FILES_MAX_MB: z.coerce
    .number()
    .int()
    .min(1)
    .max(16_777_216)
    .default(2048)
    .describe(
      "All stored figures and files together, in MiB (each content once); a version whose new files would pass it is refused.",
    ),
  CHUNK_MAX_CHARS: z.coerce
    .number()
    .int()
    .min(200)
    .max(20000)
    .default(2000)
    .describe("Maximum span length (code points) of context chunks."),
  SEED_SAMPLES: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1")
    .describe("Load the sample papers into an empty archive."),
});

export type Config = Omit<z.infer<typeof ConfigSchema>, "BASE_URL" | "TRUST_PROXY"> & {
  BASE_URL: string;
  /** Parsed TRUST_PROXY: addresses or CIDR ranges whose X-Forwarded-For is honoured. */
  TRUST_PROXY: string[];
};

/** Thrown when an environment variable has a bad value; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      `Invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join("\n")}`,
    );
    this.name = "ConfigError";
  }
}

/**
 * Parses configuration from an environment map. Empty strings count as unset, so
 * `FOO= npm start` behaves like leaving FOO out. Unknown variables are ignored.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") cleaned[key] = value;
  }
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? "(environment)"),
        message: issue.message,
      })),
    );
  }
  const c = parsed.data;
  const baseUrl = (c.BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, "");
  const trustProxy = c.TRUST_PROXY.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const problems: { variable: string; message: string }[] = [];
  for (const entry of trustProxy) {
    if (!isAddressOrCidr(entry)) {
      problems.push({
        variable: "TRUST_PROXY",
        message: `"${entry}" is not an IP address or CIDR`,
      });
    }
  }
  if (c.DATABASE_READ_URL && !c.DATABASE_URL) {
    problems.push({
      variable: "DATABASE_READ_URL",
      message: "needs DATABASE_URL: read replicas are for PostgreSQL; the embedded engine has none",
    });
  }
  if (c.EMBEDDINGS_URL && !c.EMBEDDINGS_MODEL) {
    problems.push({
      variable: "EMBEDDINGS_MODEL",
      message: "is required when EMBEDDINGS_URL is set",
    });
  }
  if (c.SCREENER_URL && !c.SCREENER_MODEL) {
    problems.push({ variable: "SCREENER_MODEL", message: "is required when SCREENER_URL is set" });
  }
  if (c.METRICS_PORT !== undefined && c.METRICS_PORT !== 0 && c.METRICS_PORT === c.PORT) {
    problems.push({ variable: "METRICS_PORT", message: "must differ from PORT" });
  }
  if (c.HTTP_BODY_TIMEOUT_MS < c.HTTP_HEADERS_TIMEOUT_MS) {
    problems.push({
      variable: "HTTP_BODY_TIMEOUT_MS",
      message: "must be at least HTTP_HEADERS_TIMEOUT_MS (it covers the headers too)",
    });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { ...c, BASE_URL: baseUrl, TRUST_PROXY: trustProxy };
}

function isAddressOrCidr(value: string): boolean {
  const [addr, bits, ...rest] = value.split("/");
  if (rest.length > 0 || !addr) return false;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(addr);
  const isV4 = v4?.slice(1).every((o) => Number(o) <= 255) === true;
  const isV6 = !isV4 && addr.includes(":") && /^[0-9a-fA-F:.]+$/.test(addr);
  if (!isV4 && !isV6) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (isV4 ? 32 : 128);
}
