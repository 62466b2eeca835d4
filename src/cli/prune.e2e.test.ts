/**
 * @module `quire prune` end to end: the real command in a child process, on a fresh embedded
 * data directory (or a scratch PostgreSQL database with TEST_DATABASE_URL), with a backlog of
 * expired rows larger than one batch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CommandArchive, commandArchive, seedExpiredBacklog } from "../testing/lifecycle.ts";
import { runQuire } from "../testing/quire-cli.ts";

const TIMEOUT_MS = 300_000;
const EXPIRED_SESSIONS = 1_500;

let archive: CommandArchive;
let env: Record<string, string>;

beforeAll(async () => {
  archive = await commandArchive("quire_prune_cli");
  env = archive.env;
  const database = await archive.open();
  try {
    await seedExpiredBacklog(database, { sessions: EXPIRED_SESSIONS, requests: 3 });
  } finally {
    await database.close();
  }
}, TIMEOUT_MS);

afterAll(async () => {
  await archive?.drop();
});

/** The number on a store's line of the command's summary. */
function storeLine(stdout: string, store: string): number {
  const match = new RegExp(`^${store}\\s+(\\d+) `, "m").exec(stdout);
  if (!match) throw new Error(`no line for ${store} in:\n${stdout}`);
  return Number(match[1]);
}

describe("quire prune", () => {
  it(
    "--dry-run counts what is past retention per store and deletes nothing; prune removes it in batches with progress; a rerun finds nothing",
    async () => {
      const dry = await runQuire(["prune", "--dry-run"], env);
      expect(dry.stderr).toBe("");
      expect(dry.code).toBe(0);
      expect(storeLine(dry.stdout, "sessions")).toBe(EXPIRED_SESSIONS);
      expect(storeLine(dry.stdout, "oauth_requests")).toBe(3);
      expect(storeLine(dry.stdout, "owners")).toBe(0);
      expect(dry.stdout).toMatch(/dry run: 1503 rows past retention; nothing was deleted/);

      const again = await runQuire(["prune", "--dry-run"], env);
      expect(storeLine(again.stdout, "sessions")).toBe(EXPIRED_SESSIONS);

      const pruned = await runQuire(["prune"], env);
      expect(pruned.code).toBe(0);
      expect(storeLine(pruned.stdout, "sessions")).toBe(EXPIRED_SESSIONS);
      expect(storeLine(pruned.stdout, "oauth_requests")).toBe(3);
      expect(pruned.stdout).toMatch(/pruned: 1503 rows removed/);
      // Progress per store on stderr: the sessions took two batches of 1,000.
      expect(pruned.stderr).toMatch(/sessions \[#+\] 100% 1500\/1500 .* 2 batches/);

      const after = await runQuire(["prune", "--dry-run"], env);
      expect(after.code).toBe(0);
      expect(storeLine(after.stdout, "sessions")).toBe(0);
      expect(after.stdout).toMatch(/dry run: 0 rows past retention/);
    },
    TIMEOUT_MS,
  );

  it(
    "refuses arguments it does not know",
    async () => {
      const result = await runQuire(["prune", "everything"], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/prune takes no arguments/);
    },
    TIMEOUT_MS,
  );
});
