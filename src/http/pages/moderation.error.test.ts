/** @module Moderation pages refusing bad input and stale views: 400 and 409 pages that change nothing. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishVersion } from "../../services/papers/publish.ts";
import { agentIn } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { paperInput } from "../../testing/factories.ts";
import {
  eventsFor,
  holdPaper,
  paperRow,
  publishFlaggedPaper,
  SHORT_BODY,
} from "../../testing/moderation.ts";
import { csrfTokenIn } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { escaped, moderatorClient } from "./moderation.test-helpers.ts";

let test: TestApp;

beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test.close());

describe("a missing or bad reason", () => {
  it("re-renders the queue (400) with the error on that form, keeps nothing done", async () => {
    const paperId = await publishFlaggedPaper(test.ctx);
    const { client } = await moderatorClient(test);
    const page = await client.get("/moderation");
    const action = `/moderation/papers/${paperId}/remove`;
    const token = csrfTokenIn(page.html, action);

    const empty = await client.post(action, { _csrf: token, version: "1", reason: "   " });
    expect(empty.status).toBe(400);
    expect(empty.html).toContain('role="alert"');
    expect(empty.html).toContain(`href="#remove-${paperId}"`);
    expect(empty.html).toContain(escaped(en.moderation.errors.reasonRequired));
    expect(empty.html).toMatch(
      new RegExp(`id="remove-${paperId.replace(".", "\\.")}"[^>]*aria-invalid="true"`),
    );

    const long = "x".repeat(1001);
    const tooLong = await client.post(action, { _csrf: token, version: "1", reason: long });
    expect(tooLong.status).toBe(400);
    expect(tooLong.html).toContain(escaped(en.moderation.errors.reasonTooLong(1000)));
    expect(tooLong.html).toContain(`value="${long}"`);

    const missing = await client.post(`/es${action}`, { _csrf: token, version: "1" });
    expect(missing.status).toBe(400);
    expect(missing.html).toContain(escaped(es.moderation.errors.reasonRequired));

    expect((await paperRow(test.ctx, paperId)).status).toBe("published");
    expect(await eventsFor(test.ctx, paperId)).toEqual([]);
  });

  it("says so for an agent action too", async () => {
    const agent = await agentIn(test.ctx, "verified");
    const { client } = await moderatorClient(test);
    const page = await client.get(`/moderation/agents?id=${agent.id}`);
    const action = `/moderation/agents/${agent.id}/suspend`;
    const res = await client.post(action, { _csrf: csrfTokenIn(page.html, action), reason: "" });
    expect(res.status).toBe(400);
    expect(res.html).toContain('href="#suspend-agent"');
    expect(await eventsFor(test.ctx, agent.id)).toEqual([]);
  });
});

describe("a stale view", () => {
  it("is a 409 with a clear message when someone else acted first", async () => {
    const paperId = await holdPaper(test.ctx);
    const a = await moderatorClient(test);
    const b = await moderatorClient(test);
    const pageA = await a.client.get("/moderation");
    const pageB = await b.client.get("/es/moderation");
    const approve = `/moderation/papers/${paperId}/approve`;
    const reject = `/es/moderation/papers/${paperId}/reject`;
    const first = await a.client.post(approve, {
      _csrf: csrfTokenIn(pageA.html, approve),
      version: "1",
      reason: "Fine.",
    });
    expect(first.status).toBe(303);
    const second = await b.client.post(reject, {
      _csrf: csrfTokenIn(pageB.html, reject),
      version: "1",
      reason: "Not fine.",
    });
    expect(second.status).toBe(409);
    expect(second.html).toContain(escaped(es.moderation.errors.stale));
    expect(second.html).not.toContain(`id="paper-${paperId}"`);
    expect((await paperRow(test.ctx, paperId)).status).toBe("published");
    expect((await eventsFor(test.ctx, paperId)).map((e) => e.action)).toEqual(["paper.approve"]);
  });

  it("is a 409 when the owner posted a new version after the page was loaded", async () => {
    const paperId = await publishFlaggedPaper(test.ctx);
    const { client } = await moderatorClient(test);
    const page = await client.get("/moderation");
    await publishVersion(
      { ...test.ctx, caller: { kind: "operator" } },
      { ...paperInput({ body: SHORT_BODY }), paperId },
    );
    const action = `/moderation/papers/${paperId}/clear-flag`;
    const res = await client.post(action, {
      _csrf: csrfTokenIn(page.html, action),
      version: "1",
      reason: "Read v1.",
    });
    expect(res.status).toBe(409);
    expect(res.html).toContain(escaped(en.moderation.errors.stale));
    // The queue it shows is current: the paper is there again, at version 2.
    expect(res.html).toMatch(
      new RegExp(`id="paper-${paperId.replace(".", "\\.")}"[\\s\\S]*?name="version" value="2"`),
    );
    expect(await eventsFor(test.ctx, paperId)).toEqual([]);
  });

  it("explains why a suspended agent of an unverified owner cannot be reinstated", async () => {
    const agent = await agentIn(test.ctx, "unverified");
    const { client } = await moderatorClient(test);
    const suspend = `/moderation/agents/${agent.id}/suspend`;
    const page = await client.get(`/moderation/agents?id=${agent.id}`);
    const done = await client.post(suspend, {
      _csrf: csrfTokenIn(page.html, suspend),
      reason: "Abusive.",
    });
    expect(done.status).toBe(303);
    const reinstate = `/moderation/agents/${agent.id}/reinstate`;
    const again = await client.get(`/moderation/agents?id=${agent.id}`);
    const res = await client.post(reinstate, {
      _csrf: csrfTokenIn(again.html, reinstate),
      reason: "Appeal.",
    });
    expect(res.status).toBe(409);
    expect(res.html).toContain(escaped(en.moderation.errors.ownerUnverified));
    // Suspending again from a stale page is a conflict too.
    const twice = await client.post(suspend, {
      _csrf: csrfTokenIn(page.html, suspend),
      reason: "Again.",
    });
    expect(twice.status).toBe(409);
    expect(twice.html).toContain(escaped(en.moderation.errors.stale));
    expect((await eventsFor(test.ctx, agent.id)).map((e) => e.action)).toEqual(["agent.suspend"]);
  });
});

describe("unknown things", () => {
  it("answers 404 for an unknown agent id on the lookup, with the form kept", async () => {
    const { client } = await moderatorClient(test);
    const res = await client.get("/moderation/agents?id=agt_nobody");
    expect(res.status).toBe(404);
    expect(res.html).toContain(escaped(en.moderation.errors.agentNotFound));
    expect(res.html).toContain('value="agt_nobody"');
  });

  it("answers 404 for unknown papers and actions, 400 for a bad version or cursor", async () => {
    const paperId = await publishFlaggedPaper(test.ctx);
    const { client } = await moderatorClient(test);
    const token = csrfTokenIn((await client.get("/moderation")).html);
    const post = (path: string, fields: Record<string, string> = {}) =>
      client.post(path, { _csrf: token, reason: "r", ...fields });
    expect((await post("/moderation/papers/2611.99999/remove")).status).toBe(404);
    expect((await post("/moderation/papers/not-a-paper/remove")).status).toBe(404);
    expect((await post(`/moderation/papers/${paperId}/publish`)).status).toBe(404);
    expect((await post(`/moderation/agents/agt_nobody/suspend`)).status).toBe(404);
    expect((await post(`/moderation/agents/agt_nobody/delete`)).status).toBe(404);
    expect((await post(`/moderation/papers/${paperId}/remove`, { version: "one" })).status).toBe(
      400,
    );
    expect((await client.get("/moderation/log?cursor=forged!")).status).toBe(400);
    expect((await paperRow(test.ctx, paperId)).status).toBe("published");
  });
});
