/**
 * @module Hostile input on every front end answers 4xx in the front end's own shape and
 * changes nothing: unreadable forms, text PostgreSQL cannot store, control characters in
 * redirect targets, trailing slashes, loopback origins (the findings of issue 15).
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { originCheck } from "../mcp/http.ts";
import { BUCKETS, createMemoryRateLimits } from "../services/ratelimit/limits.ts";
import { agentIds, agentIn, contributionRows } from "../testing/agents.ts";
import { createTestApp, type TestApp } from "../testing/app.ts";
import { RELAXED_LIMITS } from "../testing/db.ts";
import { publishPaper } from "../testing/factories.ts";
import { mcpClient, type ServedApp, serveTestApp, textOf } from "../testing/mcp.ts";
import { csrfTokenIn, htmlLang, overHttp, PageClient } from "../testing/page-client.ts";
import { signedInClient } from "./pages/pages.test-helpers.ts";

let test: TestApp;
let served: ServedApp;
let paperId: string;

beforeAll(async () => {
  served = await serveTestApp();
  test = served.test;
  paperId = (await publishPaper(test.ctx)).paper_id;
});
afterAll(async () => {
  await served?.close();
});

const failures = () => test.logs.filter((l) => (l.level as number) >= 50);

describe("F1: an unreadable or oversized form body", () => {
  it.each([
    ["", "/sign-in", "en"],
    ["/es", "/sign-in", "es"],
    ["", "/sign-up", "en"],
    ["/es", "/agents", "es"],
  ])(
    "is a 400 page in the page's language at %s%s, before the CSRF check",
    async (prefix, path, lang) => {
      const before = failures().length;
      const client = new PageClient(test);
      for (const body of ["", "--x\r\nContent-Disposition: form-data\r\n\r\nunterminated"]) {
        const res = await client.request(`${prefix}${path}`, {
          method: "POST",
          headers: { "content-type": "multipart/form-data; boundary=x" },
          body,
        });
        expect(res.status).toBe(400);
        expect(htmlLang(res.html)).toBe(lang);
        expect(res.html).toContain(
          lang === "es" ? "No se ha podido procesar" : "could not be used",
        );
      }
      const noBoundary = await client.request(`${prefix}${path}`, {
        method: "POST",
        headers: { "content-type": "multipart/form-data" },
        body: "",
      });
      expect(noBoundary.status).toBe(400);
      expect(failures().length).toBe(before);
    },
  );

  it("is a 413 page when over the cap, whatever its shape", async () => {
    const client = new PageClient(test);
    const res = await client.request("/es/sign-in", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=x" },
      body: "x".repeat(64 * 1024),
    });
    expect(res.status).toBe(413);
    expect(htmlLang(res.html)).toBe("es");
  });

  it.each([
    ["a form", "/sign-in", "application/x-www-form-urlencoded"],
    ["the API", "/api/v1/papers/x/comments", "application/json"],
    ["MCP", "/mcp", "application/json"],
    ["OAI-PMH", "/oai", "application/x-www-form-urlencoded"],
  ])(
    "over the cap on %s, leaves the connection usable for the next request",
    async (_, path, type) => {
      // One keep-alive socket: the 413 and the request after it must both be answered on it.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const big = await httpRequest(agent, "POST", `${served.url}${path}`, "z".repeat(400_000), {
          "content-type": type,
          accept: "application/json, text/event-stream",
        });
        expect(big.status).toBe(413);
        expect(big.connection).toBe("keep-alive");
        const next = await httpRequest(agent, "GET", `${served.url}/healthz`);
        expect(next.status).toBe(200);
        expect(next.socket).toBe(big.socket);
      } finally {
        agent.destroy();
      }
    },
  );
});

describe("the site's per-address form limit", () => {
  it("takes 60 form posts a minute from one address, then a 429 page before the body is read", async () => {
    const limited = await createTestApp({
      services: {
        rateLimits: createMemoryRateLimits({
          overrides: { ...RELAXED_LIMITS, forms: BUCKETS.forms },
        }),
      },
    });
    try {
      const client = new PageClient(limited);
      const flood = {
        method: "POST",
        headers: { "content-type": "multipart/form-data" },
        body: "",
      };
      // F1's flood: malformed bodies on any form, each a 400 page, until the bucket is spent.
      for (let i = 0; i < 60; i++) {
        const res = await client.request(i % 2 ? "/sign-in" : "/es/agents", flood);
        expect(res.status, `post ${i + 1}`).toBe(400);
        expect(res.headers.get("ratelimit-policy")).toContain('"forms";q=60;w=60');
      }
      for (const [path, lang, text] of [
        [
          "/es/sign-in",
          "es",
          "Demasiadas peticiones (envíos de formularios desde tu dirección): el límite es 60 por minuto.",
        ],
        [
          "/sign-up",
          "en",
          "Too many form submissions from your address: the limit is 60 per minute.",
        ],
      ] as const) {
        const refused = await client.request(path, flood);
        expect(refused.status).toBe(429);
        expect(htmlLang(refused.html)).toBe(lang);
        expect(refused.html).toContain(text);
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(refused.headers.get("ratelimit")).toContain('"forms";r=0');
      }
      // Reading the pages and the API costs nothing from this bucket.
      expect((await client.get("/sign-in")).status).toBe(200);
      expect((await limited.app.request("/api/v1/papers")).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

/** A request on `agent`, resolving with its status, Connection header and socket. */
function httpRequest(
  agent: http.Agent,
  method: string,
  url: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; connection: string | undefined; socket: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          connection: res.headers.connection,
          socket: req.socket,
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("F2: text PostgreSQL cannot store", () => {
  it("is a 400 problem naming the parameter on the API", async () => {
    for (const path of [
      "/api/v1/search/semantic?q=a%00b",
      "/api/v1/search/semantic?q=a%0bb",
      "/api/v1/papers?cursor=%00",
      `/api/v1/papers/${paperId}%00`,
      "/feed.atom?keyword=%00",
      "/oai?verb=Identify&x=%01",
    ]) {
      const res = await test.app.request(path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      const body = (await res.json()) as { errors: { name: string; message: string }[] };
      expect(body.errors[0]?.message).toMatch(/control characters/);
    }
  });

  it("is a 400 page in the reader's language naming the parameter on the site", async () => {
    for (const [path, lang] of [
      ["/?q=a%00b", "en"],
      ["/es?keyword=%00", "es"],
      [`/papers/${paperId}?x=%1b`, "en"],
    ] as const) {
      const res = await new PageClient(test).get(path);
      expect(res.status, path).toBe(400);
      expect(htmlLang(res.html)).toBe(lang);
      expect(res.html).toMatch(/id="error-fields"/);
    }
  });

  it("is a 400 naming the field in a JSON body, and nothing is written", async () => {
    const agent = await agentIn(test.ctx, "verified");
    const before = await contributionRows(test.ctx);
    const res = await test.app.request(`/api/v1/papers/${paperId}/comments`, {
      method: "POST",
      headers: { ...agent.auth, "content-type": "application/json" },
      body: JSON.stringify({ body: "A comment long enough to pass.\u0000 And then some." }),
    });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { errors: { in: string; name: string }[] };
    expect(problem.errors).toEqual([expect.objectContaining({ in: "body", name: "body" })]);
    expect(await contributionRows(test.ctx)).toEqual(before);
  });

  it("keeps tabs and line breaks in bodies", async () => {
    const agent = await agentIn(test.ctx, "verified");
    const res = await test.app.request(`/api/v1/papers/${paperId}/comments`, {
      method: "POST",
      headers: { ...agent.auth, "content-type": "application/json" },
      body: JSON.stringify({ body: "A comment\twith a tab,\r\nand lines.\nFine text." }),
    });
    expect(res.status).toBe(201);
  });

  it("is a form page naming the field on sign-in, and in Spanish on /es", async () => {
    for (const prefix of ["", "/es"]) {
      const client = new PageClient(test);
      const res = await client.submit(`${prefix}/sign-in`, `${prefix}/sign-in`, {
        email: "a\u0000b@example.org",
        password: "whatever it is",
      });
      expect(res.status).toBe(400);
      expect(htmlLang(res.html)).toBe(prefix ? "es" : "en");
      expect(res.html).toContain("<code>email</code>");
    }
  });

  it("is refused on the agents mint form of a signed-in owner", async () => {
    const { client } = await signedInClient(test);
    const res = await client.submit("/agents", "/agents", {
      name: "bad\u0000name",
      model: "m",
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain("<code>name</code>");
  });

  it("is a tool error over MCP naming the argument, never one that says to retry", async () => {
    const client = await mcpClient(served.url);
    try {
      // Queries and cursors are line text in the services' own schemas, which the tools'
      // input schemas are: the SDK refuses them as invalid arguments, naming the field.
      const result = await client.callTool({
        name: "search_papers",
        arguments: { q: "lone \ud800 surrogate" },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/Invalid arguments[\s\S]*must not contain[\s\S]*\bq\b/);
      expect(textOf(result)).not.toMatch(/retry/i);
      const list = await client.callTool({ name: "list_papers", arguments: { cursor: "\u0000" } });
      expect(list.isError).toBe(true);
      expect(textOf(list)).toMatch(/must not contain[\s\S]*\bcursor\b/);
      // Text no schema bounds (an idempotency key) meets the text rule at the tool's entry.
      const agent = await agentIn(test.ctx, "verified");
      const writer = await mcpClient(served.url, agent.key);
      try {
        const post = await writer.callTool({
          name: "post_comment",
          arguments: { paper_id: paperId, body: "fine", idempotency_key: "a\u0000b" },
        });
        expect(post.isError).toBe(true);
        expect(textOf(post)).toMatch(/- idempotency_key: must not contain/);
        expect(textOf(post)).toMatch(/Fix the arguments/);
      } finally {
        await writer.close();
      }
    } finally {
      await client.close();
    }
  });
});

/** `prefix`, then `bad`, then `suffix`, as bytes: text around a sequence that is not UTF-8. */
const bytesWith = (prefix: string, bad: number[], suffix: string) =>
  Buffer.concat([Buffer.from(prefix), Buffer.from(bad), Buffer.from(suffix)]);
/** An invalid sequence (C3 followed by no continuation byte) and an overlong "/" (C0 AF). */
const NOT_UTF8 = [
  ["invalid", [0xc3, 0x28]],
  ["overlong", [0xc0, 0xaf]],
] as const;

describe("issue 28, finding 12: bytes that are not UTF-8 are refused, never replaced", () => {
  it.each(NOT_UTF8)(
    "a comment whose JSON body holds an %s sequence is a 400 problem naming the body, and nothing is stored",
    async (_kind, bad) => {
      const agent = await agentIn(test.ctx, "verified");
      const before = await contributionRows(test.ctx);
      const res = await fetch(`${served.url}/api/v1/papers/${paperId}/comments`, {
        method: "POST",
        headers: { ...agent.auth, "content-type": "application/json" },
        body: bytesWith('{"body":"A comment long enough to pass, ', [...bad], ' and then some."}'),
      });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      const problem = (await res.json()) as { detail: string; errors: unknown[] };
      expect(problem.detail).toMatch(/not valid UTF-8/);
      expect(problem.errors).toEqual([{ in: "body", name: "body", message: "is not valid UTF-8" }]);
      expect(await contributionRows(test.ctx)).toEqual(before);
    },
  );

  it("the same comment in valid UTF-8 (é, a 4-byte emoji) is stored as sent", async () => {
    const agent = await agentIn(test.ctx, "verified");
    const text = "A comment long enough to pass: café, 🦉, and then some.";
    const res = await fetch(`${served.url}/api/v1/papers/${paperId}/comments`, {
      method: "POST",
      headers: { ...agent.auth, "content-type": "application/json" },
      body: Buffer.from(JSON.stringify({ body: text })),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { comment: { body: string } }).comment.body).toBe(text);
  });

  it.each(NOT_UTF8)(
    "an MCP post_comment whose body holds an %s sequence is a JSON-RPC parse error (400), and nothing is stored",
    async (_kind, bad) => {
      const agent = await agentIn(test.ctx, "verified");
      const before = await contributionRows(test.ctx);
      const call = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "post_comment", arguments: { paper_id: paperId, body: "@@" } },
      });
      const [head, tail] = call.split("@@") as [string, string];
      const res = await fetch(`${served.url}/mcp`, {
        method: "POST",
        headers: {
          ...agent.auth,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: bytesWith(
          `${head}A comment long enough to pass, `,
          [...bad],
          ` and then some.${tail}`,
        ),
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: number; message: string } };
      expect(body.error).toMatchObject({ code: -32700 });
      expect(body.error.message).toMatch(/not valid UTF-8/);
      expect(await contributionRows(test.ctx)).toEqual(before);
    },
  );

  it.each(NOT_UTF8)(
    "a form field holding an %s sequence, raw or percent-encoded, is a 400 page naming the field",
    async (_kind, bad) => {
      const client = new PageClient(overHttp(served.url));
      const page = await client.get("/sign-in");
      const token = csrfTokenIn(page.html, "/sign-in");
      const percent = bad.map((b) => `%${b.toString(16).toUpperCase()}`).join("");
      for (const body of [
        `_csrf=${token}&email=a${percent}b%40example.org&password=whatever+it+is`,
        bytesWith(`_csrf=${token}&email=a`, [...bad], "b%40example.org&password=whatever"),
      ]) {
        const res = await client.request("/sign-in", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
        });
        expect(res.status).toBe(400);
        expect(res.html).toMatch(/id="error-fields"/);
        expect(res.html).toContain(
          typeof body === "string" ? "<code>email</code>" : "<code>body</code>",
        );
        expect(res.setCookies.some((c) => c.startsWith("quire_session="))).toBe(false);
      }
    },
  );

  it("a signed-in owner's agent form with such bytes (urlencoded or multipart) stores no agent", async () => {
    const { client } = await signedInClient(test);
    const before = await agentIds(test.ctx);
    const token = csrfTokenIn((await client.get("/agents")).html, "/agents");
    const boundary = "----quire-test-boundary";
    const part = (name: string, value: Buffer | string) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
        Buffer.from(value),
        Buffer.from("\r\n"),
      ]);
    const multipart = Buffer.concat([
      part("_csrf", token),
      part("name", bytesWith("bad", [0xc0, 0xaf], "name")),
      part("model", "m"),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    for (const [type, body] of [
      ["application/x-www-form-urlencoded", `_csrf=${token}&name=bad%C3%28name&model=m`],
      [`multipart/form-data; boundary=${boundary}`, multipart],
    ] as const) {
      const res = await client.request("/agents", {
        method: "POST",
        headers: { "content-type": type },
        body,
      });
      expect(res.status, type).toBe(400);
      expect(res.html).toContain("These fields are not valid UTF-8 text");
    }
    expect(await agentIds(test.ctx)).toEqual(before);
  });
});

describe("F3: redirects built from the URL", () => {
  it("never carry control characters: the URL is refused first", async () => {
    for (const path of ["/papers/a%0d%0ab/withdraw", "/es/papers/a%00b/revise", "/my/papers/%0a"]) {
      const res = await new PageClient(test).get(path);
      expect(res.status, path).toBe(400);
      expect(res.location).toBeNull();
    }
  });

  it("are percent-encoded when signed out on an owner page", async () => {
    const res = await new PageClient(test).get("/papers/a%20b%22c/withdraw");
    expect(res.status).toBe(302);
    expect(res.location).toBe("/sign-in?notice=sign-in-needed&next=/papers/a%20b%22c/withdraw");
  });
});

describe("trailing slashes", () => {
  it("redirect with 308 to the canonical page, keeping the query", async () => {
    for (const [from, to] of [
      ["/es/", "/es"],
      ["/agents/", "/agents"],
      ["/es/agents//", "/es/agents"],
      ["/api/v1/papers/?limit=2", "/api/v1/papers?limit=2"],
    ]) {
      const res = await test.app.request(from as string);
      expect(res.status, from).toBe(308);
      expect(res.headers.get("location")).toBe(to);
    }
  });

  it("never redirect to another host or to an unknown page", async () => {
    for (const path of ["//evil.example/", "/nothing-here/"]) {
      const res = await test.app.request(path, { headers: { accept: "text/html" } });
      expect(res.status, path).toBe(404);
    }
  });
});

describe("the MCP Origin check", () => {
  it("takes every loopback name as one origin when BASE_URL is loopback", () => {
    const allowed = originCheck("http://127.0.0.1:3000");
    expect(allowed("http://localhost:3000")).toBe(true);
    expect(allowed("http://[::1]:3000")).toBe(true);
    expect(allowed("http://127.0.0.1:3000")).toBe(true);
    expect(allowed("http://localhost:3001")).toBe(false);
    expect(allowed("https://localhost:3000")).toBe(false);
    expect(allowed("http://evil.example:3000")).toBe(false);
    expect(allowed("http://localhost.evil.example:3000")).toBe(false);
    expect(allowed("null")).toBe(false);
    const remote = originCheck("https://quire.example");
    expect(remote("https://quire.example")).toBe(true);
    expect(remote("http://localhost")).toBe(false);
  });

  it("lets a localhost page in when the server calls itself 127.0.0.1", async () => {
    const local = await createTestApp({ baseUrl: "http://127.0.0.1:3000" });
    try {
      const init = (origin: string) => ({
        method: "POST",
        headers: {
          origin,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect((await local.app.request("/mcp", init("http://localhost:3000"))).status).toBe(200);
      expect((await local.app.request("/mcp", init("http://evil.example"))).status).toBe(403);
    } finally {
      await local.close();
    }
  });
});
