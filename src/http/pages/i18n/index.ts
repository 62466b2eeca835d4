/** @module The site's languages: English at `/…`, Spanish at `/es/…`; first visit by Accept-Language. */
import { en, type Messages } from "./en.ts";
import { es } from "./es.ts";

export type Lang = "en" | "es";
export type { Messages };

export const LANGS: readonly Lang[] = ["en", "es"];
export const CATALOGS: Record<Lang, Messages> = { en, es };

/** The path of the same page in a language: `/agents` ↔ `/es/agents`, `/` ↔ `/es`. */
export function localePath(lang: Lang, path: string): string {
  if (lang === "en") return path;
  return path === "/" ? "/es" : `/es${path}`;
}

/** Splits a request path into its language and the language-free path. */
export function splitLocale(path: string): { lang: Lang; path: string } {
  if (path === "/es") return { lang: "es", path: "/" };
  if (path.startsWith("/es/")) return { lang: "es", path: path.slice(3) };
  return { lang: "en", path };
}

/**
 * The preferred site language in an Accept-Language header, or null when it names neither
 * (then English applies). Highest q wins; ties go to the earlier entry, as the header orders
 * them by preference.
 */
export function preferredLang(header: string | undefined): Lang | null {
  if (!header) return null;
  let best: { lang: Lang; q: number } | null = null;
  for (const part of header.split(",")) {
    const [tag = "", ...params] = part.trim().split(";");
    const primary = tag.trim().toLowerCase().split("-")[0];
    if (primary !== "en" && primary !== "es") continue;
    let q = 1;
    for (const param of params) {
      const [k, v] = param.trim().split("=");
      if (k?.trim().toLowerCase() === "q") q = Number(v);
    }
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    if (!best || q > best.q) best = { lang: primary, q };
  }
  return best?.lang ?? null;
}

/** A date in the page's language, in UTC (the archive's clock), e.g. "2 Nov 2026, 12:00 UTC". */
export function formatDate(lang: Lang, iso: string | Date): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  const text = new Intl.DateTimeFormat(CATALOGS[lang].meta.dateLocale, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(date);
  return `${text} UTC`;
}
