/** @module The paper page's discussion in English and Spanish: reply and author-response forms, helpful votes, addressed reviews, track records. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentIn, type TestAgent } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { makeAgent, paperInput } from "../../testing/factories.ts";
import { csrfTokenIn, htmlLang, PageClient } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import {
  escaped,
  postAiReview,
  postComment,
  publish,
  sectionById,
  signedInOwner,
} from "./reading.test-helpers.ts";

let test: TestApp;
let critic: TestAgent;

const SCORES = { soundness: 3, presentation: 3, contribution: 3, confidence: 3, overall: 6 };

beforeAll(async () => {
  test = await createTestApp();
  critic = await agentIn(test.ctx, "verified", "Critic Bot");
});
afterAll(async () => test.close());

/** The id of the newest review on `paperId` (the API lists oldest first). */
async function aiReviewId(paperId: string): Promise<string> {
  const res = await test.app.request(`/api/v1/papers/${paperId}/reviews?kind=ai_advisory`);
  const body = (await res.json()) as { ai_advisory: { reviews: { id: string }[] } };
  const id = body.ai_advisory.reviews.at(-1)?.id;
  if (!id) throw new Error("no review");
  return id;
}

describe("replies and author responses on the paper page", () => {
  it("a reader replies to an AI review (labeled human) and the paper's owner responds (labeled author), in English", async () => {
    const author = await signedInOwner(test);
    const paper = await publish(test, { ownerId: author.id });
    await postAiReview(test, critic, paper, SCORES, "The method section is thin.");
    const reviewId = await aiReviewId(paper);

    const reader = await signedInOwner(test);
    const page = await reader.client.get(`/papers/${paper}`);
    expect(htmlLang(page.html)).toBe("en");
    expect(page.html).toContain(`<summary>${escaped(en.discussion.reply)}</summary>`);
    const res = await reader.client.post(`/papers/${paper}/replies`, {
      _csrf: csrfTokenIn(page.html, `/papers/${paper}/replies`),
      in_reply_to: reviewId,
      body: "Which part is thin?",
    });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(new RegExp(`^/papers/${paper}\\?notice=reply-posted#cmt_`));

    const own = await author.client.get(`/papers/${paper}`);
    expect(own.html).toContain(`<summary>${escaped(en.discussion.respond)}</summary>`);
    const responded = await author.client.post(`/papers/${paper}/replies`, {
      _csrf: csrfTokenIn(own.html, `/papers/${paper}/replies`),
      in_reply_to: reviewId,
      body: "Expanded in version 2.",
    });
    expect(responded.status).toBe(303);

    const after = await new PageClient(test).get(`/papers/${paper}`);
    const discussion = sectionById(after.html, "comments");
    expect(discussion).toContain(escaped(en.discussion.heading));
    expect(discussion).toContain("Which part is thin?");
    expect(discussion).toContain(`>${escaped(en.discussion.human)}</span>`);
    expect(discussion).toContain(
      `data-author-response="true">${escaped(en.discussion.author)}</span>`,
    );
    expect(discussion).toContain(`href="#${reviewId}"`);
    // Signed out: no reply forms, no vote buttons, but the counts.
    expect(after.html).not.toContain('class="reply-form"');
    expect(sectionById(after.html, "ai-reviews")).toContain(escaped(en.discussion.votes(0, 0)));
    // The JSON-LD graph marks the author response.
    const blocks = [
      ...after.html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g),
    ].map(
      (m) =>
        JSON.parse(m[1] as string) as {
          "@type": string;
          comment?: { text: string; additionalProperty: { name: string; value: unknown }[] }[];
        },
    );
    expect(blocks.map((b) => b["@type"])).toEqual(["ScholarlyArticle", "WebPage"]);
    const items = blocks[1]?.comment ?? [];
    const response = items.find((i) => i.text === "Expanded in version 2.");
    expect(response?.additionalProperty).toContainEqual({
      "@type": "PropertyValue",
      name: "authorResponse",
      value: "author",
    });
  });

  it("an agent of the paper's owner shows as the author's agent; another owner's agent does not", async () => {
    const author = await signedInOwner(test);
    const paper = await publish(test, { ownerId: author.id });
    const own = await makeAgent(test.ctx, author.handle, "Own Bot");
    await postComment(test, critic, paper, "A question for the authors.");
    const res = await test.app.request(`/api/v1/papers/${paper}/comments`, {
      method: "POST",
      headers: { authorization: `Bearer ${own.key}`, "content-type": "application/json" },
      body: JSON.stringify({ body: "Answered by the author's agent." }),
    });
    expect(res.status).toBe(201);
    const page = await new PageClient(test).get(`/papers/${paper}`);
    const discussion = sectionById(page.html, "comments");
    expect(discussion.match(/data-author-response="true"/g)).toHaveLength(1);
    expect(discussion).toContain(
      `data-author-response="true">${escaped(en.discussion.authorsAgent)}</span>`,
    );
  });

  it("works in Spanish: labels, the reply form and a refused empty reply", async () => {
    const author = await signedInOwner(test, { lang: "es" });
    const paper = await publish(test, { ownerId: author.id });
    await postComment(test, critic, paper, "Un comentario.");
    const list = (await (await test.app.request(`/api/v1/papers/${paper}/comments`)).json()) as {
      comments: { id: string }[];
    };
    const target = list.comments[0]?.id as string;
    const page = await author.client.get(`/es/papers/${paper}`);
    expect(htmlLang(page.html)).toBe("es");
    expect(page.html).toContain(`<summary>${escaped(es.discussion.respond)}</summary>`);
    const empty = await author.client.post(`/es/papers/${paper}/replies`, {
      _csrf: csrfTokenIn(page.html, `/es/papers/${paper}/replies`),
      in_reply_to: target,
      body: "   ",
    });
    expect(empty.status).toBe(400);
    expect(empty.html).toContain(escaped(es.discussion.replyEmpty));
    const ok = await author.client.post(`/es/papers/${paper}/replies`, {
      _csrf: csrfTokenIn(page.html, `/es/papers/${paper}/replies`),
      in_reply_to: target,
      body: "Gracias por el comentario.",
    });
    expect(ok.status).toBe(303);
    expect(ok.location).toMatch(new RegExp(`^/es/papers/${paper}\\?notice=reply-posted#cmt_`));
    const after = await author.client.get(ok.location!.replace(/#.*/, ""));
    expect(after.html).toContain(escaped(es.reading.notices["reply-posted"]));
    const discussion = sectionById(after.html, "comments");
    expect(discussion).toContain(escaped(es.discussion.heading));
    expect(discussion).toContain(`>${escaped(es.discussion.author)}</span>`);
  });
});

describe("helpful votes on the paper page", () => {
  it("a confirmed reader marks a review helpful, changes it and withdraws it; counts follow", async () => {
    const paper = await publish(test);
    await postAiReview(test, critic, paper, SCORES, "Votes welcome.");
    const reviewId = await aiReviewId(paper);
    const reader = await signedInOwner(test);
    const action = `/papers/${paper}/reviews/${reviewId}/vote`;
    const vote = async (value: string) => {
      const page = await reader.client.get(`/papers/${paper}`);
      return reader.client.post(action, { _csrf: csrfTokenIn(page.html, action), vote: value });
    };
    const first = await vote("helpful");
    expect(first.status).toBe(303);
    expect(first.location).toBe(`/papers/${paper}?notice=vote-recorded#${reviewId}`);
    let page = await reader.client.get(`/papers/${paper}`);
    expect(sectionById(page.html, "ai-reviews")).toContain(escaped(en.discussion.votes(1, 0)));
    expect(page.html).toContain(escaped(en.discussion.yourVote(true)));
    await vote("unhelpful");
    page = await reader.client.get(`/papers/${paper}`);
    expect(sectionById(page.html, "ai-reviews")).toContain(escaped(en.discussion.votes(0, 1)));
    await vote("none");
    page = await reader.client.get(`/papers/${paper}`);
    expect(sectionById(page.html, "ai-reviews")).toContain(escaped(en.discussion.votes(0, 0)));
  });

  it("in Spanish, the counts and the vote buttons are Spanish", async () => {
    const paper = await publish(test);
    await postAiReview(test, critic, paper, SCORES, "Votos.");
    const reader = await signedInOwner(test, { lang: "es" });
    const page = await reader.client.get(`/es/papers/${paper}`);
    const ai = sectionById(page.html, "ai-reviews");
    expect(ai).toContain(escaped(es.discussion.votes(0, 0)));
    expect(ai).toContain(`>${escaped(es.discussion.helpful)}</button>`);
  });
});

describe("revisions that address reviews, and track records", () => {
  it("the revision form lists the reviews; the changelog links them and each review says addressed in v2", async () => {
    const author = await signedInOwner(test);
    const paper = await publish(test, { ownerId: author.id });
    await postAiReview(test, critic, paper, SCORES, "Please add a control.");
    const reviewId = await aiReviewId(paper);
    const action = `/papers/${paper}/revise`;
    const form = await author.client.get(action);
    expect(form.status).toBe(200);
    expect(form.html).toContain(escaped(en.discussion.addressesLegend));
    expect(form.html).toContain(`name="address-${reviewId}"`);
    const next = paperInput();
    const res = await author.client.post(action, {
      _csrf: csrfTokenIn(form.html, action),
      intent: "submit",
      title: next.title,
      abstract: next.abstract,
      body: next.body,
      ai_model: next.ai_model,
      license: next.license,
      keywords: next.keywords.join(", "),
      changelog: "Added the control.",
      [`address-${reviewId}`]: "1",
    });
    expect(res.status).toBe(303);
    const page = await new PageClient(test).get(`/papers/${paper}`);
    const history = sectionById(page.html, "version-history");
    expect(history).toContain(`href="/papers/${paper}#${reviewId}"`);
    // The link to v1 is named by its visible text first (axe's label-content-name-mismatch).
    expect(history).toContain(
      `<a href="/papers/${paper}v1">v1<span class="visually-hidden"> (${escaped(en.reading.paper.read(1))})</span></a>`,
    );
    const ai = sectionById(page.html, "ai-reviews");
    expect(ai).toContain(escaped(en.discussion.addressedIn));
    expect(ai).toContain(`href="/papers/${paper}v2"`);
  });

  it("the agent's page shows its track record, in both languages", async () => {
    const page = await new PageClient(test).get(`/agents/${critic.id}`);
    expect(page.status).toBe(200);
    expect(sectionById(page.html, "track-record")).toContain(escaped(en.discussion.trackRecord));
    const spanish = await new PageClient(test).get(`/es/agents/${critic.id}`);
    expect(sectionById(spanish.html, "track-record")).toContain(escaped(es.discussion.calibration));
  });
});
