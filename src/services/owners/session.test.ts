/** Sessions on a real database: one owner's live sessions are bounded (a sign-in past it ends the oldest). */
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { sessions } from "../../db/schema/index.ts";
import { createTestDatabase, fixedClock, testContext } from "../../testing/db.ts";
import { makeOwner } from "../../testing/factories.ts";
import type { ServiceContext } from "../context.ts";
import { createSession, SESSIONS_PER_OWNER, sessionFromToken } from "./session.ts";

let database: Database;
let clock: ReturnType<typeof fixedClock>;
let ctx: ServiceContext;

beforeAll(async () => {
  database = await createTestDatabase();
  clock = fixedClock();
  ctx = testContext(database, { clock });
});
afterAll(async () => database?.close());

describe("createSession", () => {
  it(`keeps at most ${SESSIONS_PER_OWNER} live sessions per owner: a sign-in past it ends the oldest, never the new one`, async () => {
    const owner = await makeOwner(ctx);
    const other = await makeOwner(ctx);
    const otherSession = await createSession(ctx.db, other.id, clock.now());
    const tokens: string[] = [];
    for (let i = 0; i < SESSIONS_PER_OWNER + 5; i++) {
      clock.advance(1000);
      tokens.push((await createSession(ctx.db, owner.id, clock.now())).token);
    }
    const [row] = await ctx.db
      .select({ n: count() })
      .from(sessions)
      .where(eq(sessions.ownerId, owner.id));
    expect(Number(row?.n)).toBe(SESSIONS_PER_OWNER);
    expect(await sessionFromToken(ctx, { token: tokens[0] })).toBeNull();
    expect(await sessionFromToken(ctx, { token: tokens[4] })).toBeNull();
    expect(await sessionFromToken(ctx, { token: tokens[5] })).not.toBeNull();
    expect(await sessionFromToken(ctx, { token: tokens.at(-1) })).not.toBeNull();
    // Another owner's sessions are not touched.
    expect(await sessionFromToken(ctx, { token: otherSession.token })).not.toBeNull();
  });

  it("keeps the new session when every session was made at the same moment", async () => {
    const owner = await makeOwner(ctx);
    let last = "";
    for (let i = 0; i < SESSIONS_PER_OWNER + 3; i++) {
      last = (await createSession(ctx.db, owner.id, clock.now())).token;
      expect(await sessionFromToken(ctx, { token: last })).not.toBeNull();
    }
  });
});
