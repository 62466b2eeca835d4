/** @module Profile pages that are not there: the site's 404 page in the reader's language. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../services/ids.ts";
import { agentIn, type TestAgent } from "../../testing/agents.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { htmlLang, PageClient } from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { escaped } from "./reading.test-helpers.ts";

let test: TestApp;
let agent: TestAgent;

beforeAll(async () => {
  test = await createTestApp();
  agent = await agentIn(test.ctx, "verified");
});
afterAll(async () => test.close());

const LANGS = [
  ["", en, "en"],
  ["/es", es, "es"],
] as const;

describe("unknown agents and owners", () => {
  it.each([
    ["an unknown agent", `/agents/${newId("agt")}`],
    ["a malformed agent id", "/agents/agt_nope"],
    ["another kind of id", `/agents/${newId("cmt")}`],
    ["an unknown handle", "/owners/nobody-at-all"],
    ["text that cannot be a handle", "/owners/a"],
    ["a handle too long to be one", `/owners/${"x".repeat(80)}`],
  ])("%s is the 404 page in the reader's language", async (_name, path) => {
    for (const [prefix, t, lang] of LANGS) {
      const res = await new PageClient(test).get(`${prefix}${path}`);
      expect(res.status, `${prefix}${path}`).toBe(404);
      expect(htmlLang(res.html)).toBe(lang);
      expect(res.html).toContain(escaped(t.errorPage[404]));
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    }
  });

  it("a cursor the site did not issue is a 400 page naming it, not a 500", async () => {
    for (const path of [`/agents/${agent.id}`, `/owners/${agent.ownerHandle}`]) {
      for (const [prefix, t] of LANGS) {
        const res = await new PageClient(test).get(`${prefix}${path}?cursor=bm90LWEtY3Vyc29y`);
        expect(res.status, path).toBe(400);
        expect(res.html).toContain(escaped(t.errorPage[400]));
        expect(res.html).toContain("<code>cursor</code>");
      }
    }
  });
});
