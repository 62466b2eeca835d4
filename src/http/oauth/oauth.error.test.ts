/**
 * @module OAuth endpoints when a request or the service goes wrong (issue 28): the true status
 * in logs and metrics, an outage as 503 with Retry-After in OAuth's shape, a bug as a logged
 * 500, registration bodies that are malformed, oversized or not JSON, redirect URIs that are
 * neither https nor loopback, and bounds on everything a client has stored, with nothing
 * stored when refused.
 */
import { describe, expect, it } from "vitest";
import type { Metrics } from "../../metrics.ts";
import {
  dropAuthorizationRequests,
  pkce,
  rawOAuth,
  countRows as rows,
  serveClientMetadata,
  serveOAuthApp,
  serveOAuthAppInOutage,
  useOAuthApp,
} from "../../testing/oauth.ts";
import { parsePrometheus } from "../../testing/prometheus.ts";

const app = useOAuthApp();
const REDIRECT = "http://127.0.0.1:40111/callback";

async function counted(metrics: Metrics, route: string, status: number, method = "POST") {
  const exposition = parsePrometheus(await metrics.render());
  return exposition.value("http_requests_total", { method, route, status: String(status) }) ?? 0;
}

function register(url: string, body: string, type = "application/json") {
  return fetch(`${url}/register`, { method: "POST", headers: { "content-type": type }, body });
}

describe("the status OAuth endpoints answered", () => {
  it("is the one logged and counted: a 400 from /token is a 400, not a 200", async () => {
    const served = app();
    const before = await counted(served.test.metrics, "/token", 400);
    const res = await rawOAuth(served.url, REDIRECT).token({
      grant_type: "authorization_code",
      client_id: "no-such-client",
      code: "quire_ac_x",
      code_verifier: pkce().verifier,
    });
    expect(res.status).toBe(400);
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toBeTruthy();
    expect(await counted(served.test.metrics, "/token", 400)).toBe(before + 1);
    expect(await counted(served.test.metrics, "/token", 200)).toBe(0);
    const line = served.test.logs.find((l) => l.msg === "request" && l.request_id === requestId);
    expect(line).toMatchObject({ route: "/token", status: 400 });
  });
});

describe("an OAuth outage", () => {
  it("answers 503 + Retry-After as temporarily_unavailable, logs a warning and fires the 5xx alert", async () => {
    const outage = await serveOAuthAppInOutage();
    const { url } = outage;
    const { logs, metrics } = outage.test;
    try {
      const raw = rawOAuth(url, REDIRECT);
      const answers = {
        "/register": await register(
          url,
          JSON.stringify({ client_name: "x", redirect_uris: [REDIRECT] }),
        ),
        "/token": await raw.token({
          grant_type: "authorization_code",
          client_id: "0f3b2c1a-7d1e-4d5e-9a0b-1c2d3e4f5a6b",
          code: "quire_ac_x",
          code_verifier: pkce().verifier,
        }),
        "/authorize": await fetch(raw.authorizeUrl("some-client", pkce().challenge), {
          redirect: "manual",
        }),
        "/revoke": await fetch(`${url}/revoke`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ client_id: "some-client", token: "quire_at_x" }).toString(),
        }),
      };
      for (const [route, res] of Object.entries(answers)) {
        expect(res.status, route).toBe(503);
        expect(res.headers.get("retry-after"), route).toBe("5");
        expect(res.headers.get("location"), route).toBeNull();
        const body = (await res.json()) as { error: string; error_description: string };
        expect(body.error, route).toBe("temporarily_unavailable");
        expect(body.error_description, route).toMatch(/retry in 5 seconds/);
        const requestId = res.headers.get("x-request-id");
        const warned = logs.find(
          (l) => l.msg === "oauth request unavailable" && l.request_id === requestId,
        );
        expect(warned?.level, route).toBe(40);
        const line = logs.find((l) => l.msg === "request" && l.request_id === requestId);
        expect(line, route).toMatchObject({ route, status: 503 });
      }
      expect(await counted(metrics, "/register", 503)).toBe(1);
      expect(await counted(metrics, "/token", 503)).toBe(1);
      expect(await counted(metrics, "/authorize", 503, "GET")).toBe(1);
      // The alert's expression: http_requests_total{status=~"5.."}.
      const fiveXx = parsePrometheus(await metrics.render())
        .find("http_requests_total")
        .filter((s) => /^5..$/.test(s.labels.status ?? ""))
        .reduce((sum, s) => sum + s.value, 0);
      expect(await counted(metrics, "/revoke", 503)).toBe(1);
      expect(fiveXx).toBe(4);
    } finally {
      await outage.close();
    }
  });

  it("keeps a bug a 500 server_error, logged as an error with the request id, never redirected", async () => {
    const served = await serveOAuthApp();
    try {
      const raw = rawOAuth(served.url, REDIRECT);
      const clientId = await raw.register();
      // A bug, not an outage: the table the request is stored in is gone.
      await dropAuthorizationRequests(served.test.ctx);
      const res = await fetch(raw.authorizeUrl(clientId, pkce().challenge), {
        redirect: "manual",
      });
      expect(res.status).toBe(500);
      expect(res.headers.get("location")).toBeNull();
      const requestId = res.headers.get("x-request-id") ?? "";
      expect(await res.json()).toEqual({
        error: "server_error",
        error_description: `Something went wrong on our side; quote request id ${requestId}.`,
      });
      const logged = served.test.logs.find(
        (l) => l.msg === "oauth request failed" && l.request_id === requestId,
      );
      expect(logged?.level).toBe(50);
      expect(await counted(served.test.metrics, "/authorize", 500, "GET")).toBe(1);
    } finally {
      await served.close();
    }
  });
});

describe("a registration body", () => {
  it("that is malformed JSON, over 16 KiB or not JSON is 400, 413 or 415, and nothing is stored", async () => {
    const served = app();
    const before = await rows(served.test.ctx, "oauth_clients");
    const malformed = await register(served.url, '{"redirect_uris": [');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      error: "invalid_client_metadata",
      error_description: expect.stringMatching(/not valid JSON/),
    });
    const huge = await register(
      served.url,
      JSON.stringify({ client_name: "x".repeat(200_000), redirect_uris: [REDIRECT] }),
    );
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({
      error: "invalid_client_metadata",
      error_description: expect.stringMatching(/over 16 KiB/),
    });
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      const wrong = await register(served.url, JSON.stringify({ redirect_uris: [REDIRECT] }), type);
      expect(wrong.status, type).toBe(415);
      expect(await wrong.json(), type).toMatchObject({ error: "invalid_client_metadata" });
    }
    expect(await counted(served.test.metrics, "/register", 413)).toBe(1);
    expect(await rows(served.test.ctx, "oauth_clients")).toBe(before);
  });

  it("that is not UTF-8 (a bad or an overlong sequence) is 400 and stores nothing (issue 28, finding 12)", async () => {
    const served = app();
    const before = await rows(served.test.ctx, "oauth_clients");
    const json = (name: Uint8Array) =>
      Buffer.concat([
        Buffer.from('{"client_name":"'),
        name,
        Buffer.from(`","redirect_uris":["${REDIRECT}"]}`),
      ]);
    for (const bytes of [Uint8Array.of(0xc3, 0x28), Uint8Array.of(0xc0, 0xaf)]) {
      const res = await fetch(`${served.url}/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: json(bytes),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: "invalid_client_metadata",
        error_description: expect.stringMatching(/not valid UTF-8/),
      });
    }
    const token = await fetch(`${served.url}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: Buffer.concat([Buffer.from("grant_type=authorization_code&code="), Buffer.of(0xff)]),
    });
    expect(token.status).toBe(400);
    expect(await token.json()).toMatchObject({ error: "invalid_request" });
    expect(await rows(served.test.ctx, "oauth_clients")).toBe(before);
  });
});

describe("redirect URIs", () => {
  it("are https or http on a loopback host; others are invalid_redirect_uri and not stored", async () => {
    const served = app();
    const before = await rows(served.test.ctx, "oauth_clients");
    for (const uri of [
      "http://evil.example/cb",
      "ftp://files.example/cb",
      "file:///etc/passwd",
      "com.example.app:/callback",
      "https://app.example/cb#fragment",
      "https://user:pw@app.example/cb",
      "http://127.0.0.1.evil.example/cb",
      `https://app.example/${"a".repeat(2_000)}`,
    ]) {
      const res = await register(
        served.url,
        JSON.stringify({ client_name: "x", redirect_uris: [REDIRECT, uri] }),
      );
      expect(res.status, uri).toBe(400);
      expect(((await res.json()) as { error: string }).error, uri).toBe("invalid_redirect_uri");
    }
    expect(await rows(served.test.ctx, "oauth_clients")).toBe(before);
    for (const uri of [
      "https://app.example/cb",
      "http://localhost:8080/cb",
      "http://127.0.0.1/cb",
      "http://[::1]:9/cb",
    ]) {
      const res = await register(served.url, JSON.stringify({ redirect_uris: [uri] }));
      expect(res.status, uri).toBe(201);
    }
  });

  it("in a client metadata document follow the same rule", async () => {
    const served = app();
    const site = await serveClientMetadata();
    try {
      const clientId = site.put("/plain-http.json", {
        client_name: "Doc",
        redirect_uris: ["http://evil.example/cb"],
      });
      const url = rawOAuth(served.url, "http://evil.example/cb").authorizeUrl(
        clientId,
        pkce().challenge,
      );
      const res = await fetch(url, { redirect: "manual" });
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.json()).toMatchObject({
        error: "invalid_client",
        error_description: expect.stringMatching(/neither https nor http on a loopback host/),
      });
    } finally {
      await site.close();
    }
  });

  it("are never an error redirect before both client and redirect URI are validated", async () => {
    const served = app();
    const raw = rawOAuth(served.url, REDIRECT);
    const clientId = await raw.register();
    const cases = [
      raw.authorizeUrl("no-such-client", pkce().challenge, { response_type: "x" }),
      raw.authorizeUrl(clientId, pkce().challenge, {
        response_type: "x",
        redirect_uri: "https://elsewhere.example/cb",
      }),
    ];
    for (const url of cases) {
      const res = await fetch(url, { redirect: "manual" });
      expect(res.status, url.href).toBe(400);
      expect(res.headers.get("location"), url.href).toBeNull();
    }
    // Both valid: an unsupported response_type goes back to the client's own URI (RFC 6749).
    const back = await fetch(raw.authorizeUrl(clientId, pkce().challenge, { response_type: "x" }), {
      redirect: "manual",
    });
    expect(back.status).toBe(302);
    const location = new URL(back.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get("error")).toBe("invalid_request");
  });
});

describe("the bounds on stored client input", () => {
  it("refuses oversized client metadata as invalid_client_metadata, storing nothing", async () => {
    const served = app();
    const before = await rows(served.test.ctx, "oauth_clients");
    const ok = { client_name: "Bounded", redirect_uris: [REDIRECT] };
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [
        "11 redirect URIs",
        { ...ok, redirect_uris: Array.from({ length: 11 }, (_, i) => `${REDIRECT}${i}`) },
        /over 10 URIs/,
      ],
      ["a long client_name", { ...ok, client_name: "n".repeat(201) }, /client_name is over 200/],
      ["jwks", { ...ok, jwks: { keys: [{ kty: "RSA", n: "x".repeat(100) }] } }, /jwks is not/],
      [
        "six contacts",
        { ...ok, contacts: Array.from({ length: 6 }, (_, i) => `c${i}@example.org`) },
        /over 5 contacts/,
      ],
      ["a long scope", { ...ok, scope: "s".repeat(201) }, /scope is over 200/],
      [
        "a long client_uri",
        { ...ok, client_uri: `https://a.example/${"u".repeat(2_000)}` },
        /client_uri/,
      ],
      [
        "over 8 KiB in all",
        {
          ...ok,
          redirect_uris: Array.from(
            { length: 5 },
            (_, i) => `https://a.example/${i}${"p".repeat(1_900)}`,
          ),
        },
        /over 8192 bytes/,
      ],
    ];
    for (const [name, metadata, reason] of cases) {
      const res = await register(served.url, JSON.stringify(metadata));
      expect(res.status, name).toBe(400);
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body.error, name).toBe("invalid_client_metadata");
      expect(body.error_description, name).toMatch(reason);
    }
    expect(await rows(served.test.ctx, "oauth_clients")).toBe(before);
  });

  it("refuses a state over 1 KiB and a malformed challenge with 400, before anything is stored", async () => {
    const served = app();
    const raw = rawOAuth(served.url, REDIRECT);
    const clientId = await raw.register();
    const before = await rows(served.test.ctx, "oauth_requests");
    const extras: Record<string, string>[] = [
      { state: "s".repeat(1_025) },
      { code_challenge: "c".repeat(5_000) },
    ];
    for (const extra of extras) {
      const res = await fetch(raw.authorizeUrl(clientId, pkce().challenge, extra), {
        redirect: "manual",
      });
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(((await res.json()) as { error: string }).error).toBe("invalid_request");
    }
    // Issue 28's 60 KB state, as a POSTed form (a URL that long is refused by Node, 431).
    const form = raw.authorizeUrl(clientId, pkce().challenge, { state: "s".repeat(60_000) });
    const posted = await fetch(`${served.url}/authorize`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.searchParams.toString(),
      redirect: "manual",
    });
    expect(posted.status).toBe(400);
    expect(posted.headers.get("location")).toBeNull();
    expect(await posted.json()).toMatchObject({
      error: "invalid_request",
      error_description: "state is over 1024 characters.",
    });
    expect(await rows(served.test.ctx, "oauth_requests")).toBe(before);
    const fits = await fetch(
      raw.authorizeUrl(clientId, pkce().challenge, { state: "s".repeat(1_024) }),
      {
        redirect: "manual",
      },
    );
    expect(fits.status).toBe(302);
    expect(fits.headers.get("location")).toMatch(/^\/oauth\/consent\//);
    expect(await rows(served.test.ctx, "oauth_requests")).toBe(before + 1);
  });
});
