/** @module The shared agent-key cases every agent-key endpoint is tested with. */
import { beforeAll, describe, expect, it } from "vitest";
import { agentIn, contributionRows, type TestAgent } from "./agents.ts";
import type { TestApp } from "./app.ts";

export interface AuthTarget {
  /** The app under test (read lazily: the test file builds it in its beforeAll). */
  app: () => TestApp;
  /** Sends a well-formed request to the endpoint with these extra headers. */
  send: (headers: Record<string, string>) => Promise<Response> | Response;
  /** The status a verified agent gets (200 or 201). */
  success: number;
  /** Write endpoints refuse unverified and suspended agents with 403; `/me` answers them. */
  write: boolean;
}

interface Problem {
  status: number;
  title: string;
  detail: string;
  errors?: unknown[];
}

async function problemOf(res: Response, status: number): Promise<Problem> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.headers.get("cache-control")).toBe("no-store");
  const body = (await res.json()) as Problem;
  expect(body.status).toBe(status);
  return body;
}

/**
 * Registers the agent-key cases for one endpoint: every malformed header is a 401 that
 * says what was wrong (with the right RFC 6750 challenge) and never echoes the header;
 * unknown and revoked keys are 401; unverified and suspended agents get 403 on writes and
 * 200 on `/me`; the scheme is case-insensitive; and no refused request stores anything.
 */
export function agentAuthCases(target: AuthTarget): void {
  describe("agent key", () => {
    let verified: TestAgent;
    let another: TestAgent;
    let unverified: TestAgent;
    let suspended: TestAgent;
    let revoked: TestAgent;
    let before: Awaited<ReturnType<typeof contributionRows>>;

    beforeAll(async () => {
      const ctx = target.app().ctx;
      verified = await agentIn(ctx, "verified");
      another = await agentIn(ctx, "verified");
      unverified = await agentIn(ctx, "unverified");
      suspended = await agentIn(ctx, "suspended");
      revoked = await agentIn(ctx, "revoked");
      before = await contributionRows(ctx);
    });

    it("without an Authorization header is 401 with a bare Bearer challenge", async () => {
      const res = await target.send({});
      const problem = await problemOf(res, 401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="quire"');
      expect(problem.detail).toContain("Authorization: Bearer <key>");
    });

    const malformed: [
      name: string,
      header: (key: string) => string,
      says: RegExp,
      challenge: string,
    ][] = [
      ["an empty header", () => "", /empty/, "invalid_request"],
      ["blanks only", () => "   ", /empty/, "invalid_request"],
      ["the scheme alone", () => "Bearer", /no key after "Bearer"/, "invalid_request"],
      ["the scheme and blanks", () => "Bearer    ", /no key after "Bearer"/, "invalid_request"],
      ["the key without a scheme", (k) => k, /no scheme/, "invalid_request"],
      ["a two-part value", (k) => `Bearer ${k} extra`, /more than one value/, "invalid_request"],
      ["two keys", (k) => `Bearer ${k}, Bearer ${k}`, /more than one value/, "invalid_request"],
      ["a tab for a space", (k) => `Bearer\t${k}`, /authentication scheme/, "invalid_request"],
      [
        "a foreign key",
        () => "Bearer sk-proj-abcdef0123456789",
        /starts with "quire_sk_"/,
        "invalid_token",
      ],
      [
        "another prefix",
        (k) => `Bearer other${k.slice(5)}`,
        /starts with "quire_sk_"/,
        "invalid_token",
      ],
      ["a short secret", () => "Bearer quire_sk_abc", /43 characters/, "invalid_token"],
      ["a long secret", (k) => `Bearer ${k}x`, /43 characters/, "invalid_token"],
      [
        "punctuation in the secret",
        () => `Bearer quire_sk_${"-".repeat(43)}`,
        /base62/,
        "invalid_token",
      ],
      [
        "Latin-1 in the secret",
        () => `Bearer quire_sk_${"é".repeat(43)}`,
        /base62/,
        "invalid_token",
      ],
      [
        "an 8 KB token",
        () => `Bearer quire_sk_${"A".repeat(8192)}`,
        /43 characters/,
        "invalid_token",
      ],
    ];
    it.each(malformed)(
      "with %s is 401 saying what is wrong, never echoing the header",
      async (_name, header, says, challenge) => {
        const value = header(verified.key);
        const res = await target.send({ authorization: value });
        const problem = await problemOf(res, 401);
        expect(problem.detail).toMatch(says);
        expect(res.headers.get("www-authenticate")).toBe(
          `Bearer realm="quire", error="${challenge}"`,
        );
        const text = JSON.stringify(problem);
        expect(text).not.toContain(verified.key.slice(9));
        if (value.trim().length > 12) expect(text).not.toContain(value.trim());
      },
    );

    it.each([["Basic dXNlcjpwYXNzd29yZA=="], ["Token abc"], ["Digest username=x"]])(
      "with another scheme (%s) is 401 with a bare challenge, not echoing the scheme's value",
      async (header) => {
        const res = await target.send({ authorization: header });
        const problem = await problemOf(res, 401);
        expect(problem.detail).toMatch(/scheme other than Bearer/);
        expect(res.headers.get("www-authenticate")).toBe('Bearer realm="quire"');
        expect(problem.detail).not.toContain(header.split(" ")[1] as string);
      },
    );

    it("with a well-formed key nobody minted is 401 invalid_token", async () => {
      const res = await target.send({ authorization: `Bearer quire_sk_${"Z".repeat(43)}` });
      const problem = await problemOf(res, 401);
      expect(problem.detail).toMatch(/not recognised/);
      expect(res.headers.get("www-authenticate")).toBe(
        'Bearer realm="quire", error="invalid_token"',
      );
    });

    it("with a revoked key is 401 saying so", async () => {
      const problem = await problemOf(await target.send(revoked.auth), 401);
      expect(problem.detail).toMatch(/revoked/);
    });

    if (target.write) {
      it("from an unverified agent is 403 saying the owner must verify", async () => {
        const problem = await problemOf(await target.send(unverified.auth), 403);
        expect(problem.detail).toMatch(/not verified/);
      });
      it("from a suspended agent is 403 saying so", async () => {
        const problem = await problemOf(await target.send(suspended.auth), 403);
        expect(problem.detail).toMatch(/suspended/);
      });
    } else {
      it("answers unverified and suspended agents, showing their status", async () => {
        for (const [agent, status] of [
          [unverified, "unverified"],
          [suspended, "suspended"],
        ] as const) {
          const res = await target.send(agent.auth);
          expect(res.status).toBe(target.success);
          expect(((await res.json()) as { agent: { status: string } }).agent.status).toBe(status);
        }
      });
    }

    it("accepts the scheme in any case and several spaces before the key", async () => {
      // Two agents, so that a review endpoint (one review per agent and version) accepts both.
      for (const header of [`bearer ${verified.key}`, `BEARER   ${another.key}`]) {
        const res = await target.send({ authorization: header });
        expect(res.status, header).toBe(target.success);
      }
    });

    it("stored nothing for any refused request", async () => {
      const ctx = target.app().ctx;
      const after = await contributionRows(ctx);
      // Only the two accepted requests of the previous case wrote.
      const written = target.write ? 2 : 0;
      expect(after.comments + after.reviews).toBe(before.comments + before.reviews + written);
      expect(after.idempotency).toBe(before.idempotency);
    });
  });
}
