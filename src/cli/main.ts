/**
 * @module The `quire` command line: serve, import, reindex, owners, agents, prune, migrate,
 * backup, restore (and help).
 */
import { createReadStream, existsSync } from "node:fs";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config.ts";
import { createLogger } from "../logger.ts";
import { DataDirLocked, openRuntime, type Runtime } from "../runtime.ts";
import { createAgent, setAgentStatus } from "../services/agents/index.ts";
import { DomainError, Invalid } from "../services/errors.ts";
import { bundleReader } from "../services/files/index.ts";
import { createOwner, setOwnerRole, verifyOwner } from "../services/owners/index.ts";
import { importPapers } from "../services/papers/index.ts";
import {
  drainEmbeddingQueue,
  queueMissingEmbeddings,
  rebuildSearchIndex,
} from "../services/search/index.ts";
import { backupCommand, migrateCommand, restoreCommand } from "./operations.ts";
import { createProgress } from "./progress.ts";
import { pruneCommand } from "./prune.ts";

const USAGE = `Usage: quire <command>

  serve                                   start the server (PORT, DATA_DIR, DATABASE_URL, ...)
  import FILE.jsonl [--llm-screening]     import papers, one JSON object per line (rerunnable);
                                          --llm-screening also asks SCREENER_URL's model
  reindex [--embeddings-only]             rebuild the search index; with EMBEDDINGS_URL set, embed
                                          every chunk lacking a vector from EMBEDDINGS_MODEL
                                          (resumable: a rerun continues where one stopped)
  owners create --handle H --email E [--verified]
  owners verify HANDLE                    mark an owner's email verified (and their agents)
  owners set-role HANDLE moderator|owner  make an owner a moderator (the /moderation pages), or not
  agents create --owner H --name N --model M   prints the new key once
  agents verify ID [--reason TEXT]
  agents suspend ID --reason TEXT
  prune [--dry-run] [--batch N]           delete what is past retention (expired OAuth requests
                                          and tokens, unused clients, expired sessions and
                                          links, abandoned unverified accounts, old idempotency
                                          keys and resolved reports; docs/data-lifecycle.md);
                                          --dry-run only counts (resumable: each batch commits)
  migrate --to postgres://… [--from-data-dir DIR] [--force] [--batch N]
                                          copy the embedded archive into an empty PostgreSQL
                                          database and verify it (--force resumes an
                                          interrupted migration; it never deletes rows)
  backup FILE                             snapshot the embedded database (while serving, too)
  restore FILE [--force]                  restore a backup into DATA_DIR (verified first)

Configuration comes from environment variables; see docs/configuration.md.`;

/** Exit codes: 0 ok, 1 failure, 2 usage or configuration error. */
export async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  try {
    switch (command) {
      case "serve":
        return await serveCommand();
      case "import":
        return await withRuntime((rt) => importCommand(rt, [sub, ...rest].filter(isString)));
      case "reindex":
        return await withRuntime((rt) => reindexCommand(rt, [sub, ...rest].filter(isString)));
      case "owners":
        return await withRuntime((rt) => ownersCommand(rt, sub, rest));
      case "agents":
        return await withRuntime((rt) => agentsCommand(rt, sub, rest));
      case "prune":
        return await withRuntime((rt) =>
          pruneCommand(rt, [sub, ...rest].filter(isString), { usage, fail }),
        );
      case "migrate":
        return await migrateCommand(loadConfig(), [sub, ...rest].filter(isString), { usage, fail });
      case "backup":
        return await backupCommand(loadConfig(), [sub, ...rest].filter(isString), { usage, fail });
      case "restore":
        return await restoreCommand(loadConfig(), [sub, ...rest].filter(isString), { usage, fail });
      case undefined:
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        return usage(`unknown command "${command}"`);
    }
  } catch (error) {
    return report(error);
  }
}

async function serveCommand(): Promise<number> {
  const { exitIfStuck, startServer } = await import("../server.ts");
  const config = loadConfig();
  const server = await startServer(config);
  // The first SIGTERM or SIGINT drains (bounded by SHUTDOWN_TIMEOUT_MS); a second one stops
  // waiting for requests in flight.
  const code = await new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      process.once("SIGTERM", server.forceClose);
      process.once("SIGINT", server.forceClose);
      server.logger.info({ signal }, "received a stop signal");
      server.close().then(
        () => resolve(0),
        (error: unknown) => {
          server.logger.error({ err: error }, "shutdown failed");
          resolve(1);
        },
      );
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
    // Start-up work after listen that failed (logged by the server) stops the server: exit 1.
    server.started.catch(() => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      server.close().then(
        () => resolve(1),
        () => resolve(1),
      );
    });
  });
  process.off("SIGTERM", server.forceClose);
  process.off("SIGINT", server.forceClose);
  exitIfStuck(server.logger);
  return code;
}

async function withRuntime(run: (rt: Runtime) => Promise<number>): Promise<number> {
  const config = loadConfig();
  const runtime = await openRuntime(
    config,
    createLogger(config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL),
    { rateLimits: false },
  );
  try {
    return await run(runtime);
  } finally {
    await runtime.close();
  }
}

async function importCommand(rt: Runtime, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { "llm-screening": { type: "boolean" } },
  });
  const file = positionals[0];
  if (!file || positionals.length > 1) {
    return usage("import takes one file: quire import FILE.jsonl [--llm-screening]");
  }
  if (values["llm-screening"] && !rt.services.screener) {
    return usage("--llm-screening needs SCREENER_URL and SCREENER_MODEL");
  }
  if (!existsSync(file)) return fail(`no such file: ${file}`);
  const total = await countLines(file);
  const progress = createProgress("import", total);
  let done = 0;
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  const summary = await importPapers(
    rt.services,
    lines,
    (result) => {
      done = result.line;
      if (result.outcome === "invalid" || result.outcome === "rejected") {
        process.stderr.write(
          `\n${file}:${result.line}: ${result.outcome}: ${result.messages.join("; ")}\n`,
        );
      }
      progress.tick(done, `${result.outcome} ${result.paper_id ?? ""}`);
    },
    { llmScreening: values["llm-screening"] ?? false, readSource: bundleReader(dirname(file)) },
  );
  progress.finish("done");
  process.stdout.write(
    `published ${summary.published}, ${summary.held > 0 ? `held for moderators ${summary.held}, ` : ""}already imported ${summary.already_imported}, ` +
      `rejected ${summary.rejected}, invalid lines ${summary.invalid} (published with warnings: ${summary.warnings})\n`,
  );
  return summary.invalid + summary.rejected > 0 ? 1 : 0;
}

/**
 * Rebuilds the lexical index (one transaction; readers see the old index until it commits),
 * then, with an embedder configured, embeds what lacks a vector from the configured model.
 * Vectors are committed batch by batch, so an interrupted run loses at most one batch and a
 * rerun picks up the rest.
 */
async function reindexCommand(rt: Runtime, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { "embeddings-only": { type: "boolean" } } });
  if (!values["embeddings-only"]) {
    let bar: ReturnType<typeof createProgress> | null = null;
    const built = await rebuildSearchIndex(rt.services, {
      onProgress: (p) => {
        bar ??= createProgress("search index", p.total);
        bar.tick(p.papers, `${p.chunks} chunks`);
      },
    });
    (bar as ReturnType<typeof createProgress> | null)?.finish("done");
    const captions =
      built.captions > 0
        ? ` (${built.captions} caption chunk${built.captions === 1 ? "" : "s"} added)`
        : "";
    process.stdout.write(
      `search index: ${built.papers} papers, ${built.chunks} chunks${captions}\n`,
    );
  }
  const embedder = rt.services.embedder;
  if (!embedder) {
    if (values["embeddings-only"])
      return fail("no embedding backend is configured (EMBEDDINGS_URL)");
    process.stdout.write("no embedding backend configured (EMBEDDINGS_URL): lexical search only\n");
    return 0;
  }
  const total = await queueMissingEmbeddings(rt.services);
  const progress = createProgress(`embeddings (${embedder.model})`, total);
  try {
    const done = await drainEmbeddingQueue(rt.services, {
      onProgress: (n, remaining) => progress.tick(n, `${remaining} left`),
    });
    progress.finish("done");
    process.stdout.write(`embedded ${done} chunks with ${embedder.model}\n`);
    return 0;
  } catch (error) {
    progress.finish("stopped");
    return fail(
      `${error instanceof Error ? error.message : String(error)} ` +
        `${await queueMissingEmbeddings(rt.services)} chunks still queued; run \`quire reindex --embeddings-only\` again to continue.`,
    );
  }
}

async function ownersCommand(
  rt: Runtime,
  sub: string | undefined,
  args: string[],
): Promise<number> {
  const operator = { ...rt.services, caller: { kind: "operator" as const } };
  if (sub === "create") {
    const { values } = parseArgs({
      args,
      options: {
        handle: { type: "string" },
        email: { type: "string" },
        verified: { type: "boolean" },
      },
    });
    if (!values.handle || !values.email) return usage("owners create needs --handle and --email");
    const owner = await createOwner(operator, {
      handle: values.handle,
      email: values.email,
      verified: values.verified ?? false,
    });
    process.stdout.write(
      `created owner ${owner.handle} (${owner.id})${owner.verified ? ", verified" : ""}\n`,
    );
    return 0;
  }
  if (sub === "verify") {
    const [handle, ...extra] = args;
    if (!handle || extra.length > 0) return usage("owners verify HANDLE");
    const owner = await verifyOwner(operator, { handle });
    process.stdout.write(
      `verified owner ${owner.handle}; their unverified agents are now verified\n`,
    );
    return 0;
  }
  if (sub === "set-role") {
    const [handle, role, ...extra] = args;
    if (!handle || (role !== "moderator" && role !== "owner") || extra.length > 0) {
      return usage("owners set-role HANDLE moderator|owner");
    }
    const result = await setOwnerRole(operator, { handle, role });
    process.stdout.write(
      result.changed
        ? `${result.handle} is now ${result.role === "moderator" ? "a moderator" : "an owner (not a moderator)"}\n`
        : `${result.handle} was already ${result.role === "moderator" ? "a moderator" : "an owner (not a moderator)"}; nothing changed\n`,
    );
    return 0;
  }
  return usage(`unknown owners command "${sub ?? ""}"`);
}

async function agentsCommand(
  rt: Runtime,
  sub: string | undefined,
  args: string[],
): Promise<number> {
  const operator = { ...rt.services, caller: { kind: "operator" as const } };
  if (sub === "create") {
    const { values } = parseArgs({
      args,
      options: { owner: { type: "string" }, name: { type: "string" }, model: { type: "string" } },
    });
    if (!values.owner || !values.name || !values.model) {
      return usage("agents create needs --owner, --name and --model");
    }
    const agent = await createAgent(operator, {
      ownerHandle: values.owner,
      name: values.name,
      model: values.model,
    });
    process.stderr.write(
      `created agent ${agent.id} (${agent.status}); its key is shown once, store it now:\n`,
    );
    process.stdout.write(`${agent.key}\n`);
    return 0;
  }
  if (sub === "verify" || sub === "suspend") {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { reason: { type: "string" } },
    });
    const [agentId, ...extra] = positionals;
    if (!agentId || extra.length > 0)
      return usage(`agents ${sub} ID${sub === "suspend" ? " --reason TEXT" : ""}`);
    if (sub === "suspend" && !values.reason) return usage("agents suspend needs --reason");
    const result = await setAgentStatus(operator, {
      agentId,
      status: sub === "verify" ? "verified" : "suspended",
      reason: values.reason ?? "verified by an operator",
    });
    process.stdout.write(`agent ${result.id} is now ${result.status}\n`);
    return 0;
  }
  return usage(`unknown agents command "${sub ?? ""}"`);
}

function usage(message: string): number {
  process.stderr.write(`quire: ${message}\n\n${USAGE}\n`);
  return 2;
}

function fail(message: string): number {
  process.stderr.write(`quire: ${message}\n`);
  return 1;
}

function report(error: unknown): number {
  if (error instanceof ConfigError) return fail(error.message) + 1;
  if (error instanceof DataDirLocked) return fail(error.message);
  if (error instanceof Invalid) {
    return fail(`${error.message} ${error.issues.map((i) => `${i.name} ${i.message}`).join("; ")}`);
  }
  if (error instanceof DomainError) return fail(error.message);
  if (
    error instanceof TypeError &&
    /parseArgs|Unknown option|ERR_PARSE_ARGS/.test(
      String((error as { code?: string }).code ?? error.message),
    )
  ) {
    return usage(error.message);
  }
  process.stderr.write(
    `quire: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return 1;
}

function isString(value: string | undefined): value is string {
  return value !== undefined;
}

async function countLines(file: string): Promise<number> {
  let n = 0;
  for await (const _ of createInterface({ input: createReadStream(file), crlfDelay: Infinity }))
    n++;
  return n;
}
