/** @module Starts the HTTP server: the only module with process-wide side effects. */
import { type ServerType, serve } from "@hono/node-server";
import { buildApp } from "./app.ts";
import type { Config } from "./config.ts";
import { openRuntime } from "./runtime.ts";
import { seedSamplePapers } from "./services/papers/seed.ts";

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

/** Opens the database (migrating it), seeds an empty archive, and listens on PORT. */
export async function startServer(config: Config): Promise<RunningServer> {
  const runtime = await openRuntime(config, undefined, { background: true });
  const { logger } = runtime;
  if (config.SEED_SAMPLES) {
    // Under the startup lock: of instances starting together, only the first seeds.
    const seeded = await runtime.database.exclusive(() => seedSamplePapers(runtime.services));
    if (seeded) logger.info({ ...seeded }, "loaded the sample papers into the empty archive");
  }
  const app = buildApp({
    services: runtime.services,
    logger,
    baseUrl: config.BASE_URL,
    trustProxy: config.TRUST_PROXY,
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, () =>
      resolve(s),
    );
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  logger.info(
    { port, database: runtime.database.kind, location: runtime.database.location },
    `Quire is serving on http://localhost:${port}`,
  );
  let closing: Promise<void> | null = null;
  return {
    port,
    close: () => {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ("closeIdleConnections" in server) server.closeIdleConnections();
        });
        await runtime.close();
        logger.info("stopped");
      })();
      return closing;
    },
  };
}
