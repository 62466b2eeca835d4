/**
 * @module Why a source bundle was refused, as data: each refusal has a code and the values its
 * sentence needs, so the site words it in the reader's language and `quire import` prints
 * the English message, from one throw.
 */
import { Invalid } from "../errors.ts";

/** What is wrong with a figure: not an image type shown here, unreadable, or named for another type. */
export type BadFigure = "type" | "unreadable" | "mismatch";

/** Every reason a source bundle is refused; the site has a sentence for each code. */
export type SourceRefusal =
  /** The archive itself is over BUNDLE_LIMITS.compressedMax bytes. */
  | { code: "too_large"; max: number }
  | { code: "not_archive" }
  /** Corrupt zip, gzip or tar; `detail` is the reader library's words. */
  | { code: "unreadable"; format: "zip" | "gzip" | "tar"; detail: string }
  | { code: "empty" }
  | { code: "bad_path"; path: string; why: "character" | "absolute" | "leaves" | "long" }
  | { code: "too_many_entries"; max: number }
  | { code: "file_too_large"; path: string; max: number }
  | { code: "total_too_large"; max: number }
  | { code: "duplicate"; path: string }
  | { code: "not_plain_file"; path: string; type: string }
  | { code: "unknown_types"; paths: string[] }
  | { code: "too_many_files"; max: number }
  | { code: "main_missing"; path: string }
  /** Neither a `.tex` with `\documentclass` nor a `.md` file. */
  | { code: "no_main" }
  | { code: "several_main"; paths: string[] }
  | { code: "figure_missing"; path: string }
  | { code: "bad_figure"; path: string; kind: BadFigure; detail: string }
  /** A LaTeX bundle on a server without the converter (ctx.latex). */
  | { code: "latex_unavailable" }
  /**
   * LaTeXML stopped: `timeout` when its time limit of `seconds` ended it; `detail` is its own
   * words (they are the converter's log, in English).
   */
  | { code: "converter"; timeout: boolean; seconds: number; detail: string }
  | { code: "no_text"; path: string }
  /** Converting a bundle for a saved conversion (convertLatexSource) that holds no LaTeX. */
  | { code: "not_latex" }
  /** A body typed and a bundle given: the bundle's text is the body, so one or the other. */
  | { code: "body_and_source" };

/**
 * A refused bundle: Invalid (a client's input, never a server fault), its English message
 * for logs and the CLI, and the refusal for front ends that word it themselves. The issue
 * names the `source` field (the body's for `body_and_source`).
 */
export class SourceRefused extends Invalid {
  constructor(
    readonly refusal: SourceRefusal,
    message: string,
    lead = "The source bundle was refused",
  ) {
    super(`${lead}: ${message}`, [
      {
        in: "body",
        name: refusal.code === "body_and_source" ? "body" : "source",
        message,
      },
    ]);
  }
}

/** Throws the refusal with its English message. */
export function refuseSource(refusal: SourceRefusal, message: string, lead?: string): never {
  throw new SourceRefused(refusal, message, lead);
}
