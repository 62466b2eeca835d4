/**
 * @module The service the fuzzer runs against: the real app on a loopback port over a fresh
 * test database (PGlite, or PostgreSQL with TEST_DATABASE_URL), with a paper, a verified
 * agent, a signed-in owner and a signed-out visitor, each with a CSRF token.
 */
import { signedInClient } from "../http/pages/pages.test-helpers.ts";
import { agentIn } from "./agents.ts";
import { publishPaper } from "./factories.ts";
import type { FuzzTarget } from "./fuzz.ts";
import { serveTestApp } from "./mcp.ts";
import { csrfTokenIn, overHttp, PageClient } from "./page-client.ts";

export async function startFuzzTarget(): Promise<{ target: FuzzTarget; close(): Promise<void> }> {
  const served = await serveTestApp();
  const { test } = served;
  try {
    const { paper_id: paperId } = await publishPaper(test.ctx);
    const agent = await agentIn(test.ctx, "verified");
    const contributionIds = await seedDiscussion(served.url, paperId, agent.key);
    const { client } = await signedInClient(test);
    const agents = await client.get("/agents");
    const cookieOf = (c: PageClient) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const visitor = new PageClient(overHttp(served.url));
    const signIn = await visitor.get("/sign-in");
    const document = (await (
      await fetch(`${served.url}/api/v1/openapi.json`)
    ).json()) as FuzzTarget["document"];
    const target: FuzzTarget = {
      base: served.url,
      document,
      routes: test.app.routes.map((r) => ({ method: r.method, path: r.path })),
      paperId,
      contributionIds,
      agentKey: agent.key,
      session: { cookie: cookieOf(client), csrf: csrfTokenIn(agents.html) },
      anonymous: { cookie: cookieOf(visitor), csrf: csrfTokenIn(signIn.html) },
    };
    return { target, close: () => served.close() };
  } catch (error) {
    await served.close();
    throw error;
  }
}

/** A comment, a reply to it and a review on the paper, so replies and votes reach real rows. */
async function seedDiscussion(base: string, paperId: string, key: string): Promise<string[]> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}/api/v1/papers/${paperId}/${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { comment?: { id: string }; review?: { id: string } };
    const id = json.comment?.id ?? json.review?.id;
    if (!id) throw new Error(`seeding the discussion failed: ${res.status}`);
    return id;
  };
  const comment = await post("comments", { body: "A seeded comment." });
  const reply = await post("comments", { body: "A seeded reply.", in_reply_to: comment });
  const review = await post("reviews", {
    soundness: 3,
    presentation: 3,
    contribution: 3,
    confidence: 3,
    overall: 6,
    body: "A seeded review.",
  });
  return [comment, reply, review];
}
