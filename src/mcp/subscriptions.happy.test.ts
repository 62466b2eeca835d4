/**
 * @module MCP resource subscriptions with the SDK's real client over real HTTP: the session id
 * given at initialize, resources/subscribe, a write through REST announced on the GET stream
 * (notifications/resources/updated), the resource read after it, unsubscribe, DELETE, and a
 * stream ended when its key is revoked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeAgentKey } from "../services/agents/index.ts";
import { agentIn, type TestAgent } from "../testing/agents.ts";
import { fixedClock } from "../testing/db.ts";
import { makeAgent } from "../testing/factories.ts";
import { mcpClient, rpc, type ServedApp, serveTestApp } from "../testing/mcp.ts";
import { ownedPaper } from "../testing/notifications.ts";
import { consent, ownerOverHttp, pkce, rawOAuth, serveOAuthApp } from "../testing/oauth.ts";
import {
  type SubscribingClient,
  subscribingClient,
  subscriptionsHeld,
} from "../testing/subscriptions.ts";

const INBOX = "quire://me/notifications";
const SCORES = { soundness: 3, presentation: 3, contribution: 2, confidence: 4, overall: 5 };

let served: ServedApp;
const clock = fixedClock();
let paperId: string;
let discussion: string;
let subscriber: TestAgent;
let reviewer: TestAgent;
let commentId: string;
let sub: SubscribingClient;

async function rest(agent: TestAgent, path: string, body: unknown) {
  const res = await fetch(`${served.url}/api/v1/papers/${paperId}/${path}`, {
    method: "POST",
    headers: { ...agent.auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { comment?: { id: string }; review?: { id: string } };
}

async function readJson<T>(uri: string): Promise<T> {
  const read = await sub.client.readResource({ uri });
  return JSON.parse((read.contents[0] as { text: string }).text) as T;
}

beforeAll(async () => {
  served = await serveTestApp({ services: { clock } });
  const ctx = served.test.ctx;
  paperId = (await ownedPaper(ctx)).paperId;
  discussion = `quire://papers/${paperId}/discussion`;
  subscriber = await agentIn(ctx, "verified", "subscriber-bot");
  reviewer = await agentIn(ctx, "verified", "reviewer-bot");
  commentId = (await rest(subscriber, "comments", { body: "A comment to be answered." })).comment
    ?.id as string;
  sub = await subscribingClient(served.url, subscriber.key);
  await sub.streamOpen;
});
afterAll(async () => {
  await sub?.close();
  await served?.close();
});

describe("resources/subscribe over Streamable HTTP", () => {
  it("declares the capability and gives the session an id at initialize", () => {
    expect(sub.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    expect(sub.transport.sessionId).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("announces a review written through REST on the paper's discussion, then the resource shows it", async () => {
    await sub.client.subscribeResource({ uri: INBOX });
    await sub.client.subscribeResource({ uri: discussion });
    const { review } = await rest(reviewer, "reviews", { ...SCORES, body: "Read this closely." });
    expect(await sub.nextUpdate()).toBe(discussion);
    const thread = await readJson<{
      reviews: { ai_advisory: { reviews: { id: string; body: string }[] } };
    }>(discussion);
    expect(thread.reviews.ai_advisory.reviews.map((r) => r.id)).toContain(review?.id);
  });

  it("announces a reply to the agent's comment on its inbox and the discussion; the inbox lists it", async () => {
    const { comment } = await rest(reviewer, "comments", {
      body: "A reply to the subscriber.",
      in_reply_to: commentId,
    });
    expect([await sub.nextUpdate(), await sub.nextUpdate()].sort()).toEqual(
      [discussion, INBOX].sort(),
    );
    const inbox = await readJson<{ notifications: { kind: string; subject_id: string }[] }>(INBOX);
    expect(inbox.notifications[0]).toMatchObject({ kind: "reply", subject_id: comment?.id });
  });

  it("unsubscribe stops a resource's announcements and leaves the others", async () => {
    await sub.client.unsubscribeResource({ uri: discussion });
    // Unsubscribing again, or from what was never subscribed, is no error.
    await sub.client.unsubscribeResource({ uri: discussion });
    // A comment concerns only the discussion; the reply after it, the inbox too. Wake-ups are
    // matched in commit order, so the discussion's would come first if it were still held.
    await rest(reviewer, "comments", { body: "Only the discussion changes." });
    await rest(reviewer, "comments", { body: "And a second reply.", in_reply_to: commentId });
    expect(await sub.nextUpdate()).toBe(INBOX);
  });

  it("refuses without a key, without a session, and for what cannot be subscribed to", async () => {
    const anonymous = await mcpClient(served.url);
    try {
      await expect(anonymous.subscribeResource({ uri: INBOX })).rejects.toThrow(
        /Subscriptions are an agent's: send your agent key/,
      );
    } finally {
      await anonymous.close();
    }
    await expect(sub.client.subscribeResource({ uri: "quire://elsewhere/x" })).rejects.toThrow(
      /-32602.*cannot be subscribed to; the subscribable resources are quire:\/\/me\/notifications and quire:\/\/papers\/\{id\}\/discussion/,
    );
    await expect(
      sub.client.subscribeResource({ uri: `quire://papers/${paperId}` }),
    ).rejects.toThrow(/-32602/);
    await expect(
      sub.client.subscribeResource({ uri: "quire://papers/2601.99999/discussion" }),
    ).rejects.toThrow(/-32002.*No visible paper has the id "2601.99999"/);
    await expect(
      sub.client.subscribeResource({ uri: `quire://papers/${paperId}v1/discussion` }),
    ).rejects.toThrow(/without a version/);
    const noSession = await rpc(
      served.url,
      { jsonrpc: "2.0", id: 3, method: "resources/subscribe", params: { uri: INBOX } },
      { ...subscriber.auth, "mcp-protocol-version": "2025-06-18" },
    );
    const body = (await noSession.json()) as { error?: { code: number; message: string } };
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toMatch(/needs the session this server gave at initialize/);
  });

  it("GET is an agent session's stream: anonymous is 405, no session is 400; DELETE ends the session's subscriptions", async () => {
    const anonymous = await fetch(`${served.url}/mcp`, {
      headers: { accept: "text/event-stream" },
    });
    expect(anonymous.status).toBe(405);
    expect(anonymous.headers.get("allow")).toBe("GET, POST, DELETE");
    const noSession = await fetch(`${served.url}/mcp`, {
      headers: { ...subscriber.auth, accept: "text/event-stream" },
    });
    expect(noSession.status).toBe(400);
    expect(((await noSession.json()) as { error: { message: string } }).error.message).toMatch(
      /Mcp-Session-Id/,
    );
    const put = await fetch(`${served.url}/mcp`, { method: "PUT" });
    expect(put.status).toBe(405);

    const sessionId = sub.transport.sessionId as string;
    const held = () => subscriptionsHeld(served.test.ctx, subscriber.id, sessionId);
    expect(await held()).toBe(1);
    await sub.transport.terminateSession();
    expect(await held()).toBe(0);
  });

  it("holds at most 5 streams of one agent; the 6th is a 429 until one closes", async () => {
    const agent = await agentIn(served.test.ctx, "verified", "many-streams");
    const open = (sessionId: string) =>
      fetch(`${served.url}/mcp`, {
        headers: { ...agent.auth, accept: "text/event-stream", "mcp-session-id": sessionId },
      });
    // Any well-formed session id is accepted: it names, it does not remember.
    const sessions = ["a", "b", "c", "d", "e", "f"].map((x) => x.repeat(22));
    const streams = [];
    for (const sessionId of sessions.slice(0, 5)) {
      const res = await open(sessionId);
      expect(res.status).toBe(200);
      streams.push(res);
    }
    const sixth = await open(sessions[5] as string);
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await sixth.json()) as { error: { message: string } }).error.message).toMatch(
      /5 event streams open/,
    );
    // Opening one of the five again replaces it, and is no sixth.
    const again = await open(sessions[0] as string);
    expect(again.status).toBe(200);
    for (const res of [...streams, again]) await res.body?.cancel();
  });

  it("ends a stream at the next heartbeat once its key is revoked", async () => {
    const agent = await agentIn(served.test.ctx, "verified", "short-lived");
    const init = await rpc(
      served.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw" } },
      },
      agent.auth,
    );
    const sessionId = init.headers.get("mcp-session-id") as string;
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const stream = await fetch(`${served.url}/mcp`, {
      headers: { ...agent.auth, accept: "text/event-stream", "mcp-session-id": sessionId },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    // Not compressed: each event must leave at once.
    expect(stream.headers.get("content-encoding")).toBeNull();
    await revokeAgentKey(
      { ...served.test.ctx, caller: { kind: "operator" } },
      { agentId: agent.id },
    );
    clock.advance(60_000);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(done).toBe(true);
    const again = await fetch(`${served.url}/mcp`, {
      headers: { ...agent.auth, accept: "text/event-stream", "mcp-session-id": sessionId },
    });
    expect(again.status).toBe(401);
  });
});

describe("subscriptions by an OAuth connection", () => {
  it("an agent connected by signing in subscribes with its token; anonymous, the subscribe is the 401 challenge", async () => {
    const oauth = await serveOAuthApp();
    let connected: SubscribingClient | undefined;
    try {
      const { client: owner, handle } = await ownerOverHttp(oauth);
      const agent = await makeAgent(oauth.test.ctx, handle, "oauth-subscriber");
      const redirect = "http://127.0.0.1:33421/callback";
      const raw = rawOAuth(oauth.url, redirect);
      const clientId = await raw.register();
      const { verifier, challenge } = pkce();
      const back = await consent(owner, raw.authorizeUrl(clientId, challenge), {
        agentId: agent.id,
      });
      const token = await raw.token({
        grant_type: "authorization_code",
        client_id: clientId,
        code: back.searchParams.get("code") as string,
        code_verifier: verifier,
        redirect_uri: redirect,
      });
      const { access_token } = (await token.json()) as { access_token: string };

      const paper = (await ownedPaper(oauth.test.ctx)).paperId;
      const writer = await agentIn(oauth.test.ctx, "verified", "oauth-writer");
      connected = await subscribingClient(oauth.url, access_token);
      await connected.streamOpen;
      await connected.client.subscribeResource({ uri: `quire://papers/${paper}/discussion` });
      const res = await fetch(`${oauth.url}/api/v1/papers/${paper}/comments`, {
        method: "POST",
        headers: { ...writer.auth, "content-type": "application/json" },
        body: JSON.stringify({ body: "Heard by an OAuth connection." }),
      });
      expect(res.status).toBe(201);
      expect(await connected.nextUpdate()).toBe(`quire://papers/${paper}/discussion`);

      const anonymous = await rpc(oauth.url, {
        jsonrpc: "2.0",
        id: 9,
        method: "resources/subscribe",
        params: { uri: INBOX },
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toMatch(/scope="agent"/);
      expect(((await anonymous.json()) as { error: { message: string } }).error.message).toMatch(
        /^resources\/subscribe acts as an agent/,
      );
    } finally {
      await connected?.close();
      await oauth.close();
    }
  });
});
