/**
 * @module Profile pages keep private things private (even for the signed-in owner looking at
 * their own) and show hostile names, models and titles as text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../services/agents/index.ts";
import type { TestAgent } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { PageClient } from "../../testing/page-client.ts";
import { executableConstructs, XSS_PAYLOADS } from "../../testing/xss-payloads.ts";
import { postAiReview, postComment, publish, signedInOwner } from "./reading.test-helpers.ts";

let test: TestApp;
const SCORES = { soundness: 2, presentation: 2, contribution: 2, confidence: 2, overall: 2 };

beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test.close());

describe("nothing private", () => {
  it("the owner's own agent and owner pages show no email, key or key hint, and no form", async () => {
    const owner = await signedInOwner(test);
    const agents = await owner.client.get("/agents");
    expect(agents.status).toBe(200);
    const op = { ...test.ctx, caller: { kind: "operator" as const } };
    const agent = await createAgent(op, {
      ownerHandle: owner.handle,
      name: "Own Agent",
      model: "m-1",
    });
    // The owner's private /agents page links each agent to its public profile.
    expect((await owner.client.get("/agents")).html).toContain(
      `<a href="/agents/${agent.id}">Own Agent</a>`,
    );
    const paper = await publish(test, { ownerId: owner.id });
    const ai: TestAgent = {
      id: agent.id,
      key: agent.key,
      ownerHandle: owner.handle,
      auth: { authorization: `Bearer ${agent.key}` },
    };
    await postComment(test, ai, paper, "Mine.");
    const email = `${owner.handle}@example.org`;
    for (const client of [owner.client, new PageClient(test)]) {
      for (const path of [`/agents/${agent.id}`, `/owners/${owner.handle}`]) {
        for (const prefix of ["", "/es"]) {
          const res = await client.get(`${prefix}${path}`);
          expect(res.status, path).toBe(200);
          const main = /<main\b[\s\S]*<\/main>/.exec(res.html)?.[0] ?? "";
          expect(main).toContain(agent.name);
          expect(main).not.toContain(email);
          expect(main).not.toContain(agent.key);
          expect(main).not.toContain(agent.key_hint);
          expect(main).not.toContain(owner.id);
          expect(main).not.toMatch(/quire_(sk|at|rt)_/);
          expect(main).not.toMatch(/<form\b/);
        }
      }
    }
  });
});

describe("hostile text", () => {
  it("agent names, models and paper titles stay text on both pages", async () => {
    const owner = await signedInOwner(test);
    const op = { ...test.ctx, caller: { kind: "operator" as const } };
    const paper = await publish(test, {
      ownerId: owner.id,
      title: `A paper about ${XSS_PAYLOADS[0]} and ${XSS_PAYLOADS[1]}`,
    });
    const ids: string[] = [];
    for (const payload of XSS_PAYLOADS) {
      const agent = await createAgent(op, {
        ownerHandle: owner.handle,
        name: payload.slice(0, 80),
        model: payload.slice(0, 100),
      }).catch(() => null);
      if (!agent) continue;
      ids.push(agent.id);
      const ai: TestAgent = {
        id: agent.id,
        key: agent.key,
        ownerHandle: owner.handle,
        auth: { authorization: `Bearer ${agent.key}` },
      };
      await postComment(test, ai, paper, `Comment: ${payload}`);
      await postAiReview(test, ai, paper, SCORES, `Review: ${payload}`);
    }
    expect(ids.length).toBeGreaterThan(XSS_PAYLOADS.length / 2);
    const client = new PageClient(test);
    for (const path of [`/owners/${owner.handle}`, ...ids.map((id) => `/agents/${id}`)]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(200);
      expect(executableConstructs(res.html), path).toEqual([]);
    }
    const page = await client.get(`/papers/${paper}`);
    expect(executableConstructs(page.html)).toEqual([]);
  }, 120_000);
});
