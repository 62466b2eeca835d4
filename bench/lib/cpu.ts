/**
 * @module CPU time: of a synchronous piece of work, for the benchmarks that measure one
 * function, and of the whole machine, for the load benchmarks.
 */
import { cpus } from "node:os";

/** Runs `run` `repeats` times and returns the best and median CPU milliseconds (user + system). */
export function cpuMs(run: () => unknown, repeats: number): { best: number; median: number } {
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return { best: times[0] ?? 0, median: times[Math.floor(times.length / 2)] ?? 0 };
}

/** Busy CPU time of every core since boot (user, nice, system, irq), in ms. */
export function machineBusyMs(): number {
  let ms = 0;
  for (const { times } of cpus()) ms += times.user + times.nice + times.sys + times.irq;
  return ms;
}
