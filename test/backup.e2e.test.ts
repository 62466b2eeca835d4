/**
 * `quire backup` and `quire restore` end to end, with the real commands and a real
 * `quire serve` on the embedded engine (backups are of PGlite data directories; with
 * PostgreSQL, operators use pg_dump, see docs/operations.md).
 *
 * - While the server answers and agents keep posting comments (one after another), a
 *   backup is taken through the server's operator socket. The restored archive holds
 *   exactly the comments acknowledged up to some moment inside the backup (a prefix of the
 *   sequence: a consistent snapshot), and every public API response over it equals the
 *   response over the source as it was at that moment: the final source, stopped and
 *   copied, with the comments posted after the snapshot deleted (their counters move back
 *   by trigger). `/me` is left out: the server writes key uses (`last_used_at`) after the
 *   snapshot, at shutdown.
 * - With the server stopped, a backup restores to the same checksums; restore refuses a
 *   non-empty DATA_DIR (and moves it aside with --force), a damaged archive and a served
 *   DATA_DIR, and changes nothing then.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../src/db/client.ts";
import { rowsOf } from "../src/db/sql.ts";
import { summariseDb } from "../src/services/operations/backup.ts";
import { compareResponses } from "../src/testing/api-responses.ts";
import {
  archiveResponses,
  type EmbeddedArchive,
  embeddedArchive,
  type PopulatedArchive,
} from "../src/testing/archive.ts";
import { runQuire } from "../src/testing/quire-cli.ts";
import { type ServedQuire, serveQuire } from "../src/testing/serve.ts";

let fixture: EmbeddedArchive;
let root: string;
let dataDir: string;
let archive: PopulatedArchive;
let server: ServedQuire | undefined;
let onlineBackup: string;

beforeAll(async () => {
  fixture = await embeddedArchive("quire-backup-", { abstracts: 40 });
  ({ root, dataDir, archive } = fixture);
}, 600_000);

afterAll(async () => {
  await server?.stop();
  await fixture?.close();
});

interface Posted {
  id: string;
  at: number;
}

describe("quire backup while serving", () => {
  it("restores to exactly the archive at one moment inside the backup", async () => {
    server = await serveQuire({
      DATA_DIR: dataDir,
      SEED_SAMPLES: "false",
      TRUST_PROXY: "127.0.0.1",
    });
    const base = server.base;
    const list = (await (await fetch(`${base}/api/v1/papers?limit=1`)).json()) as {
      papers: { id: string }[];
    };
    const paperId = list.papers[0]?.id as string;

    // One writer, one comment at a time, alternating two verified agents; each from its
    // own forwarded address, so the per-address write limit never refuses one.
    const posted: Posted[] = [];
    let stop = false;
    let failure: Error | null = null;
    let n = 0;
    const writer = (async () => {
      while (!stop && !failure) {
        n++;
        const res = await fetch(`${base}/api/v1/papers/${paperId}/comments`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${archive.agentKeys[n % 2]}`,
            "content-type": "application/json",
            "x-forwarded-for": `198.51.100.${n % 250}`,
          },
          body: JSON.stringify({ body: `Write ${n} while a backup runs.` }),
        });
        const body = (await res.json()) as { comment?: { id: string } };
        if (res.status !== 201 || !body.comment) {
          failure = new Error(`write ${n}: ${res.status} ${JSON.stringify(body)}`);
          break;
        }
        posted.push({ id: body.comment.id, at: Date.now() });
        // ~2 writes a second: well inside two agents' 60 comments per 10 minutes each.
        await new Promise((r) => setTimeout(r, 400));
      }
    })();
    const until = async (count: number) => {
      while (posted.length < count) {
        if (failure) throw failure;
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    await until(3);
    const before = posted.length;
    onlineBackup = join(root, "online.quire");
    const backup = await runQuire(["backup", onlineBackup], { DATA_DIR: dataDir });
    const after = posted.length;
    await until(after + 3);
    stop = true;
    await writer;
    await server.stop();
    server = undefined;
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stderr).toContain("the server is running; asking it for a snapshot");
    expect(backup.stdout).toContain("taken while serving");

    const restoredDir = join(root, "restored");
    const restore = await runQuire(["restore", onlineBackup], { DATA_DIR: restoredDir });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain("every checksum verified");
    expect(existsSync(join(restoredDir, "quire.pid"))).toBe(false);

    // A prefix of the writes: all acknowledged before the backup began, none begun after it ended.
    const restored = await openDatabase({ dataDir: restoredDir, migrate: false });
    let k: number;
    try {
      const ids = new Set(
        (
          await rowsOf<{ id: string }>(
            restored.db,
            sql`select id from comments where paper_id = ${paperId}`,
          )
        ).map((r) => r.id),
      );
      k = posted.findIndex((p) => !ids.has(p.id));
      if (k === -1) k = posted.length;
      expect(k).toBeGreaterThanOrEqual(before);
      expect(k).toBeLessThanOrEqual(after);
      for (const p of posted.slice(k)) expect(ids.has(p.id), p.id).toBe(false);

      // The source at that moment: the final source, with the later comments deleted.
      const then = join(root, "source-then");
      cpSync(dataDir, then, { recursive: true });
      const source = await openDatabase({ dataDir: then, migrate: false });
      try {
        for (const p of posted.slice(k)) {
          await source.db.execute(sql`delete from comments where id = ${p.id}`);
        }
        const [a, b] = [await responses(source), await responses(restored)];
        const comparison = compareResponses(a, b);
        expect(comparison.different).toEqual([]);
        expect(comparison.scoresOnly).toEqual([]);
        expect(comparison.identical).toBe(a.size);
      } finally {
        await source.close();
      }
    } finally {
      await restored.close();
    }
  }, 900_000);
});

describe("quire backup and restore with the server stopped", () => {
  it("restores to the same checksums; guards DATA_DIR and refuses damaged archives", async () => {
    const file = join(root, "offline.quire");
    const backup = await runQuire(["backup", file], { DATA_DIR: dataDir });
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stderr).toContain("no server is running");

    const target = join(root, "restored-offline");
    const restore = await runQuire(["restore", file], { DATA_DIR: target });
    expect(restore.code, restore.stderr).toBe(0);
    await expectSameTables(dataDir, target);

    // A non-empty DATA_DIR: refused, then moved aside (kept) with --force.
    const again = await runQuire(["restore", onlineBackup], { DATA_DIR: target });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("is not empty");
    await expectSameTables(dataDir, target);
    const forced = await runQuire(["restore", onlineBackup, "--force"], { DATA_DIR: target });
    expect(forced.code, forced.stderr).toBe(0);
    const moved = /moved to (\S+);/.exec(forced.stdout)?.[1] as string;
    expect(existsSync(join(moved, "PG_VERSION"))).toBe(true);
    await expectSameTables(dataDir, moved);

    // A served DATA_DIR: refused even with --force.
    writeFileSync(join(target, "quire.pid"), String(process.pid));
    const served = await runQuire(["restore", file, "--force"], { DATA_DIR: target });
    rmSync(join(target, "quire.pid"));
    expect(served.code).toBe(1);
    expect(served.stderr).toContain("Stop the server before restoring");

    // A damaged archive: one byte of the data directory flipped.
    const damaged = join(root, "damaged.quire");
    const bytes = readFileSync(file);
    bytes[bytes.length - 4096] = (bytes[bytes.length - 4096] ?? 0) ^ 0xff;
    writeFileSync(damaged, bytes);
    const fresh = join(root, "never-restored");
    const refused = await runQuire(["restore", damaged], { DATA_DIR: fresh });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is damaged");
    expect(existsSync(join(fresh, "PG_VERSION"))).toBe(false);

    const pgOnly = await runQuire(["backup", file], {
      DATA_DIR: dataDir,
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
    });
    expect(pgOnly.code).toBe(2);
    expect(pgOnly.stderr).toContain("pg_dump");
  }, 900_000);
});

async function expectSameTables(a: string, b: string) {
  const [x, y] = [
    await openDatabase({ dataDir: a, migrate: false }),
    await openDatabase({ dataDir: b, migrate: false }),
  ];
  try {
    expect((await summariseDb(y.db)).tables).toEqual((await summariseDb(x.db)).tables);
  } finally {
    await x.close();
    await y.close();
  }
}

/** Every API response of the app over `database` (no `/me`: see the file's comment). */
function responses(database: Database) {
  return archiveResponses(database, archive, fixture.embedder());
}
