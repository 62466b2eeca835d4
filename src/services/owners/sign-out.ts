/** @module signOut: ends a site session by deleting its row. */
import { eq } from "drizzle-orm";
import { sessions } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { hashToken, isTokenShaped } from "./tokens.ts";

/** Deletes the session the token names (if any); the cookie alone is worth nothing after. */
export async function signOut(ctx: ServiceContext, input: { token: unknown }): Promise<void> {
  if (!isTokenShaped(input.token)) return;
  await ctx.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(input.token)));
}
