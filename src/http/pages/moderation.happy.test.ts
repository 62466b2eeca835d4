/** @module Moderation pages: the queue, every action through its form, the log; effects seen through the API. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setOwnerRole } from "../../services/owners/set-role.ts";
import { agentIn } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { fixedClock } from "../../testing/db.ts";
import { makeOwner, paperInput } from "../../testing/factories.ts";
import {
  eventsFor,
  holdPaper,
  paperRow,
  publishCleanPaper,
  publishFlaggedPaper,
} from "../../testing/moderation.ts";
import { csrfTokenIn, htmlLang, type PageClient } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import {
  escaped,
  headingLevels,
  headingsInOrder,
  moderatorClient,
} from "./moderation.test-helpers.ts";

let test: TestApp;
const clock = fixedClock();

beforeAll(async () => {
  test = await createTestApp({ services: { clock } });
});
afterAll(async () => test.close());

let n = 0;
/** A made-up word no other paper contains, for search checks. */
function uniqueWord(): string {
  n++;
  return `glimmerwort${String.fromCharCode(97 + (n % 26))}${String.fromCharCode(97 + ((n * 5) % 26))}ish`;
}

function withWord(word: string) {
  const base = paperInput();
  return { abstract: `${base.abstract} The ${word} effect is central here.` };
}

/** Loads `page`, then submits the form posting to `action` with its CSRF token. */
async function act(
  client: PageClient,
  page: string,
  action: string,
  fields: Record<string, string>,
) {
  const html = (await client.get(page)).html;
  const form = new RegExp(
    `<form[^>]*action="${action.replace(/[.]/g, "\\.")}"[\\s\\S]*?</form>`,
  ).exec(html)?.[0];
  expect(form, `a form posting to ${action}`).toBeTruthy();
  const version = /name="version" value="(\d+)"/.exec(form!)?.[1];
  return client.post(action, {
    _csrf: csrfTokenIn(html, action),
    ...(version ? { version } : {}),
    ...fields,
  });
}

async function searchIds(word: string): Promise<string[]> {
  const res = await test.app.request(`/api/v1/search/semantic?q=${word}&mode=lexical`);
  const body = (await res.json()) as { results: { paper_id: string }[] };
  return body.results.map((r) => r.paper_id);
}

describe("the queue", () => {
  it("shows held and flagged papers with their reasons and a form per action, in both languages", async () => {
    const held = await holdPaper(test.ctx);
    const flagged = await publishFlaggedPaper(test.ctx);
    const clean = await publishCleanPaper(test.ctx);
    const { client } = await moderatorClient(test);

    const english = await client.get("/moderation");
    expect(english.status).toBe(200);
    expect(htmlLang(english.html)).toBe("en");
    expect(headingsInOrder(english.html), headingLevels(english.html).join(",")).toBe(true);
    expect(english.html).toContain(`id="paper-${held}"`);
    expect(english.html).toContain(`id="paper-${flagged}"`);
    expect(english.html).not.toContain(`id="paper-${clean}"`);
    expect(english.html).toContain("held: the LLM screener could not be reached");
    expect(english.html).toContain(escaped(en.moderation.paper.severities.warning));
    expect(english.html).toMatch(/The body is only \d+ characters long/);
    for (const action of ["approve", "reject"]) {
      expect(english.html).toContain(`action="/moderation/papers/${held}/${action}"`);
      expect(english.html).not.toContain(`action="/moderation/papers/${flagged}/${action}"`);
    }
    for (const action of ["clear-flag", "remove"]) {
      expect(english.html).toContain(`action="/moderation/papers/${flagged}/${action}"`);
      expect(english.html).not.toContain(`action="/moderation/papers/${held}/${action}"`);
    }
    expect(english.html).toContain(`id="remove-${flagged}" name="reason"`);
    expect(english.html).toContain(`href="/papers/${held}"`);
    expect(english.html).toContain('action="/moderation/agents"');
    // Moderators get the page in the header's navigation.
    expect(english.html).toMatch(/<nav aria-label="Main">[\s\S]*href="\/moderation"[\s\S]*<\/nav>/);

    const spanish = await client.get("/es/moderation");
    expect(spanish.status).toBe(200);
    expect(htmlLang(spanish.html)).toBe("es");
    expect(spanish.html).toContain(escaped(es.moderation.intro));
    expect(spanish.html).toContain(`action="/es/moderation/papers/${flagged}/remove"`);
    expect(spanish.html).toContain(
      '<link rel="alternate" hreflang="es" href="http://quire.test/es/moderation"/>',
    );
    expect(spanish.html).not.toContain(escaped(en.moderation.intro));
    // Screening reasons in Spanish: headline and the detail with its specifics, no English.
    const length = /The body is only (\d+) characters long/.exec(english.html)?.[1];
    expect(length).toBeTruthy();
    expect(spanish.html).toContain(escaped(es.submit.reasons.codes.body_short));
    expect(spanish.html).toContain(`El cuerpo solo tiene ${length} caracteres (menos de 200).`);
    expect(spanish.html).not.toContain("The body is only");
    expect(spanish.html).not.toContain("Add the full text");
    // Why the paper is held: stored in English by the submit flow, worded in Spanish here.
    expect(spanish.html).not.toContain("held: the LLM screener");
    expect(spanish.html).toContain(escaped(es.submit.reasons.codes.llm_unavailable));
  });

  it("stays light when full: the oldest 15 of each queue, abstracts cut short", async () => {
    // Its own archive: a full queue would push the other tests' papers off the page.
    const full = await createTestApp();
    try {
      for (let i = 0; i < 16; i++) {
        const base = paperInput();
        await publishFlaggedPaper(full.ctx, {
          abstract: `${base.abstract} ${"A long abstract sentence. ".repeat(150)}`,
        });
      }
      const { client } = await moderatorClient(full);
      const page = await client.get("/moderation");
      expect(page.html).toContain(escaped(en.moderation.showing(15, 16)));
      expect(page.html.match(/<article class="mod-item"/g)).toHaveLength(15);
      expect(new TextEncoder().encode(page.html).length).toBeLessThan(100_000);
    } finally {
      await full.close();
    }
  });
});

describe("each action through its form", () => {
  it("removes a published paper: notice, gone from the API, list, search and feed", async () => {
    const word = uniqueWord();
    const paperId = await publishFlaggedPaper(test.ctx, withWord(word));
    expect(await searchIds(word)).toEqual([paperId]);
    const { client, handle } = await moderatorClient(test);

    const res = await act(client, "/moderation", `/moderation/papers/${paperId}/remove`, {
      reason: "Copied from a published article.",
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe("/moderation?done=removed");
    const after = await client.get(res.location!);
    expect(after.html).toContain(escaped(en.moderation.done.removed));
    expect(after.html).not.toContain(`id="paper-${paperId}"`);

    expect((await paperRow(test.ctx, paperId)).status).toBe("removed");
    expect((await eventsFor(test.ctx, paperId)).map((e) => [e.action, e.actor, e.reason])).toEqual([
      ["paper.remove", handle, "Copied from a published article."],
    ]);
    const api = await test.app.request(`/api/v1/papers/${paperId}`);
    expect(api.status).toBe(404);
    expect(api.headers.get("content-type")).toMatch(/problem\+json/);
    const context = await test.app.request(`/api/v1/papers/${paperId}/context`);
    expect(context.status).toBe(404);
    const list = (await (await test.app.request("/api/v1/papers?limit=100")).json()) as {
      papers: { id: string }[];
    };
    expect(list.papers.map((p) => p.id)).not.toContain(paperId);
    expect(await searchIds(word)).toEqual([]);
    expect(await (await test.app.request("/feed.atom")).text()).not.toContain(paperId);
    const oai = await (
      await test.app.request(
        `/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:quire.test:${paperId}`,
      )
    ).text();
    expect(oai).toContain('status="deleted"');
  });

  it("approves a held paper in Spanish: published, searchable, Spanish notice", async () => {
    const word = uniqueWord();
    const paperId = await holdPaper(test.ctx, withWord(word));
    expect((await test.app.request(`/api/v1/papers/${paperId}`)).status).toBe(404);
    const { client } = await moderatorClient(test, { lang: "es" });

    const res = await act(client, "/es/moderation", `/es/moderation/papers/${paperId}/approve`, {
      reason: "Lo he leído: se puede publicar.",
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe("/es/moderation?done=approved");
    const after = await client.get(res.location!);
    expect(htmlLang(after.html)).toBe("es");
    expect(after.html).toContain(escaped(es.moderation.done.approved));
    expect((await test.app.request(`/api/v1/papers/${paperId}`)).status).toBe(200);
    expect(await searchIds(word)).toEqual([paperId]);
    expect((await eventsFor(test.ctx, paperId))[0]?.reason).toBe("Lo he leído: se puede publicar.");
  });

  it("rejects a held paper", async () => {
    const paperId = await holdPaper(test.ctx);
    const { client } = await moderatorClient(test);
    const res = await act(client, "/moderation", `/moderation/papers/${paperId}/reject`, {
      reason: "The results table is invented.",
    });
    expect(res.location).toBe("/moderation?done=rejected");
    expect(await paperRow(test.ctx, paperId)).toMatchObject({
      status: "rejected",
      statusReason: "rejected: The results table is invented.",
    });
    expect((await client.get("/moderation")).html).not.toContain(`id="paper-${paperId}"`);
  });

  it("clears a flag: the paper stays published and leaves the queue", async () => {
    const paperId = await publishFlaggedPaper(test.ctx);
    const { client } = await moderatorClient(test);
    const res = await act(client, "/moderation", `/moderation/papers/${paperId}/clear-flag`, {
      reason: "Short, but a complete note.",
    });
    expect(res.location).toBe("/moderation?done=cleared");
    expect((await paperRow(test.ctx, paperId)).status).toBe("published");
    expect((await client.get("/moderation")).html).not.toContain(`id="paper-${paperId}"`);
    expect((await test.app.request(`/api/v1/papers/${paperId}`)).status).toBe(200);
  });

  it("suspends an agent found by id (its writes get 403 at once) and reinstates it", async () => {
    const agent = await agentIn(test.ctx, "verified");
    const paperId = await publishCleanPaper(test.ctx);
    const comment = () =>
      test.app.request(`/api/v1/papers/${paperId}/comments`, {
        method: "POST",
        headers: { ...agent.auth, "content-type": "application/json" },
        body: JSON.stringify({ body: "A labelled comment." }),
      });
    expect((await comment()).status).toBe(201);
    const { client, handle } = await moderatorClient(test);

    const queue = await client.get("/moderation");
    expect(queue.html).toContain('id="agent-lookup"');
    const lookup = await client.get(`/moderation/agents?id=${agent.id}`);
    expect(lookup.status).toBe(200);
    expect(headingsInOrder(lookup.html)).toBe(true);
    expect(lookup.html).toContain(escaped(en.agents.statusNames.verified));
    expect(lookup.html).toContain(agent.ownerHandle);

    const suspended = await act(
      client,
      `/moderation/agents?id=${agent.id}`,
      `/moderation/agents/${agent.id}/suspend`,
      { reason: "Posting the same comment everywhere." },
    );
    expect(suspended.status).toBe(303);
    expect(suspended.location).toBe(`/moderation/agents?id=${agent.id}&done=suspended`);
    const page = await client.get(suspended.location!);
    expect(page.html).toContain(escaped(en.moderation.done.suspended));
    expect(page.html).toContain(escaped(en.agents.statusNames.suspended));
    expect(page.html).toContain("Posting the same comment everywhere.");
    expect(page.html).toContain(`action="/moderation/agents/${agent.id}/reinstate"`);

    clock.advance(1000);
    const refused = await comment();
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toMatch(/problem\+json/);
    expect((await test.app.request("/api/v1/me", { headers: agent.auth })).status).toBe(200);

    const reinstated = await act(
      client,
      `/es/moderation/agents?id=${agent.id}`,
      `/es/moderation/agents/${agent.id}/reinstate`,
      { reason: "El responsable ha corregido el bucle." },
    );
    expect(reinstated.location).toBe(`/es/moderation/agents?id=${agent.id}&done=reinstated`);
    expect((await client.get(reinstated.location!)).html).toContain(
      escaped(es.moderation.done.reinstated),
    );
    expect((await comment()).status).toBe(201);
    expect((await eventsFor(test.ctx, agent.id)).map((e) => [e.action, e.actor])).toEqual([
      ["agent.suspend", handle],
      ["agent.verify", handle],
    ]);
  });
});

describe("the log", () => {
  it("lists actions newest first with who and why, filters by target and pages", async () => {
    const { client, handle } = await moderatorClient(test);
    const first = await publishFlaggedPaper(test.ctx);
    const second = await publishFlaggedPaper(test.ctx);
    clock.advance(60_000);
    await act(client, "/moderation", `/moderation/papers/${first}/clear-flag`, {
      reason: "First <b>reason</b>",
    });
    clock.advance(60_000);
    await act(client, "/moderation", `/moderation/papers/${second}/remove`, {
      reason: "Second reason",
    });

    const log = await client.get("/moderation/log");
    expect(log.status).toBe(200);
    expect(headingsInOrder(log.html)).toBe(true);
    const at = (text: string) => log.html.indexOf(text);
    expect(at("Second reason")).toBeGreaterThan(0);
    expect(at("Second reason")).toBeLessThan(at("First &lt;b&gt;reason&lt;/b&gt;"));
    expect(log.html).not.toContain("<b>reason</b>");
    expect(log.html).toContain(escaped(en.moderation.log.actions["paper.remove"]!));
    expect(log.html).toContain(`<td>${handle}</td>`);
    expect(log.html).toContain("published → removed, version 1");
    const spanish = await client.get("/es/moderation/log");
    expect(spanish.html).toContain("publicado → dado de baja, versión 1");

    const filtered = await client.get(`/moderation/log?target=${first}`);
    expect(filtered.html).toContain("First &lt;b&gt;reason&lt;/b&gt;");
    expect(filtered.html).not.toContain("Second reason");
    const nothing = await client.get("/es/moderation/log?target=2611.99999");
    expect(nothing.html).toContain(escaped(es.moderation.log.noneFor("2611.99999")));

    // Fifty newer entries (role changes by the operator are cheap ones) push both to page 2.
    const other = await makeOwner(test.ctx);
    for (let i = 0; i < 50; i++) {
      clock.advance(1000);
      await setOwnerRole(
        { ...test.ctx, caller: { kind: "operator" } },
        { handle: other.handle, role: i % 2 === 0 ? "moderator" : "owner" },
      );
    }
    const page1 = await client.get("/moderation/log");
    expect(page1.html).not.toContain("Second reason");
    expect(page1.html).toContain(escaped(en.moderation.log.operator));
    expect(page1.html).toContain(escaped(en.moderation.log.operatorReasons.setRole));
    // The operator's default reason is stored in English and shown in the page's language.
    const spanishPage1 = await client.get("/es/moderation/log");
    expect(spanishPage1.html).toContain(escaped(es.moderation.log.operatorReasons.setRole));
    expect(spanishPage1.html).not.toContain("set by an operator");
    const next = /href="([^"]+)" rel="next"/.exec(page1.html)?.[1]?.replaceAll("&amp;", "&");
    expect(next).toMatch(/^\/moderation\/log\?cursor=/);
    const page2 = await client.get(next!);
    expect(page2.status).toBe(200);
    expect(page2.html).toContain("Second reason");
    expect(page2.html).toContain(escaped(en.moderation.log.newest));
  });
});
