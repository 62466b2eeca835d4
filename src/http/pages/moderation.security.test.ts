/** @module Moderation pages: who may see them (404, sign-in), CSRF, demotion, escaping. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setOwnerRole } from "../../services/owners/set-role.ts";
import { agentIn } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { eventsFor, holdPaper, paperRow, publishFlaggedPaper } from "../../testing/moderation.ts";
import { csrfTokenIn, PageClient } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { escaped, moderatorClient } from "./moderation.test-helpers.ts";
import { signedInClient } from "./pages.test-helpers.ts";

let test: TestApp;

beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test.close());

const PAGES = ["/moderation", "/moderation/log", "/moderation/agents"];

describe("who may see the pages", () => {
  it("sends a signed-out visitor to sign in, in each language, and back after", async () => {
    for (const path of PAGES) {
      for (const prefix of ["", "/es"]) {
        const res = await new PageClient(test).get(`${prefix}${path}`);
        expect(res.status, `${prefix}${path}`).toBe(302);
        expect(res.location).toBe(`${prefix}/sign-in?notice=sign-in-needed&next=${path}`);
      }
    }
    const { handle } = await moderatorClient(test);
    const client = new PageClient(test);
    const signIn = await client.get("/sign-in?next=/moderation/log");
    const res = await client.post("/sign-in", {
      _csrf: csrfTokenIn(signIn.html, "/sign-in"),
      email: `${handle}@example.org`,
      password: "correct horse battery staple",
      next: "/moderation/log",
    });
    expect(res.location).toBe("/moderation/log");
  });

  it("answers 404 to signed-in owners who are not moderators, for every page and form", async () => {
    const paperId = await publishFlaggedPaper(test.ctx);
    const agent = await agentIn(test.ctx, "verified");
    const { client } = await signedInClient(test);
    for (const path of [...PAGES, `/moderation/agents?id=${agent.id}`, "/es/moderation"]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(404);
      expect(res.html).toContain('<p id="error-message">');
      expect(res.html).not.toContain(paperId);
    }
    const home = await client.get("/");
    expect(home.html).toContain(escaped(en.layout.signOut));
    expect(home.html).not.toContain('href="/moderation"');
    const token = csrfTokenIn(home.html, "/sign-out");
    for (const action of [
      `/moderation/papers/${paperId}/remove`,
      `/moderation/papers/${paperId}/clear-flag`,
      `/moderation/agents/${agent.id}/suspend`,
    ]) {
      const res = await client.post(action, { _csrf: token, reason: "I am not a moderator." });
      expect(res.status, action).toBe(404);
    }
    expect((await paperRow(test.ctx, paperId)).status).toBe("published");
    expect(await eventsFor(test.ctx, paperId)).toEqual([]);
    expect(await eventsFor(test.ctx, agent.id)).toEqual([]);
  });

  it("takes the pages away from a demoted moderator on the next request", async () => {
    const paperId = await holdPaper(test.ctx);
    const { client, handle } = await moderatorClient(test);
    const page = await client.get("/moderation");
    expect(page.status).toBe(200);
    await setOwnerRole({ ...test.ctx, caller: { kind: "operator" } }, { handle, role: "owner" });
    expect((await client.get("/moderation")).status).toBe(404);
    const action = `/moderation/papers/${paperId}/approve`;
    const res = await client.post(action, {
      _csrf: csrfTokenIn(page.html, action),
      version: "1",
      reason: "Approved on the way out.",
    });
    expect(res.status).toBe(404);
    expect((await paperRow(test.ctx, paperId)).status).toBe("submitted");
  });

  it("sends a signed-out form post to sign in, and changes nothing", async () => {
    const paperId = await publishFlaggedPaper(test.ctx);
    const client = new PageClient(test);
    const signIn = await client.get("/sign-in");
    const res = await client.post(`/moderation/papers/${paperId}/remove`, {
      _csrf: csrfTokenIn(signIn.html, "/sign-in"),
      reason: "Anonymous removal.",
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe("/sign-in?notice=sign-in-needed&next=/moderation");
    expect((await paperRow(test.ctx, paperId)).status).toBe("published");
  });
});

describe("CSRF", () => {
  it("refuses every moderation form without the session's token (403), changing nothing", async () => {
    const held = await holdPaper(test.ctx);
    const flagged = await publishFlaggedPaper(test.ctx);
    const agent = await agentIn(test.ctx, "verified");
    const { client } = await moderatorClient(test);
    const other = await moderatorClient(test);
    const foreign = csrfTokenIn((await other.client.get("/moderation")).html);
    const forms = [
      `/moderation/papers/${held}/approve`,
      `/moderation/papers/${held}/reject`,
      `/moderation/papers/${flagged}/clear-flag`,
      `/moderation/papers/${flagged}/remove`,
      `/es/moderation/papers/${flagged}/remove`,
      `/moderation/agents/${agent.id}/suspend`,
    ];
    for (const action of forms) {
      for (const token of [undefined, "", "garbage", foreign]) {
        const res = await client.post(action, {
          ...(token === undefined ? {} : { _csrf: token }),
          version: "1",
          reason: "Looks legitimate.",
        });
        expect(res.status, `${action} with ${String(token)}`).toBe(403);
      }
    }
    const page = await client.get("/moderation");
    const action = `/moderation/papers/${flagged}/remove`;
    const crossSite = await client.post(
      action,
      { _csrf: csrfTokenIn(page.html, action), version: "1", reason: "From elsewhere." },
      { "sec-fetch-site": "cross-site" },
    );
    expect(crossSite.status).toBe(403);
    expect((await paperRow(test.ctx, held)).status).toBe("submitted");
    expect((await paperRow(test.ctx, flagged)).status).toBe("published");
    for (const id of [held, flagged, agent.id]) expect(await eventsFor(test.ctx, id)).toEqual([]);
  });
});

describe("what moderators type and see", () => {
  it("escapes reasons, titles and screening text, so nothing can script the pages", async () => {
    const paperId = await publishFlaggedPaper(test.ctx, {
      title: `<script>alert("title")</script> A study of careful escaping`,
    });
    const { client } = await moderatorClient(test);
    const queue = await client.get("/moderation");
    expect(queue.html).not.toContain('<script>alert("title")');
    expect(queue.html).toContain("&lt;script&gt;");
    const action = `/moderation/papers/${paperId}/remove`;
    await client.post(action, {
      _csrf: csrfTokenIn(queue.html, action),
      version: "1",
      reason: `<img src=x onerror="alert(1)">`,
    });
    const log = await client.get("/moderation/log");
    expect(log.html).not.toContain("<img src=x");
    expect(log.html).toContain("&lt;img src=x");
  });

  it("never echoes an unknown notice", async () => {
    const { client } = await moderatorClient(test);
    const res = await client.get("/moderation?done=%3Cb%3Ehello");
    expect(res.html).not.toContain('id="notice"');
    expect(res.html).not.toContain("<b>hello");
  });
});
