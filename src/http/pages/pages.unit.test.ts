import { describe, expect, it } from "vitest";
import {
  csrfCookieKey,
  csrfMatches,
  maskCsrf,
  newCsrfCookieValue,
  sessionCsrfKey,
} from "./csrf.ts";
import { openFlash, sealFlash } from "./flash.ts";
import { en } from "./i18n/en.ts";
import { es } from "./i18n/es.ts";
import { formatDate, localePath, preferredLang, splitLocale } from "./i18n/index.ts";

describe("languages", () => {
  it("maps paths between English and Spanish both ways", () => {
    expect(localePath("es", "/agents")).toBe("/es/agents");
    expect(localePath("es", "/")).toBe("/es");
    expect(localePath("en", "/agents")).toBe("/agents");
    expect(splitLocale("/es/agents")).toEqual({ lang: "es", path: "/agents" });
    expect(splitLocale("/es")).toEqual({ lang: "es", path: "/" });
    expect(splitLocale("/estonia")).toEqual({ lang: "en", path: "/estonia" });
  });

  it.each([
    [undefined, null],
    ["", null],
    ["es", "es"],
    ["es-MX,es;q=0.9,en;q=0.8", "es"],
    ["en-GB,en;q=0.9,es;q=0.8", "en"],
    ["fr-FR,fr;q=0.9,es;q=0.7,en;q=0.5", "es"],
    ["de,*;q=0.5", null],
    ["en;q=0.2, es;q=0.3", "es"],
    ["es;q=0, en", "en"],
    ["es;q=abc, en;q=0.1", "en"],
  ])("Accept-Language %j → %j", (header, lang) => {
    expect(preferredLang(header)).toBe(lang);
  });

  it("formats dates with Intl in each language, in UTC", () => {
    const d = "2026-11-02T12:05:00.000Z";
    expect(formatDate("en", d)).toBe("2 Nov 2026, 12:05 UTC");
    expect(formatDate("es", d)).toBe("2 nov 2026, 12:05 UTC");
  });

  it("has the same keys in both catalogs (the type check enforces it; this guards casts)", () => {
    const keys = (o: object, prefix = ""): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        v && typeof v === "object" ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    // Screening reasons are the one designed difference: English pages show the screeners'
    // own (English) messages, other languages word them from a catalog of their own.
    const { screening: enScreening, ...enRest } = en;
    const { screening: esScreening, ...esRest } = es;
    expect(keys(esRest).sort()).toEqual(keys(enRest).sort());
    expect(enScreening.written).toBe("stored");
    expect(esScreening.written).toBe("catalog");
    expect(es.layout.signIn).not.toBe(en.layout.signIn);
  });
});

describe("CSRF tokens", () => {
  it("masks the key differently every time and accepts only its own key", () => {
    const key = sessionCsrfKey("secret-a");
    const t1 = maskCsrf(key);
    const t2 = maskCsrf(key);
    expect(t1).not.toBe(t2);
    expect(csrfMatches(t1, key)).toBe(true);
    expect(csrfMatches(t2, key)).toBe(true);
    expect(csrfMatches(t1, sessionCsrfKey("secret-b"))).toBe(false);
    for (const bad of [undefined, "", "x", t1.slice(0, -2), `${t1}AA`, 42]) {
      expect(csrfMatches(bad, key)).toBe(false);
    }
  });

  it("accepts only well-formed cookie secrets", () => {
    const value = newCsrfCookieValue();
    expect(csrfCookieKey(value)?.length).toBe(32);
    expect(csrfCookieKey(undefined)).toBeNull();
    expect(csrfCookieKey("short")).toBeNull();
    expect(csrfCookieKey(`${value.slice(0, 42)}!`)).toBeNull();
  });
});

describe("key flash", () => {
  const now = new Date("2026-11-02T12:00:00Z");
  const flash = { agentId: "agt_1", name: "bot", key: "quire_sk_x" };

  it("opens only under the same session secret and before it expires", () => {
    const sealed = sealFlash("session-secret", flash, now);
    expect(sealed).not.toContain("quire_sk_x");
    expect(openFlash("session-secret", sealed, now)).toEqual(flash);
    expect(openFlash("other-secret", sealed, now)).toBeNull();
    expect(openFlash("session-secret", sealed, new Date(now.getTime() + 301_000))).toBeNull();
    const tampered = Buffer.from(sealed, "base64url");
    tampered[tampered.length - 1]! ^= 1;
    expect(openFlash("session-secret", tampered.toString("base64url"), now)).toBeNull();
    expect(openFlash("session-secret", "garbage", now)).toBeNull();
  });
});
