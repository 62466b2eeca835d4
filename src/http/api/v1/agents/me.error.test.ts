/** @module GET /api/v1/me: every way a key can fail (the shared agent-key cases). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../testing/app.ts";
import { agentAuthCases } from "../../../../testing/auth-cases.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe("GET /api/v1/me", () => {
  agentAuthCases({
    app: () => t,
    send: (headers) => t.app.request("/api/v1/me", { headers }),
    success: 200,
    write: false,
  });

  it("is 405 for POST, with Allow", async () => {
    const res = await t.app.request("/api/v1/me", { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });
});
