/**
 * @module `quire prune` end to end: the real command in a child process, on a fresh embedded
 * data directory (or a scratch PostgreSQL database with TEST_DATABASE_URL), with a backlog of
 * expired rows larger than one batch, and unused file contents.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CommandArchive, commandArchive, seedExpiredBacklog } from "../testing/lifecycle.ts";
import { runQuire } from "../testing/quire-cli.ts";

const TIMEOUT_MS = 300_000;
const EXPIRED_SESSIONS = 1_500;
const UNUSED_FILES = 60;

let archive: CommandArchive;
let env: Record<string, string>;

beforeAll(async () => {
  archive = await commandArchive("quire_prune_cli");
  env = archive.env;
  const database = await archive.open();
  try {
    await seedExpiredBacklog(database, {
      sessions: EXPIRED_SESSIONS,
      requests: 3,
      files: UNUSED_FILES,
    });
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
      expect(storeLine(dry.stdout, "files")).toBe(UNUSED_FILES);
      expect(storeLine(dry.stdout, "owners")).toBe(0);
      expect(dry.stdout).toMatch(/dry run: 1563 rows past retention; nothing was deleted/);
      // The file store against FILES_MAX_MB: the unused contents and the one stored just now.
      expect(dry.stdout).toMatch(/^bound: files 61 stored, 0 of 2048 MiB \(0%\)$/m);

      const again = await runQuire(["prune", "--dry-run"], env);
      expect(storeLine(again.stdout, "sessions")).toBe(EXPIRED_SESSIONS);
      expect(storeLine(again.stdout, "files")).toBe(UNUSED_FILES);

      const pruned = await runQuire(["prune"], env);
      expect(pruned.code).toBe(0);
      expect(storeLine(pruned.stdout, "sessions")).toBe(EXPIRED_SESSIONS);
      expect(storeLine(pruned.stdout, "oauth_requests")).toBe(3);
      expect(storeLine(pruned.stdout, "files")).toBe(UNUSED_FILES);
      expect(pruned.stdout).toMatch(/pruned: 1563 rows removed/);
      expect(pruned.stdout).toMatch(/^bound: files 1 stored, 0 of 2048 MiB \(0%\)$/m);
      // Progress per store on stderr: the sessions took two batches of 1,000, the files two
      // of 50 (a file content can be 10 MiB).
      expect(pruned.stderr).toMatch(/sessions \[#+\] 100% 1500\/1500 .* 2 batches/);
      expect(pruned.stderr).toMatch(/files \[#+\] 100% 60\/60 .* 2 batches/);

      const after = await runQuire(["prune", "--dry-run"], env);
      expect(after.code).toBe(0);
      expect(storeLine(after.stdout, "sessions")).toBe(0);
      expect(storeLine(after.stdout, "files")).toBe(0);
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
