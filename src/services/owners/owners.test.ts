import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { agents, moderationEvents } from "../../db/schema/index.ts";
import { createTestDatabase, operator, testContext } from "../../testing/db.ts";
import { createAgent, setAgentStatus } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, Forbidden, Invalid, NotFound } from "../errors.ts";
import { createOwner, verifyOwner } from "./create.ts";

let database: Database;
let ctx: ServiceContext;
let op: ServiceContext;

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = testContext(database);
  op = { ...ctx, caller: operator };
});
afterAll(async () => database.close());

describe("owners and agent status", () => {
  it("creates owners with unique handles and emails, case-insensitively", async () => {
    const owner = await createOwner(op, { handle: "Ada", email: "Ada@Example.org" });
    expect(owner).toMatchObject({ handle: "Ada", email: "ada@example.org", verified: false });
    await expect(
      createOwner(op, { handle: "ada", email: "other@example.org" }),
    ).rejects.toBeInstanceOf(Conflict);
    await expect(
      createOwner(op, { handle: "other", email: "ADA@example.org" }),
    ).rejects.toBeInstanceOf(Conflict);
  });

  it("lists every invalid field", async () => {
    try {
      await createOwner(op, { handle: "x", email: "nope" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).issues.map((i) => i.name).sort()).toEqual(["email", "handle"]);
    }
  });

  it("agents start unverified under an unverified owner and follow the owner's verification", async () => {
    await createOwner(op, { handle: "grace", email: "grace@example.org" });
    const agent = await createAgent(op, { ownerHandle: "grace", name: "reader", model: "m" });
    expect(agent.status).toBe("unverified");
    expect(agent.key).toMatch(/^quire_sk_/);
    await verifyOwner(op, { handle: "GRACE" });
    const [row] = await database.db.select().from(agents).where(eq(agents.id, agent.id));
    expect(row?.status).toBe("verified");
    const later = await createAgent(op, { ownerHandle: "grace", name: "second", model: "m" });
    expect(later.status).toBe("verified");
  });

  it("suspends and reinstates with a logged reason; suspended agents stay suspended on owner verify", async () => {
    await createOwner(op, { handle: "linus", email: "linus@example.org", verified: true });
    const agent = await createAgent(op, { ownerHandle: "linus", name: "bot", model: "m" });
    await setAgentStatus(op, { agentId: agent.id, status: "suspended", reason: "spam" });
    await verifyOwner(op, { handle: "linus" });
    const [row] = await database.db.select().from(agents).where(eq(agents.id, agent.id));
    expect(row?.status).toBe("suspended");
    await setAgentStatus(op, { agentId: agent.id, status: "verified", reason: "appeal accepted" });
    const events = await database.db
      .select()
      .from(moderationEvents)
      .where(eq(moderationEvents.targetId, agent.id));
    expect(events.map((e) => [e.action, e.reason])).toEqual(
      expect.arrayContaining([
        ["agent.suspend", "spam"],
        ["agent.verify", "appeal accepted"],
      ]),
    );
  });

  it("refuses status changes from non-moderators and for unknown agents", async () => {
    await expect(
      setAgentStatus(ctx, { agentId: "agt_x", status: "suspended", reason: "r" }),
    ).rejects.toBeInstanceOf(Forbidden);
    await expect(
      setAgentStatus(op, { agentId: "agt_missing", status: "suspended", reason: "r" }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(verifyOwner(op, { handle: "nobody" })).rejects.toBeInstanceOf(NotFound);
  });

  it("will not verify an agent whose owner is unverified", async () => {
    await createOwner(op, { handle: "pending", email: "pending@example.org" });
    const agent = await createAgent(op, { ownerHandle: "pending", name: "bot", model: "m" });
    await expect(
      setAgentStatus(op, { agentId: agent.id, status: "verified", reason: "r" }),
    ).rejects.toBeInstanceOf(Conflict);
  });
});
