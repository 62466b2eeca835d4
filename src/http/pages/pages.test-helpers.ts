/** @module Shared set-up for the page tests: owners with a known password, signed in through the pages. */
import { createOwner, hashPassword } from "../../services/owners/index.ts";
import type { TestApp } from "../../testing/app.ts";
import { PageClient } from "../../testing/page-client.ts";

export const PASSWORD = "correct horse battery staple";

let hash: Promise<string> | undefined;
let n = 0;

/** A new owner (verified or not) and a client signed in as them through /sign-in. */
export async function signedInClient(
  test: TestApp,
  options: { verified?: boolean; lang?: "en" | "es"; headers?: Record<string, string> } = {},
): Promise<{ client: PageClient; handle: string; email: string }> {
  hash ??= hashPassword(PASSWORD);
  n++;
  const handle = `owner_${process.pid}_${n}`;
  const email = `${handle}@example.org`;
  await createOwner(
    { ...test.ctx, caller: { kind: "operator" } },
    { handle, email, verified: options.verified ?? true, passwordHash: await hash },
  );
  const client = new PageClient(test, options.headers);
  const prefix = options.lang === "es" ? "/es" : "";
  const res = await client.submit(`${prefix}/sign-in`, `${prefix}/sign-in`, {
    email,
    password: PASSWORD,
    next: "/agents",
  });
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}\n${res.html}`);
  return { client, handle, email };
}
