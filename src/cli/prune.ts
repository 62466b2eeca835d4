/** @module `quire prune`: the retention policy's prune by hand, with progress per store. */
import { parseArgs } from "node:util";
import type { Runtime } from "../runtime.ts";
import { withCaller } from "../services/context.ts";
import {
  type PruneReport,
  pruneStores,
  type StoreOutcome,
  type StoreUsage,
} from "../services/lifecycle/index.ts";
import type { CommandIo } from "./operations.ts";
import { createProgress, type Progress } from "./progress.ts";

/**
 * Deletes what is past retention (docs/data-lifecycle.md), store by store, showing progress;
 * `--dry-run` only counts. Every batch commits on its own, so an interrupted run (Ctrl-C
 * stops after the batch in progress) keeps what it did and running it again continues.
 * While another instance prunes the same database, this one does nothing and says so.
 */
export async function pruneCommand(rt: Runtime, args: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { "dry-run": { type: "boolean" }, batch: { type: "string" } },
  });
  if (positionals.length > 0) return io.usage("prune takes no arguments: quire prune [--dry-run]");
  const batchSize = values.batch === undefined ? undefined : Number(values.batch);
  if (
    batchSize !== undefined &&
    !(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= 10_000)
  ) {
    return io.usage("--batch must be an integer from 1 to 10000");
  }
  const ctx = withCaller(rt.services, { kind: "operator" });
  const counted = await pruneStores(ctx, { dryRun: true });
  if (counted.outcome === "skipped") return io.fail(counted.reason);
  if (values["dry-run"]) {
    for (const store of counted.stores) writeStore(store, "past retention");
    process.stdout.write(`dry run: ${counted.rows} rows past retention; nothing was deleted\n`);
    writeUsage(counted.usage);
    return failures(counted, io);
  }

  const totals = new Map(counted.stores.map((s) => [s.store, s.rows]));
  const bars = new Map<string, Progress>();
  const stop = new AbortController();
  const interrupt = () => {
    process.stderr.write("\nstopping after the batch in progress…\n");
    stop.abort();
  };
  process.once("SIGINT", interrupt);
  let report: PruneReport;
  try {
    report = await pruneStores(ctx, {
      ...(batchSize === undefined ? {} : { batchSize }),
      signal: stop.signal,
      onProgress: (p) => {
        let bar = bars.get(p.store);
        if (!bar) {
          for (const open of bars.values()) open.finish("done");
          bars.clear();
          bar = createProgress(p.store, Math.max(totals.get(p.store) ?? 0, p.rows));
          bars.set(p.store, bar);
        }
        bar.tick(p.rows, `${p.batches} batches`);
      },
    });
  } finally {
    process.off("SIGINT", interrupt);
    for (const open of bars.values()) open.finish(stop.signal.aborted ? "stopped" : "done");
  }
  if (report.outcome === "skipped") {
    process.stdout.write(`${report.reason}: nothing was deleted; run it again later\n`);
    return 0;
  }
  for (const store of report.stores) writeStore(store, "removed");
  process.stdout.write(`pruned: ${report.rows} rows removed\n`);
  writeUsage(report.usage);
  if (report.outcome === "stopped") {
    return io.fail("stopped before the end; run `quire prune` again to continue");
  }
  return failures(report, io);
}

/** A size-bounded store against its bound: `bound: files 14 stored, 1.2 of 2048 MiB (59%)`. */
function writeUsage(usage: StoreUsage[]): void {
  for (const u of usage) {
    const mib = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1)).toString();
    const share = u.maxBytes > 0 ? Math.floor((100 * u.bytes) / u.maxBytes) : 0;
    process.stdout.write(
      `bound: ${u.store} ${u.rows} stored, ${mib(u.bytes)} of ${mib(u.maxBytes)} MiB (${share}%)\n`,
    );
  }
}

function writeStore(store: StoreOutcome, what: string): void {
  process.stdout.write(`${store.store.padEnd(18)} ${String(store.rows).padStart(9)} ${what}\n`);
}

function failures(report: Exclude<PruneReport, { outcome: "skipped" }>, io: CommandIo): number {
  const failed = report.stores.filter((s) => s.error !== undefined);
  for (const store of failed) io.fail(`${store.store}: ${store.error}`);
  return failed.length > 0 ? 1 : 0;
}
