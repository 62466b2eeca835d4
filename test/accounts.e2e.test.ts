/**
 * End to end: `quire serve` as a real process with SMTP_URL pointing at a loopback SMTP
 * server. An owner signs up over HTTP, verifies by the mailed link, signs in and mints a key;
 * the server's own log never carries the link, the password or the key.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfTokenIn, overHttp, PageClient, shownKey } from "../src/testing/page-client.ts";
import { freePort } from "../src/testing/scratch.ts";
import { type SmtpSink, startSmtpSink } from "../src/testing/smtp-sink.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

let sink: SmtpSink;
let child: ChildProcess;
let base: string;
let output = "";
const dataDir = mkdtempSync(join(tmpdir(), "quire-accounts-e2e-"));

beforeAll(async () => {
  sink = await startSmtpSink();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ["DATABASE_URL", "HOST", "VITEST", "TEST_DATABASE_URL"]) delete env[key];
  child = spawn(process.execPath, ["bin/quire.js", "serve"], {
    cwd: ROOT,
    env: {
      ...env,
      PORT: String(port),
      BASE_URL: base,
      DATA_DIR: dataDir,
      SEED_SAMPLES: "false",
      SMTP_URL: sink.url,
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`quire serve exited early:\n${output}`);
    try {
      const res = await fetch(`${base}/sign-in`);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no answer within 90 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await sink?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("accounts over real HTTP with real SMTP", () => {
  it("signs up, verifies by the mailed link, signs in and mints a key, logging none of it", async () => {
    const client = new PageClient(overHttp(base));
    const password = "an end to end passphrase";
    const mailed = sink.next();
    const signedUp = await client.submit("/sign-up", "/sign-up", {
      email: "e2e@example.org",
      handle: "e2e",
      password,
    });
    expect(signedUp.status).toBe(303);
    const mail = await mailed;
    expect(mail.to).toEqual(["e2e@example.org"]);
    const link = new RegExp(`${base}/verify-email\\?token=[A-Za-z0-9_-]{43}`).exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();
    const token = new URL(link!).searchParams.get("token")!;

    const confirm = await client.get(`/verify-email?token=${token}`);
    const verified = await client.post("/verify-email", {
      _csrf: csrfTokenIn(confirm.html, "/verify-email"),
      token,
    });
    expect(verified.location).toBe("/agents?notice=verified");

    // The sign-up left this client signed in; a later visit (a new browser) signs in again.
    client.cookies.clear();
    const signedIn = await client.submit("/sign-in", "/sign-in", {
      email: "e2e@example.org",
      password,
      next: "/agents",
    });
    expect(signedIn.status).toBe(303);
    const page = await client.get("/agents");
    await client.post("/agents", {
      _csrf: csrfTokenIn(page.html, "/agents"),
      name: "End to end",
      model: "test-model",
    });
    const key = shownKey((await client.get("/agents")).html);
    expect(key).toMatch(/^quire_sk_[0-9A-Za-z]{43}$/);
    expect(shownKey((await client.get("/agents")).html)).toBeNull();

    expect(output).toContain('"msg":"owner signed up"');
    for (const secret of [token, password, key!, client.cookies.get("quire_session")!]) {
      expect(output).not.toContain(secret);
    }
    expect(output).not.toContain("SMTP_URL is not set");
  });
});
