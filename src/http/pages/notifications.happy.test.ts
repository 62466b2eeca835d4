/** @module /notifications and /es/notifications: the inbox, the header's count, mark read, mail choices. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createComment } from "../../services/contributions/index.ts";
import { getMailPreferences } from "../../services/notifications/index.ts";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import { fixedClock } from "../../testing/db.ts";
import { publishPaper } from "../../testing/factories.ts";
import {
  agentContext,
  giveOwner,
  ownerByHandle,
  ownerContext,
} from "../../testing/notifications.ts";
import { csrfTokenIn, htmlLang } from "../../testing/page-client.ts";
import { signedInClient } from "./pages.test-helpers.ts";

const clock = fixedClock(new Date("2026-11-06T08:00:00.000Z"));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ services: { clock } });
});
afterAll(async () => t.close());

/** A signed-in owner with a paper an agent has commented on twice. */
async function ownerWithActivity(lang: "en" | "es") {
  const signed = await signedInClient(t, { lang });
  const owner = await ownerByHandle(t.ctx, signed.handle);
  const { paper_id } = await publishPaper(t.ctx, { title: `Tides and moons ${lang}` });
  await giveOwner(t.ctx, paper_id, owner.id);
  const agent = await agentContext(t.ctx);
  for (const body of ["One.", "Two."]) {
    clock.advance(1000);
    await createComment(agent.ctx, { paperId: paper_id, body });
  }
  return { ...signed, owner, paperId: paper_id, agent };
}

describe("the notifications page", () => {
  it("lists what happened in English, with the unread count in the header, and marks read", async () => {
    const { client, paperId, agent } = await ownerWithActivity("en");
    const page = await client.get("/notifications");
    expect(page.status).toBe(200);
    expect(htmlLang(page.html)).toBe("en");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.html).toContain("Inbox (2)");
    expect(page.html).toContain("2 unread notifications.");
    expect(page.html).toContain(
      `agent-of-${agent.owner.handle} commented on &quot;Tides and moons en&quot;.`,
    );
    expect(page.html).toContain(`href="http://quire.test/papers/${paperId}"`);

    const one = page.html.match(/name="ids" value="(ntf_[0-9A-Za-z]{22})"/)?.[1];
    expect(one).toBeDefined();
    const marked = await client.submit("/notifications", "/notifications/read", { ids: one! });
    expect(marked.status).toBe(303);
    expect(marked.location).toBe("/notifications?notice=notifications-read");
    const after = await client.get("/notifications?unread=1");
    expect(after.html).toContain("1 unread notification.");
    expect(after.html).toContain("Inbox (1)");

    const all = await client.submit("/notifications", "/notifications/read", {
      up_to: "2030-01-01T00:00:00.000Z",
    });
    expect(all.status).toBe(303);
    const none = await client.get("/notifications?unread=1");
    expect(none.html).toContain("You have no unread notifications.");
    expect(none.html).not.toContain("unread)");
  });

  it("speaks Spanish at /es/notifications, and saves mail choices in the page's language", async () => {
    const { client, owner } = await ownerWithActivity("es");
    const page = await client.get("/es/notifications");
    expect(page.status).toBe(200);
    expect(htmlLang(page.html)).toBe("es");
    expect(page.html).toContain("Avisos (2)");
    expect(page.html).toContain("comentó «Tides and moons es».");
    expect(page.html).toContain("Enviarme un resumen diario");
    // The digest is on by default.
    expect(page.html).toMatch(/id="digest" name="digest" value="on" checked/);
    const saved = await client.submit("/es/notifications", "/es/notifications/mail", {
      "immediate-review": "on",
      "immediate-moderation": "on",
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe("/es/notifications?notice=mail-saved");
    const owned = ownerContext(t.ctx, owner);
    expect(await getMailPreferences(owned)).toEqual({
      digest: false,
      immediate: ["review", "moderation"],
      lang: "es",
    });
    const shown = await client.get(saved.location!);
    expect(shown.html).toContain("Tus opciones de correo están guardadas.");
  });

  it("sends the signed-out to sign in, and refuses a bad mark-read form with a 400 page", async () => {
    const anonymous = await t.app.request("/notifications", { headers: { accept: "text/html" } });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe(
      "/sign-in?notice=sign-in-needed&next=/notifications",
    );
    const { client } = await signedInClient(t, { lang: "es" });
    // No notifications, so no mark-read form: the session's token from the mail form will do.
    const token = csrfTokenIn(
      (await client.get("/es/notifications")).html,
      "/es/notifications/mail",
    );
    const bad = await client.post("/es/notifications/read", { _csrf: token, up_to: "ayer" });
    expect(bad.status).toBe(400);
    expect(htmlLang(bad.html)).toBe("es");
    const foreign = await client.post("/es/notifications/read", {
      _csrf: token,
      ids: "ntf_0000000000000000000000",
    });
    expect(foreign.status).toBe(303);
  });
});
