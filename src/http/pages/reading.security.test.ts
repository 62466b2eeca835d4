import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../services/agents/create.ts";
import { Invalid } from "../../services/errors.ts";
import { createOwner } from "../../services/owners/create.ts";
import { textProblem } from "../../services/text.ts";
import type { TestAgent } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { makeOwner } from "../../testing/factories.ts";
import { csrfTokenIn, PageClient } from "../../testing/page-client.ts";
import { executableConstructs, XSS_PAYLOADS } from "../../testing/xss-payloads.ts";
import { renderMarkdown } from "./markdown.ts";
import { jsonForScript } from "./paper/index.tsx";
import {
  escaped,
  jsonLdOf,
  newVersion,
  postAiReview,
  postComment,
  publish,
  reviewForm,
  sectionById,
  signedInOwner,
} from "./reading.test-helpers.ts";

let test: TestApp;
/** Paper id per payload (same index), each carrying its payload in every field it allows. */
const papers: string[] = [];
let reviewer: { client: PageClient; handle: string };

const SCORES = { soundness: 2, presentation: 2, contribution: 2, confidence: 2, overall: 2 };

/** Pages that must hold no executable construct, whatever the payloads. */
async function expectInert(client: PageClient, path: string): Promise<string> {
  const res = await client.get(path);
  expect(res.status, path).toBeLessThan(500);
  expect(executableConstructs(res.html), path).toEqual([]);
  return res.html;
}

beforeAll(async () => {
  test = await createTestApp();
  const owner = await makeOwner(test.ctx);
  const op = { ...test.ctx, caller: { kind: "operator" as const } };
  reviewer = await signedInOwner(test);
  let token: string | null = null;
  for (const [i, payload] of XSS_PAYLOADS.entries()) {
    // Payloads go in every field a paper has, as text and in Markdown contexts of the body.
    const id = await publish(test, {
      title: `Paper ${i} on glacier melt ${payload}`,
      abstract: `We measure glacier melt in study ${i} with care. ${payload} The rest of the abstract is ordinary prose about ice.`,
      body: `## Section ${payload}\n\nText before ${payload} and after.\n\n[a link](${payload}) and ![an image](${payload})\n\n> ${payload}\n\n- ${payload}\n\n\`${payload}\`\n`,
      keywords: [payload.slice(0, 50), "xss"],
      ai_model: payload.slice(0, 100),
      license: payload.slice(0, 100),
    });
    papers.push(id);
    if (i % 4 === 0) {
      await newVersion(test, id, {
        title: `Paper ${i} revised ${payload}`,
        abstract: `A revised abstract for study ${i} about glacier melt and ${payload} in the field.`,
        changelog: `Changed ${payload}`,
        keywords: [payload.slice(0, 50)],
      });
    }
    const agent = await createAgent(op, {
      ownerHandle: owner.handle,
      name: payload.slice(0, 80),
      model: payload.slice(0, 100),
    });
    const ai: TestAgent = {
      id: agent.id,
      key: agent.key,
      ownerHandle: owner.handle,
      auth: { authorization: `Bearer ${agent.key}` },
    };
    await postComment(test, ai, id, `Comment: ${payload}\n\n${payload}`);
    await postAiReview(test, ai, id, SCORES, `AI review: ${payload}`);
    token ??= csrfTokenIn(
      (await reviewer.client.get(`/papers/${id}`)).html,
      `/papers/${id}/reviews`,
    );
    const posted = await reviewer.client.post(`/papers/${id}/reviews`, {
      _csrf: token,
      ...reviewForm(SCORES, `Human review: ${payload}`),
    });
    expect(posted.status).toBe(303);
  }
}, 300_000);
afterAll(async () => test.close());

describe("the XSS corpus", () => {
  it("has at least 30 payloads, and the check flags each one when it is not escaped", () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(30);
    const page = (inner: string) =>
      `<!doctype html><html><head><script src="/assets/site.js"></script></head><body>${inner}</body></html>`;
    expect(executableConstructs(page("<p>fine</p>"))).toEqual([]);
    for (const payload of XSS_PAYLOADS.filter(
      (p) => /<[a-z]/i.test(p) && !p.startsWith("<javascript:") && !p.startsWith("<vbscript:"),
    )) {
      expect(executableConstructs(page(payload)), payload).not.toEqual([]);
    }
    for (const payload of XSS_PAYLOADS.filter((p) => /^["']/.test(p))) {
      const quote = payload[0];
      const attribute = `<a title=${quote}${payload}${quote}>x</a>`;
      expect(executableConstructs(page(attribute)), payload).not.toEqual([]);
    }
    for (const bad of [
      "javascript:alert(1)",
      "JAVA\tSCRIPT:x",
      "&#106;avascript:x",
      "data:text/html,x",
      " vbscript:x",
    ]) {
      expect(executableConstructs(page(`<a href="${bad}">x</a>`)), bad).not.toEqual([]);
    }
    expect(
      executableConstructs(
        page(
          '<script type="application/ld+json">{"a":"</script><script>alert(1)</script>"}</script>',
        ),
      ),
    ).not.toEqual([]);
  });

  it("the Markdown renderer turns every payload into inert HTML, inside TeX delimiters too", () => {
    for (const payload of XSS_PAYLOADS) {
      const inMath = [`$${payload}$`, `$$\n${payload}\n$$`, `\\(${payload}\\)`, `\\[${payload}\\]`];
      for (const source of [
        payload,
        `[x](${payload})`,
        `![x](${payload})`,
        `# ${payload}`,
        ...inMath,
      ]) {
        const html = renderMarkdown(source, { topHeading: 3 });
        expect(executableConstructs(`<!doctype html>${html}`), source).toEqual([]);
      }
    }
  });

  it("leaves no executable construct on any paper page, in either language, and shows the text escaped", async () => {
    const client = new PageClient(test);
    for (const [i, payload] of XSS_PAYLOADS.entries()) {
      const id = papers[i]!;
      const html = await expectInert(client, `/papers/${id}`);
      // The payload reached the page, as text.
      expect(html, payload).toContain(escaped(payload.slice(0, 80)));
      expect(sectionById(html, "comments")).toContain(
        escaped(`Comment: ${payload}`.split("\n")[0]!),
      );
      expect(sectionById(html, "human-reviews")).toContain(escaped(`Human review: ${payload}`));
      await expectInert(client, `/es/papers/${id}`);
      await expectInert(client, `/papers/${id}v1`);
      if (i % 4 === 0) await expectInert(client, `/es/papers/${id}/diff?from=1&to=2`);
    }
  }, 300_000);

  it("leaves none on the home page, its pages, keyword filters and search results", async () => {
    const client = new PageClient(test);
    let path: string | undefined = "/";
    while (path) {
      const html = await expectInert(client, path);
      path = /href="(\/\?cursor=[^"]+)" rel="next"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
    }
    await expectInert(client, "/es");
    for (const payload of XSS_PAYLOADS) {
      await expectInert(client, `/?keyword=${encodeURIComponent(payload.slice(0, 50))}`);
      const query = `glacier ${payload}`;
      const search = await expectInert(client, `/es?q=${encodeURIComponent(query)}`);
      // A query the URL text rule refuses (a tab, a line break) is a 400 page naming `q`.
      expect(search).toContain(
        textProblem(query, "line") === null ? 'id="search-results"' : 'id="error-fields"',
      );
    }
  }, 300_000);

  it("leaves none when a review form comes back with errors and the payload in it", async () => {
    const id = papers[0]!;
    const page = await reviewer.client.get(`/papers/${papers[1]}`);
    const token = csrfTokenIn(page.html, `/papers/${papers[1]}/reviews`);
    for (const payload of XSS_PAYLOADS) {
      const res = await reviewer.client.post(`/papers/${id}/reviews`, {
        _csrf: token,
        ...reviewForm(SCORES, payload),
        soundness: payload,
      });
      expect(res.status).toBe(400);
      expect(executableConstructs(res.html), payload).toEqual([]);
    }
  }, 300_000);

  it("JSON-LD stays two data blocks, the article equal to the API's, even with </script> in the title", async () => {
    const client = new PageClient(test);
    for (const [i, payload] of XSS_PAYLOADS.entries()) {
      if (!/<\/?script|<!--/i.test(payload)) continue;
      const res = await client.get(`/papers/${papers[i]}`);
      const api = await (
        await test.app.request(`/api/v1/papers/${papers[i]}?format=jsonld`)
      ).json();
      expect(jsonLdOf(res.html)).toEqual(api);
      // The article, the page (its related papers) and site.js: a title never opens another.
      expect(res.html.match(/<script/g)).toHaveLength(3);
      const blocks = [
        ...res.html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g),
      ];
      expect(blocks.map((m) => (JSON.parse(m[1]!) as { "@type": string })["@type"])).toEqual([
        "ScholarlyArticle",
        "WebPage",
      ]);
    }
    expect(jsonForScript({ t: "</script><!--&\u2028" })).toBe(
      '{"t":"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028"}',
    );
  });
});

describe("the review form and CSRF", () => {
  it("refuses a review without the session's token (403) or from another site, and writes nothing", async () => {
    const { client } = await signedInOwner(test);
    const intruder = await signedInOwner(test);
    const id = await publish(test);
    const page = await client.get(`/papers/${id}`);
    const foreign = csrfTokenIn(
      (await intruder.client.get(`/papers/${id}`)).html,
      `/papers/${id}/reviews`,
    );
    for (const token of [undefined, "", "garbage", foreign]) {
      const fields = reviewForm(SCORES, "Forged.");
      const res = await client.post(
        `/papers/${id}/reviews`,
        token === undefined ? fields : { ...fields, _csrf: token },
      );
      expect(res.status, String(token)).toBe(403);
      expect(res.html).toContain('id="error-message"');
    }
    const crossSite = await client.post(
      `/papers/${id}/reviews`,
      { _csrf: csrfTokenIn(page.html, `/papers/${id}/reviews`), ...reviewForm(SCORES, "Forged.") },
      { "sec-fetch-site": "cross-site" },
    );
    expect(crossSite.status).toBe(403);
    const reviews = await (await test.app.request(`/api/v1/papers/${id}/reviews`)).json();
    expect((reviews as { human: { count: number } }).human.count).toBe(0);
  });

  it("takes a 20,000-character review in any script (the form limit is raised for it), refuses more than 256 KiB", async () => {
    const { client } = await signedInOwner(test);
    const id = await publish(test);
    const page = await client.get(`/papers/${id}`);
    const token = csrfTokenIn(page.html, `/papers/${id}/reviews`);
    const long = await client.post(`/papers/${id}/reviews`, {
      _csrf: token,
      ...reviewForm(SCORES, "氷".repeat(20_000)),
    });
    expect(long.status).toBe(303);
    const huge = await client.post(`/papers/${id}/reviews`, {
      _csrf: token,
      ...reviewForm(SCORES, "x".repeat(300 * 1024)),
    });
    expect(huge.status).toBe(413);
  });

  it("owner handles cannot carry markup (the handle rule), so none is planted there", async () => {
    await expect(
      createOwner(
        { ...test.ctx, caller: { kind: "operator" } },
        { handle: "<script>alert(1)</script>", email: "x@example.org", verified: true },
      ),
    ).rejects.toThrow(Invalid);
  });
});
