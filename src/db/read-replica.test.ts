import { describe, expect, it } from "vitest";
import { isReplicaUnavailable } from "./read-replica.ts";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isReplicaUnavailable", () => {
  it.each([
    ["refused", withCode("connect ECONNREFUSED 127.0.0.1:5433", "ECONNREFUSED")],
    ["reset", withCode("read ECONNRESET", "ECONNRESET")],
    ["admin shutdown", withCode("terminating connection due to administrator command", "57P01")],
    ["starting up", withCode("the database system is starting up", "57P03")],
    ["connection class", withCode("connection failure", "08006")],
    ["dropped socket", new Error("Connection terminated unexpectedly")],
    ["connect timeout", new Error("timeout exceeded when trying to connect")],
    [
      "every address refused",
      new AggregateError([withCode("connect ECONNREFUSED ::1:5433", "ECONNREFUSED")], ""),
    ],
  ])("is true when the replica cannot answer (%s)", (_name, error) => {
    expect(isReplicaUnavailable(error)).toBe(true);
  });

  it.each([
    ["a syntax error", withCode('syntax error at or near "selec"', "42601")],
    ["a unique violation", withCode("duplicate key value", "23505")],
    [
      "a read-only transaction",
      withCode("cannot execute INSERT in a read-only transaction", "25006"),
    ],
    ["not an error", "ECONNREFUSED"],
  ])("is false for %s: the query itself is wrong, and so would be on the primary", (_n, error) => {
    expect(isReplicaUnavailable(error)).toBe(false);
  });
});
