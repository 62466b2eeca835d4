/** @module The agent and owner pages in English and Spanish: what they show, paging, state. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAgentStatus } from "../../services/agents/index.ts";
import { agentIn, setPaperStatus, type TestAgent } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { fixedClock } from "../../testing/db.ts";
import { makeAgent, makeOwner } from "../../testing/factories.ts";
import { htmlLang, PageClient } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { formatDate } from "./i18n/index.ts";
import {
  AGENT_CONTRIBUTIONS_PAGE_SIZE,
  EXCERPT_CHARS,
  excerptOf,
  OWNER_PAPERS_PAGE_SIZE,
} from "./profiles.tsx";
import {
  escaped,
  mainOf,
  postAiReview,
  postComment,
  publish,
  sectionById,
} from "./reading.test-helpers.ts";

const clock = fixedClock(new Date("2026-11-03T10:00:00.000Z"));
let test: TestApp;
let writer: TestAgent;
/** The writer's contributions, oldest first. */
const written: string[] = [];
let papers: string[];
const SCORES = { soundness: 3, presentation: 2, contribution: 4, confidence: 5, overall: 8 };
const LANGS = [
  ["", en, "en"],
  ["/es", es, "es"],
] as const;

beforeAll(async () => {
  test = await createTestApp({ services: { clock } });
  writer = await agentIn(test.ctx, "verified", "Diligent Reader");
  papers = [await publish(test), await publish(test), await publish(test)];
  for (const paper of papers) {
    clock.advance(1000);
    await postAiReview(test, writer, paper, SCORES, `A careful review of ${paper}.`);
    written.push(`review of ${paper}`);
  }
  for (let i = 0; written.length < AGENT_CONTRIBUTIONS_PAGE_SIZE + 3; i++) {
    clock.advance(1000);
    await postComment(test, writer, papers[i % 3]!, `Comment number ${i}.`);
    written.push(`Comment number ${i}.`);
  }
});
afterAll(async () => test.close());

const ids = (html: string) =>
  [...html.matchAll(/<li id="((?:cmt|rev)_[0-9A-Za-z]{22})" data-kind/g)].map((m) => m[1]);

describe("the agent page", () => {
  it("shows the agent, its owner (linked), state, date and counts, in both languages", async () => {
    const client = new PageClient(test);
    for (const [prefix, t, lang] of LANGS) {
      const res = await client.get(`${prefix}/agents/${writer.id}`);
      expect(res.status).toBe(200);
      expect(htmlLang(res.html)).toBe(lang);
      const main = mainOf(res.html);
      expect(res.html).toContain(`<title>${escaped(t.profiles.agent.title("Diligent Reader"))}`);
      expect(main).toContain('<h1 id="agent-profile-name">Diligent Reader</h1>');
      expect(main).toContain(`<span class="ai-label">${escaped(t.profiles.agent.kind)}</span>`);
      expect(main).toContain('<dd class="model">test-model-2</dd>');
      expect(main).toContain(
        `<a href="${prefix}/owners/${writer.ownerHandle}" id="agent-owner">${writer.ownerHandle}</a>`,
      );
      expect(sectionById(main, "agent-state")).toContain(escaped(t.profiles.agent.state.verified));
      expect(main).toContain(escaped(formatDate(lang, "2026-11-03T10:00:00.000Z")));
      const counts = sectionById(main, "agent-counts");
      expect(counts).toContain(escaped(t.profiles.agent.comments(20, "20")));
      expect(counts).toContain(escaped(t.profiles.agent.reviews(3, "3")));
      expect(main).toContain(`href="/api/v1/agents/${writer.id}"`);
    }
  });

  it("lists its comments and reviews newest first, labeled and linked to their papers", async () => {
    const client = new PageClient(test);
    for (const [prefix, t] of LANGS) {
      const res = await client.get(`${prefix}/agents/${writer.id}`);
      const list = sectionById(mainOf(res.html), "contributions");
      expect(list).toContain(`<span class="ai-label">${escaped(t.reading.aiLabel)}</span>`);
      expect(list).toContain(escaped(t.profiles.agent.contributionsIntro));
      const shown = ids(list);
      expect(shown).toHaveLength(AGENT_CONTRIBUTIONS_PAGE_SIZE);
      // The newest is the last comment; the bodies appear in reverse order of writing.
      const bodies = [...list.matchAll(/<p>(Comment number \d+\.)<\/p>/g)].map((m) => m[1]);
      expect(bodies).toEqual(
        written
          .filter((w) => w.startsWith("Comment"))
          .reverse()
          .slice(0, bodies.length),
      );
      const first = sectionById(list, shown[0]!);
      expect(first).toContain(escaped(t.profiles.agent.commentOn));
      expect(first).toMatch(new RegExp(`href="${prefix}/papers/${papers[19 % 3]}#comments"`));
      expect(first).toContain(escaped(t.reading.paper.onVersion(1)));
    }
  });

  it("pages with a 'more' link; the last page holds the reviews with their scores", async () => {
    const client = new PageClient(test);
    for (const [prefix, t] of LANGS) {
      const firstPage = await client.get(`${prefix}/agents/${writer.id}`);
      const next = new RegExp(
        `href="(${prefix}/agents/${writer.id}\\?cursor=[^"#]+)#contributions" rel="next"`,
      ).exec(firstPage.html)?.[1];
      expect(next).toBeTruthy();
      expect(firstPage.html).toContain(escaped(t.profiles.agent.more));
      const second = await client.get(next!.replaceAll("&amp;", "&"));
      expect(second.status).toBe(200);
      const shown = ids(second.html);
      expect(shown).toHaveLength(3);
      expect(shown.every((id) => id?.startsWith("rev_"))).toBe(true);
      expect(ids(firstPage.html).some((id) => shown.includes(id))).toBe(false);
      const review = sectionById(second.html, shown[0]!);
      expect(review).toContain(escaped(t.profiles.agent.reviewOf));
      expect(review).toContain(`href="${prefix}/papers/${papers[2]}#ai-reviews"`);
      expect(review).toContain(escaped(t.reading.paper.outOf("8", 10)));
      expect(second.html).not.toContain('rel="next"');
      expect(second.html).toContain(escaped(t.profiles.agent.first));
    }
  });

  it("shows a suspended agent as suspended, and an unverified one as not verified", async () => {
    const client = new PageClient(test);
    for (const [state, key] of [
      ["suspended", "suspended"],
      ["unverified", "unverified"],
    ] as const) {
      const agent = await agentIn(test.ctx, state, `A ${state} agent`);
      for (const [prefix, t] of LANGS) {
        const res = await client.get(`${prefix}/agents/${agent.id}`);
        expect(res.status).toBe(200);
        const notice = sectionById(res.html, "agent-state");
        expect(notice).toContain(`data-state="${key}"`);
        expect(notice).toContain(escaped(t.profiles.agent.state[key]));
        expect(res.html).toContain(escaped(t.profiles.agent.none));
      }
    }
    const suspended = await agentIn(test.ctx, "suspended");
    const res = await client.get(`/agents/${suspended.id}`);
    expect(res.html).toContain(
      `<dd class="status status-suspended">${en.profiles.agent.stateShort.suspended}</dd>`,
    );
  });

  it("cuts a long contribution to an excerpt with a link to the whole on the paper", async () => {
    const agent = await agentIn(test.ctx, "verified");
    const long = `${"word ".repeat(EXCERPT_CHARS)}END`;
    await postComment(test, agent, papers[0]!, long);
    const res = await new PageClient(test).get(`/agents/${agent.id}`);
    const list = sectionById(res.html, "contributions");
    expect(list).not.toContain("END");
    expect(list).toContain(escaped(en.profiles.agent.readAll));
    expect(excerptOf("short", 10)).toEqual({ text: "short", cut: false });
    expect(excerptOf("ab cd ef gh", 9)).toEqual({ text: "ab cd ef…", cut: true });
    expect(excerptOf("😀".repeat(5), 3)).toEqual({ text: "😀😀😀…", cut: true });
  });
});

describe("the owner page", () => {
  it("shows the handle, their agents (linked, suspended marked) and published papers, paged", async () => {
    const owner = await makeOwner(test.ctx);
    const calm = await makeAgent(test.ctx, owner.handle, "Calm Agent");
    clock.advance(1000);
    const stranger = await agentIn(test.ctx, "verified");
    const suspended = await makeAgent(test.ctx, owner.handle, "Benched Agent");
    await setAgentStatus(
      { ...test.ctx, caller: { kind: "operator" } },
      { agentId: suspended.id, status: "suspended", reason: "test" },
    );
    const theirs: string[] = [];
    for (let i = 0; i < OWNER_PAPERS_PAGE_SIZE + 2; i++) {
      clock.advance(1000);
      theirs.push(await publish(test, { ownerId: owner.id }));
    }
    await setPaperStatus(test.ctx, theirs[0]!, "withdrawn");

    const client = new PageClient(test);
    for (const [prefix, t, lang] of LANGS) {
      const res = await client.get(`${prefix}/owners/${owner.handle}`);
      expect(res.status).toBe(200);
      expect(htmlLang(res.html)).toBe(lang);
      const main = mainOf(res.html);
      expect(res.html).toContain(`<title>${escaped(t.profiles.owner.title(owner.handle))}`);
      expect(main).toContain(`<h1 id="owner-handle">${owner.handle}</h1>`);
      const agents = sectionById(main, "owner-agents");
      expect(agents).toContain(`<a href="${prefix}/agents/${calm.id}">Calm Agent</a>`);
      expect(agents).toContain(`<a href="${prefix}/agents/${suspended.id}">Benched Agent</a>`);
      expect(agents).toContain(escaped(t.profiles.agent.stateShort.suspended));
      expect(agents).not.toContain(stranger.id);
      const paperIds = (html: string) =>
        [...html.matchAll(/aria-labelledby="paper-([0-9.]+)"/g)].map((m) => m[1]);
      const newest = [...theirs].reverse();
      expect(paperIds(main)).toEqual(newest.slice(0, OWNER_PAPERS_PAGE_SIZE));
      const next = new RegExp(
        `href="(${prefix}/owners/${owner.handle}\\?cursor=[^"#]+)#owner-papers" rel="next"`,
      ).exec(main)?.[1];
      expect(next).toBeTruthy();
      const second = await client.get(next!);
      expect(second.status).toBe(200);
      // The withdrawn paper (the oldest) is not shown.
      expect(paperIds(mainOf(second.html))).toEqual([newest[OWNER_PAPERS_PAGE_SIZE]]);
      expect(second.html).toContain(escaped(t.profiles.owner.first));
    }
  });

  it("takes the handle in any case and shows it as chosen; an owner with nothing says so", async () => {
    const owner = await makeOwner(test.ctx);
    for (const [prefix, t] of LANGS) {
      const res = await new PageClient(test).get(`${prefix}/owners/${owner.handle.toUpperCase()}`);
      expect(res.status).toBe(200);
      expect(res.html).toContain(`<h1 id="owner-handle">${owner.handle}</h1>`);
      expect(res.html).toContain(escaped(t.profiles.owner.noAgents));
      expect(res.html).toContain(escaped(t.profiles.owner.noPapers));
    }
  });
});

describe("links to the profiles", () => {
  it("the paper page links its submitter to their owner page", async () => {
    const owner = await makeOwner(test.ctx);
    const paper = await publish(test, { ownerId: owner.id });
    for (const [prefix] of LANGS) {
      const res = await new PageClient(test).get(`${prefix}/papers/${paper}`);
      expect(sectionById(res.html, "paper-owner")).toContain(
        `<a href="${prefix}/owners/${owner.handle}">${owner.handle}</a>`,
      );
    }
  });

  it("an AI review on the paper page links its agent and owner", async () => {
    const res = await new PageClient(test).get(`/papers/${papers[0]}`);
    const reviews = sectionById(res.html, "ai-reviews");
    expect(reviews).toContain(
      `<a class="agent-name" href="/agents/${writer.id}">Diligent Reader</a>`,
    );
    expect(reviews).toContain(`href="/owners/${writer.ownerHandle}"`);
  });
});
