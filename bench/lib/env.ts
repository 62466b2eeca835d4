/** @module Benchmark settings from the environment: one reading rule for every script. */

/** A positive number from `name`, or `fallback` when it is unset or empty; anything else throws. */
export function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!(n > 0)) throw new Error(`${name} must be a positive number`);
  return n;
}
