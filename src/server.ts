/** @module Starts the HTTP server: the only module with process-wide side effects. */
import type { Server } from "node:http";
import { Server as NetServer } from "node:net";
import { serve } from "@hono/node-server";
import type { Logger } from "pino";
import { buildApp } from "./app.ts";
import type { Config } from "./config.ts";
import { createLifecycle } from "./http/lifecycle.ts";
import { buildMetricsApp } from "./http/ops/metrics.ts";
import { createMcpStreams } from "./mcp/streams.ts";
import { openRuntime } from "./runtime.ts";
import { seedSamplePapers } from "./services/papers/index.ts";

export interface RunningServer {
  port: number;
  logger: Logger;
  /** The metrics port, when METRICS_PORT is set. */
  metricsPort?: number;
  /**
   * Settles when the work done after listening (search index, sample papers) is done; rejects
   * when it failed (the CLI then stops the server and exits 1).
   */
  started: Promise<void>;
  /**
   * Graceful stop (see `shutDown`); resolves once everything is closed. Idempotent: every
   * call returns the same promise.
   */
  close(): Promise<void>;
  /** Stops waiting for requests in flight (a second signal): their connections close now. */
  forceClose(): void;
}

/**
 * How long after its start-up work the server starts Apertium's pipelines (translator.warm):
 * long enough for the first requests of a start to be answered before the main thread is
 * blocked by it.
 */
const TRANSLATOR_WARM_DELAY_MS = 1500;

/**
 * Opens the database (migrating it when it lacks a bundled migration) and listens on PORT;
 * then checks the search index and seeds an empty archive while already answering, with
 * /readyz saying "starting" until that is done (docs/adr/0026-start-up.md).
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const begun = performance.now();
  const runtime = await openRuntime(config, undefined, {
    background: true,
    metrics: true,
    responseCache: true,
    deferPreparation: true,
  });
  const opened = performance.now();
  const { logger, metrics } = runtime;
  const lifecycle = createLifecycle({ starting: true });
  const mcpStreams = createMcpStreams({
    services: runtime.services,
    listen: runtime.database.listen,
  });
  const app = buildApp({
    services: runtime.services,
    logger,
    baseUrl: config.BASE_URL,
    trustProxy: config.TRUST_PROXY,
    metrics,
    metricsToken: config.METRICS_TOKEN,
    lifecycle,
    responseCache: runtime.responseCache,
    mcpStreams,
  });
  const server = await listen(app.fetch, config.PORT, config.HOST, {
    headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeout: config.HTTP_BODY_TIMEOUT_MS,
  });
  const port = portOf(server, config.PORT);
  let metricsServer: Server | undefined;
  if (config.METRICS_PORT !== undefined && metrics) {
    const metricsApp = buildMetricsApp({ metrics, token: config.METRICS_TOKEN });
    metricsServer = await listen(
      metricsApp.fetch,
      config.METRICS_PORT,
      config.METRICS_HOST ?? config.HOST,
    );
  }
  const metricsPort = metricsServer ? portOf(metricsServer, config.METRICS_PORT ?? 0) : undefined;
  logger.info(
    {
      port,
      ...(metricsPort !== undefined ? { metrics_port: metricsPort } : {}),
      database: runtime.database.kind,
      location: runtime.database.location,
      // Milliseconds since the process started: modules loaded, runtime (database) open,
      // listening.
      startup_ms: { modules: ms(begun), runtime: ms(opened), listening: ms(performance.now()) },
    },
    `Quire is serving on http://localhost:${port}`,
  );
  let warmTimer: NodeJS.Timeout | undefined;
  const startupWork = (async () => {
    await runtime.prepared;
    if (config.SEED_SAMPLES) {
      // Under the startup lock: of instances starting together, only the first seeds.
      const seeded = await runtime.database.exclusive(() => seedSamplePapers(runtime.services));
      if (seeded) logger.info({ ...seeded }, "loaded the sample papers into the empty archive");
    }
  })().then(
    () => {
      lifecycle.startupDone(true);
      logger.info({ ms: ms(performance.now()) }, "ready: start-up work done");
      // Apertium's dictionaries load a moment later, not while the server starts nor in the
      // way of its first answers: finding and spawning its pipelines blocks the main thread
      // for a few hundred milliseconds, and on a warm start the start-up work is done within
      // milliseconds of listening. Until they are loaded a search starts them itself; a
      // failure only leaves search monolingual (see queryVariants).
      const translator = runtime.services.translator;
      if (translator) {
        warmTimer = setTimeout(() => {
          warmTimer = undefined;
          translator.warm().catch(() => {});
        }, TRANSLATOR_WARM_DELAY_MS);
        warmTimer.unref();
      }
    },
    (error: unknown) => {
      lifecycle.startupDone(false);
      logger.error({ err: error }, "start-up work failed");
      throw error;
    },
  );
  // Handled by the CLI through `started`; this keeps it from counting as unhandled meanwhile.
  startupWork.catch(() => {});

  let force: (() => void) | undefined;
  let closing: Promise<void> | null = null;
  return {
    port,
    logger,
    started: startupWork,
    ...(metricsPort !== undefined ? { metricsPort } : {}),
    forceClose: () => force?.(),
    close: () => {
      closing ??= (async () => {
        const started = performance.now();
        clearTimeout(warmTimer);
        // Not ready first, so a load balancer polling /readyz stops sending new traffic.
        lifecycle.startDrain();
        logger.info(
          { timeout_ms: config.SHUTDOWN_TIMEOUT_MS, in_flight: lifecycle.inFlight },
          "shutting down: finishing requests in flight",
        );
        // The worker hands its claims back while requests finish; it needs the database only.
        const background = runtime.stopBackground();
        // MCP event streams never finish by themselves: they end now, and their clients
        // reconnect to an instance that is not stopping.
        const streams = mcpStreams.close();
        const drained = drain(server, config.SHUTDOWN_TIMEOUT_MS, (f) => {
          force = f;
        });
        const { closedConnections } = await drained;
        if (closedConnections > 0) {
          logger.warn(
            { connections: closedConnections, in_flight: lifecycle.inFlight },
            "shutdown deadline passed: closed the remaining connections",
          );
          // Handlers of cut connections may still be writing; give them a moment.
          await Promise.race([lifecycle.idle(), delay(1000)]);
        }
        await background;
        await streams;
        // Start-up work still running (seeding the samples) ends before the database closes.
        await startupWork.catch(() => {});
        if (metricsServer) {
          await drain(metricsServer, 0, () => {});
        }
        // Key uses are written after the last request that could record one.
        await runtime.close();
        logger.info({ ms: Math.round(performance.now() - started) }, "stopped");
      })();
      return closing;
    },
  };
}

/**
 * Deadlines for a request to arrive (headers, then the whole request): a client that sends
 * slowly or never finishes gets 408 and its connection closed. Node checks them every
 * `connectionsCheckingInterval`, so that is kept well under the headers deadline.
 */
interface ArrivalDeadlines {
  headersTimeout: number;
  requestTimeout: number;
}

function listen(
  fetch: Parameters<typeof serve>[0]["fetch"],
  port: number,
  hostname: string,
  deadlines?: ArrivalDeadlines,
) {
  const serverOptions = deadlines
    ? {
        ...deadlines,
        connectionsCheckingInterval: Math.max(250, Math.min(1000, deadlines.headersTimeout / 4)),
      }
    : undefined;
  return new Promise<Server>((resolve) => {
    const s = serve({ fetch, port, hostname, ...(serverOptions ? { serverOptions } : {}) }, () =>
      resolve(s as Server),
    );
  });
}

function portOf(server: Server, fallback: number): number {
  const address = server.address();
  return typeof address === "object" && address ? address.port : fallback;
}

function ms(value: number): number {
  return Math.round(value);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Stops accepting connections and waits until the open ones end, at most `timeoutMs`, then
 * closes what remains.
 *
 * It calls net.Server's close, not http.Server's: since Node 19 the latter also closes idle
 * keep-alive connections at once, and a client that has just sent its next request on one
 * (it is idle only from the server's side) would get a reset. Instead each open connection
 * ends on its own: busy ones after their response, which says `Connection: close` while
 * draining (see observe.ts); idle ones when their keep-alive timeout expires (5 s, which the
 * server announces in `Keep-Alive: timeout=5`, so clients stop reusing them before then).
 * `setForce` receives a function that ends the wait early (a second signal).
 */
async function drain(
  server: Server,
  timeoutMs: number,
  setForce: (force: () => void) => void,
): Promise<{ closedConnections: number }> {
  const closed = new Promise<void>((resolve) => {
    NetServer.prototype.close.call(server, () => resolve());
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"deadline">((resolve) => {
    timer = setTimeout(() => resolve("deadline"), timeoutMs);
    setForce(() => resolve("deadline"));
  });
  const outcome = await Promise.race([closed.then(() => "drained" as const), deadline]);
  clearTimeout(timer);
  if (outcome === "drained") return { closedConnections: 0 };
  const open = await new Promise<number>((resolve) =>
    server.getConnections((error, count) => resolve(error ? 0 : count)),
  );
  server.closeAllConnections();
  await closed;
  return { closedConnections: open };
}

/** For the CLI: logs and leaves when something still holds the process after a clean stop. */
export function exitIfStuck(logger: Logger, ms = 2000): void {
  setTimeout(() => {
    logger.warn("something held the process open after shutdown; exiting");
    process.exit(process.exitCode ?? 0);
  }, ms).unref();
}
