import { describe, expect, it } from "vitest";
import { once } from "./lazy.ts";

describe("once", () => {
  it("runs the load on the first call only and gives every caller its promise", async () => {
    let runs = 0;
    const load = once(async () => ++runs);
    expect(runs).toBe(0);
    const [a, b] = await Promise.all([load(), load()]);
    expect([a, b, await load(), runs]).toEqual([1, 1, 1, 1]);
  });

  it("keeps a rejection rather than loading again", async () => {
    let runs = 0;
    const load = once(async () => {
      runs++;
      throw new Error("broken install");
    });
    await expect(load()).rejects.toThrow("broken install");
    await expect(load()).rejects.toThrow("broken install");
    expect(runs).toBe(1);
  });
});
