/** @module Loopback names as one resource: which origins a BASE_URL answers as, and for whom. */
import { describe, expect, it } from "vitest";
import { requestOrigin, servedOrigins } from "./resource.ts";

describe("servedOrigins and requestOrigin", () => {
  it("takes each loopback name on the same port for a loopback BASE_URL, and only those", () => {
    expect(servedOrigins("http://localhost:3000")).toEqual([
      "http://localhost:3000",
      "http://127.0.0.1:3000",
      "http://[::1]:3000",
    ]);
    expect(requestOrigin("http://localhost:3000", "127.0.0.1:3000")).toBe("http://127.0.0.1:3000");
    expect(requestOrigin("http://127.0.0.1:3000/", "[::1]:3000")).toBe("http://[::1]:3000");
    expect(requestOrigin("http://localhost:3000", "LOCALHOST:3000")).toBe("http://localhost:3000");
    for (const host of [
      "127.0.0.1:3001",
      "evil.example",
      "127.0.0.1:3000@evil.example",
      "",
      undefined,
    ]) {
      expect(requestOrigin("http://localhost:3000", host), String(host)).toBe(
        "http://localhost:3000",
      );
    }
  });

  it("leaves a non-loopback BASE_URL alone, whatever Host says", () => {
    expect(servedOrigins("https://quire.example")).toEqual(["https://quire.example"]);
    for (const host of ["localhost", "127.0.0.1", "quire.example.evil"]) {
      expect(requestOrigin("https://quire.example", host)).toBe("https://quire.example");
    }
  });
});
