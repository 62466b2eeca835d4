import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/app.ts";
import {
  csrfTokenIn,
  htmlLang,
  mailedLink,
  PageClient,
  pathOf,
} from "../../testing/page-client.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { PASSWORD, signedInClient } from "./pages.test-helpers.ts";

let test: TestApp;

beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test.close());

function escaped(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/'/g, "&#39;").replace(/"/g, "&quot;");
}

describe("sign-up errors", () => {
  it("lists every bad field in the page's language, keeps what was typed but never the password", async () => {
    const client = new PageClient(test);
    const res = await client.submit("/sign-up", "/sign-up", {
      email: "not-an-email",
      handle: "x",
      password: "short",
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain('role="alert"');
    for (const message of [en.errors.email, en.errors.handle, en.errors.passwordShort(12)]) {
      expect(res.html).toContain(escaped(message));
    }
    expect(res.html).toContain('value="not-an-email"');
    expect(res.html).not.toContain('value="short"');
    expect(res.html).toMatch(
      /id="email"[^>]*aria-describedby="email-error"[^>]*aria-invalid="true"/,
    );

    const spanish = await client.submit("/es/sign-up", "/es/sign-up", {
      email: "",
      handle: "ok_handle",
      password: "x".repeat(300),
    });
    expect(spanish.status).toBe(400);
    expect(htmlLang(spanish.html)).toBe("es");
    expect(spanish.html).toContain(escaped(es.errors.email));
    expect(spanish.html).toContain(escaped(es.errors.passwordLong(256)));
    expect(spanish.html).not.toContain(escaped(es.errors.handle));
  });

  it("says a handle is taken (409), whatever its case", async () => {
    const { handle } = await signedInClient(test);
    const res = await new PageClient(test).submit("/sign-up", "/sign-up", {
      email: "another@example.org",
      handle: handle.toUpperCase(),
      password: PASSWORD,
    });
    expect(res.status).toBe(409);
    expect(res.html).toContain(escaped(en.errors.handleTaken));
  });
});

describe("sign-in errors", () => {
  it("gives one message (401) for a wrong password and for an unknown email", async () => {
    const { email } = await signedInClient(test);
    const wrong = await new PageClient(test).submit("/sign-in", "/sign-in", {
      email,
      password: "not the password",
    });
    const unknown = await new PageClient(test).submit("/sign-in", "/sign-in", {
      email: "nobody-here@example.org",
      password: "not the password",
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.html).toContain(escaped(en.errors.signInFailed));
      expect(res.html).not.toContain("quire_session");
    }
    const strip = (html: string) => html.replace(/value="[^"]*"/g, "");
    expect(strip(wrong.html)).toBe(strip(unknown.html));
  });

  it("asks for both fields (400) in Spanish on the Spanish page", async () => {
    const res = await new PageClient(test).submit("/es/sign-in", "/es/sign-in", {
      email: "",
      password: "",
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain(escaped(es.form.required));
  });
});

describe("link errors", () => {
  it("refuses a used verification link and an unknown one with the same page", async () => {
    const client = new PageClient(test);
    const email = "twice@example.org";
    await client.submit("/sign-up", "/sign-up", { email, handle: "twice", password: PASSWORD });
    const link = mailedLink(test.logs, "verify_email", email)!;
    const token = new URL(link).searchParams.get("token")!;
    const first = await client.submit(pathOf(link), "/verify-email", { token });
    expect(first.status).toBe(303);
    const again = await client.submit(pathOf(link), "/verify-email", { token });
    expect(again.status).toBe(400);
    expect(again.html).toContain(escaped(en.errors.linkInvalid));
    const forged = await client.submit(pathOf(link), "/verify-email", { token: "A".repeat(43) });
    expect(forged.status).toBe(400);
    expect(forged.html).toContain(escaped(en.errors.linkInvalid));
  });

  it("keeps a reset link usable after a refused password, and refuses a forged one", async () => {
    const { email } = await signedInClient(test);
    const client = new PageClient(test);
    await client.submit("/forgot-password", "/forgot-password", { email });
    const link = mailedLink(test.logs, "reset_password", email)!;
    const token = new URL(link).searchParams.get("token")!;
    const short = await client.submit(pathOf(link), "/reset-password", {
      token,
      password: "short",
    });
    expect(short.status).toBe(400);
    expect(short.html).toContain(escaped(en.errors.passwordShort(12)));
    expect(short.html).toContain('id="reset-form"');
    const ok = await client.submit(pathOf(link), "/reset-password", {
      token,
      password: "a fine new passphrase",
    });
    expect(ok.status).toBe(303);
    const forged = await client.submit(pathOf(link), "/reset-password", {
      token: "B".repeat(43),
      password: "a fine new passphrase",
    });
    expect(forged.status).toBe(400);
    expect(forged.html).toContain(escaped(en.errors.linkInvalid));
  });

  it("refuses a malformed email on the forgot-password form", async () => {
    const res = await new PageClient(test).submit("/forgot-password", "/forgot-password", {
      email: "nope",
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain(escaped(en.errors.email));
  });
});

describe("agent form errors", () => {
  it("lists a missing name and model (400) and creates nothing", async () => {
    const { client } = await signedInClient(test);
    const page = await client.get("/agents");
    const res = await client.post("/agents", {
      _csrf: csrfTokenIn(page.html, "/agents"),
      name: "   ",
      model: "m".repeat(101),
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain(escaped(en.errors.agentName));
    expect(res.html).toContain(escaped(en.errors.agentModel));
    expect(res.html).toContain('href="#agent-name"');
    expect((await client.get("/agents")).html).toContain('id="no-agents"');
  });

  it("answers 404 for rotating or revoking an agent that is not the owner's", async () => {
    const owner = await signedInClient(test);
    const other = await signedInClient(test);
    const page = await owner.client.get("/agents");
    await owner.client.post("/agents", {
      _csrf: csrfTokenIn(page.html, "/agents"),
      name: "Mine",
      model: "m",
    });
    const mine = await owner.client.get("/agents");
    const id = /id="agent-(agt_[0-9A-Za-z]+)"/.exec(mine.html)?.[1];
    expect(id).toBeTruthy();
    const theirs = await other.client.get("/agents");
    for (const action of ["rotate", "revoke"]) {
      const res = await other.client.post(`/agents/${id}/${action}`, {
        _csrf: csrfTokenIn(theirs.html, "/sign-out"),
      });
      expect(res.status).toBe(404);
      expect(res.html).toContain(escaped(en.errorPage[404]));
    }
    const still = await owner.client.get("/agents");
    expect(still.html).toContain(`action="/agents/${id}/revoke"`);
  });

  it("sends a signed-out POST to sign in (the CSRF cookie still checked)", async () => {
    const client = new PageClient(test);
    const page = await client.get("/sign-in");
    const res = await client.post("/agents", {
      _csrf: csrfTokenIn(page.html, "/sign-in"),
      name: "x",
      model: "y",
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe("/sign-in?notice=sign-in-needed&next=/agents");
  });
});

describe("unknown pages, wrong methods, wrong bodies", () => {
  it("answers a browser with an HTML 404 in the path's language, other clients with problem+json", async () => {
    const html = await new PageClient(test).get("/no-such-page");
    expect(html.status).toBe(404);
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html.html).toContain(escaped(en.errorPage[404]));
    const spanish = await new PageClient(test).get("/es/no-such-page");
    expect(htmlLang(spanish.html)).toBe("es");
    expect(spanish.html).toContain(escaped(es.errorPage[404]));

    const json = await test.app.request("/no-such-page");
    expect(json.status).toBe(404);
    expect(json.headers.get("content-type")).toBe("application/problem+json");
    const api = await test.app.request("/api/v1/nothing", { headers: { accept: "text/html" } });
    expect(api.headers.get("content-type")).toBe("application/problem+json");
  });

  it("answers a wrong method with 405 and Allow (HTML for browsers, JSON otherwise)", async () => {
    const html = await new PageClient(test).get("/sign-out");
    expect(html.status).toBe(405);
    expect(html.headers.get("allow")).toBe("POST");
    expect(html.html).toContain(escaped(en.errorPage[405]));
    const json = await test.app.request("/sign-out");
    expect(json.status).toBe(405);
    expect(json.headers.get("content-type")).toBe("application/problem+json");
    const put = await test.app.request("/agents", {
      method: "PUT",
      headers: { accept: "text/html" },
    });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD, POST");
  });

  it("refuses a form sent as JSON (415) and a body over 16 KiB (413)", async () => {
    const client = new PageClient(test);
    const page = await client.get("/sign-in");
    const json = await client.request("/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        _csrf: csrfTokenIn(page.html, "/sign-in"),
        email: "a",
        password: "b",
      }),
    });
    expect(json.status).toBe(415);
    expect(json.html).toContain(escaped(en.errorPage[415]));
    const big = await client.post("/sign-in", {
      _csrf: csrfTokenIn(page.html, "/sign-in"),
      email: "a@example.org",
      password: "x".repeat(20_000),
    });
    expect(big.status).toBe(413);
    expect(big.html).toContain(escaped(en.errorPage[413]));
    expect(big.headers.get("content-security-policy")).toContain("default-src 'none'");
  });
});
