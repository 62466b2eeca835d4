/** @module Scratch resources for tests and benchmarks: a throwaway PostgreSQL database, a free port. */
import { randomBytes } from "node:crypto";
import type { Server as HttpServer } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import pg from "pg";

/**
 * Creates a fresh database on the server at `adminUrl`, hands its URL to `run`, and drops
 * it afterwards (forcing out leftover connections), whatever `run` did.
 */
export async function withScratchDatabase<T>(
  adminUrl: string,
  prefix: string,
  run: (url: string) => Promise<T>,
): Promise<T> {
  const { url, drop } = await createScratchDatabase(adminUrl, prefix);
  try {
    return await run(url);
  } finally {
    await drop();
  }
}

/** The same, for callers whose lifetime is not one function call (test files). */
export async function createScratchDatabase(
  adminUrl: string,
  prefix: string,
  options: { template?: string | undefined } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const template = options.template;
  if (template !== undefined && !/^[a-z0-9_]{1,63}$/.test(template)) {
    throw new Error(`not a template database name: ${template}`);
  }
  await adminQuery(
    adminUrl,
    template ? `create database ${name} template ${template}` : `create database ${name}`,
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `server` on an ephemeral loopback port; `close` also ends kept-alive connections, so
 * a fake backend never holds a test up.
 */
export async function listenOnLoopback(
  server: HttpServer,
): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
