/** @module Submission pages: CSRF, owners only, escaping, and the per-page body cap. */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setOwnerRole } from "../../services/owners/set-role.ts";
import { SUBMISSION_LIMITS } from "../../services/papers/submission.ts";
import { as, operator } from "../../testing/db.ts";
import { paperInput } from "../../testing/factories.ts";
import { csrfTokenIn, type PageClient } from "../../testing/page-client.ts";
import { MAX_FORM_BYTES } from "./page.ts";
import { signedInClient } from "./pages.test-helpers.ts";
import {
  paperForm,
  postPaperForm,
  redirectedPaperId,
  type SubmitTestApp,
  startSubmitApp,
} from "./submit.test-helpers.ts";

let app: SubmitTestApp;

beforeAll(async () => {
  app = await startSubmitApp();
});
afterAll(async () => app.close());
beforeEach(() => {
  app.llm.behaviour = { kind: "verdict", verdict: "pass" };
  app.llm.requests.length = 0;
});

async function status(id: string): Promise<number> {
  return (await app.test.app.request(`/api/v1/papers/${id}`)).status;
}

async function myPaperIds(client: PageClient): Promise<string[]> {
  const page = await client.get("/my/papers");
  return [...page.html.matchAll(/<tr id="paper-(\d{4}\.\d{5})">/g)].map((m) => m[1] as string);
}

describe("CSRF", () => {
  it("refuses every paper form without the session's token (403), storing nothing", async () => {
    const { client } = await signedInClient(app.test);
    const id = redirectedPaperId(await postPaperForm(client, "/submit", paperForm()));
    const other = await signedInClient(app.test);
    const othersToken = csrfTokenIn((await other.client.get("/submit")).html, "/submit");
    app.llm.requests.length = 0;
    const before = await myPaperIds(client);
    for (const [path, fields] of [
      ["/submit", paperForm()],
      [`/papers/${id}/revise`, { ...paperForm(), changelog: "Forged." }],
      [`/papers/${id}/withdraw`, { reason: "Forged." }],
    ] as const) {
      for (const token of [undefined, "forged", othersToken]) {
        const res = await client.post(path, {
          ...(token ? { _csrf: token } : {}),
          intent: "submit",
          ...fields,
        });
        expect(res.status).toBe(403);
      }
      const good = csrfTokenIn((await client.get(path)).html, path);
      const crossSite = await client.post(
        path,
        { _csrf: good, intent: "submit", ...fields },
        { "sec-fetch-site": "cross-site" },
      );
      expect(crossSite.status).toBe(403);
    }
    expect(app.llm.requests).toHaveLength(0);
    expect(await myPaperIds(client)).toEqual(before);
    expect(await status(id)).toBe(200);
    const api = (await (await app.test.app.request(`/api/v1/papers/${id}`)).json()) as {
      paper: { version: number };
    };
    expect(api.paper.version).toBe(1);
  });
});

describe("owners only", () => {
  it("gives another owner 404 on revise, withdraw and the owner's view, and changes nothing", async () => {
    const alice = await signedInClient(app.test);
    const id = redirectedPaperId(await postPaperForm(alice.client, "/submit", paperForm()));
    const bob = await signedInClient(app.test);
    for (const lang of ["", "/es"]) {
      for (const path of [`/papers/${id}/revise`, `/papers/${id}/withdraw`, `/my/papers/${id}`]) {
        expect((await bob.client.get(`${lang}${path}`)).status).toBe(404);
      }
      // Bob's own token, on a form of his own: the refusal is about ownership, not CSRF.
      const token = csrfTokenIn((await bob.client.get(`${lang}/submit`)).html, `${lang}/submit`);
      const revise = await bob.client.post(`${lang}/papers/${id}/revise`, {
        _csrf: token,
        intent: "submit",
        ...paperForm(),
        changelog: "Hijacked.",
      });
      expect(revise.status).toBe(404);
      const withdraw = await bob.client.post(`${lang}/papers/${id}/withdraw`, {
        _csrf: token,
        reason: "Hijacked.",
      });
      expect(withdraw.status).toBe(404);
    }
    expect(await myPaperIds(bob.client)).toEqual([]);
    expect(await status(id)).toBe(200);
    const api = (await (await app.test.app.request(`/api/v1/papers/${id}`)).json()) as {
      paper: { version: number };
    };
    expect(api.paper.version).toBe(1);
  });

  it("gives a moderator who is not the owner 404 too (moderators remove; they do not withdraw)", async () => {
    const alice = await signedInClient(app.test);
    const id = redirectedPaperId(await postPaperForm(alice.client, "/submit", paperForm()));
    const { client: moderator, handle } = await signedInClient(app.test);
    await setOwnerRole(as(app.test.ctx, operator), { handle, role: "moderator" });
    expect((await moderator.get(`/papers/${id}/withdraw`)).status).toBe(404);
    const token = csrfTokenIn((await moderator.get("/submit")).html, "/submit");
    const res = await moderator.post(`/papers/${id}/withdraw`, { _csrf: token });
    expect(res.status).toBe(404);
    expect(await status(id)).toBe(200);
  });
});

describe("escaping", () => {
  it("shows what owners type as text: titles, Markdown HTML and unsafe links", async () => {
    const { client } = await signedInClient(app.test);
    const fields = paperForm({
      title: `A <img src=x onerror=alert(1)> study of ${paperInput().title}`,
      body: "## Part\n\n<script>alert(1)</script>\n\n[click](javascript:alert(1))\n",
    });
    const preview = await postPaperForm(client, "/submit", fields, "preview");
    expect(preview.status).toBe(200);
    expect(preview.html).not.toContain("<img src=x");
    expect(preview.html).not.toContain("<script>alert(1)");
    expect(preview.html).not.toContain('href="javascript:');
    const res = await postPaperForm(client, "/submit", fields);
    const id = redirectedPaperId(res);
    for (const path of ["/my/papers", `/my/papers/${id}`, `/papers/${id}/withdraw`]) {
      const page = await client.get(path);
      expect(page.html).not.toContain("<img src=x");
      expect(page.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    }
  });
});

describe("the body cap", () => {
  it("lets a paper at its bounds through while other forms keep the 16 KB cap", async () => {
    const { client } = await signedInClient(app.test);
    let body = "## Introduction\n\n";
    while (Array.from(body).length < SUBMISSION_LIMITS.bodyMax - 2000) {
      body += `${paperInput().abstract}\n\n`;
    }
    const res = await postPaperForm(client, "/submit", paperForm({ body }));
    expect(res.status).toBe(303);
    const token = csrfTokenIn((await client.get("/agents")).html, "/agents");
    const agents = await client.post("/agents", {
      _csrf: token,
      name: "x".repeat(MAX_FORM_BYTES),
      model: "m",
    });
    expect(agents.status).toBe(413);
  });
});
