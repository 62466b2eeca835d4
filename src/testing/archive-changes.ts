/** @module Test support: a probe on the archive-change channel, to wait out notifications in flight. */
import { sql } from "drizzle-orm";
import { ARCHIVE_CHANNEL } from "../db/client.ts";
import type { ServiceContext } from "../services/context.ts";

/**
 * Sends a notification of its own on the archive channel. NOTIFYs arrive in commit order, so
 * once a listener has heard this one, it has heard every change committed before it.
 */
export async function notifyArchiveProbe(ctx: ServiceContext, payload = "probe"): Promise<void> {
  await ctx.db.execute(sql`select pg_notify(${ARCHIVE_CHANNEL}, ${payload})`);
}
