/**
 * @module fieldsFromSource: a version given as a source bundle, for the site's forms and
 * `quire import` alike — the one place that says how a bundle and typed fields combine.
 */
import { createHash } from "node:crypto";
import type { ServiceContext } from "../context.ts";
import {
  type PreparedFile,
  prepareSource,
  type SavedConversions,
  SourceRefused,
} from "../files/index.ts";

/** A source bundle as uploaded: the archive's bytes, and its main file when it must be named. */
export interface SourceUpload {
  bytes: Uint8Array;
  main?: string | undefined;
}

export interface FieldsFromSource {
  title: string;
  abstract: string;
  /** The bundle's text, as Markdown. */
  body: string;
  files: PreparedFile[];
  /** SHA-256 of the archive (hex): what an import key counts the bundle by. */
  sha256: string;
}

function given(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}

/**
 * The bundle's text is the version's body, so a typed body and a bundle exclude each other
 * (checked first, before any conversion; a body of only spaces counts as none). A title or
 * abstract left empty comes from the source (LaTeX's `\title` and abstract environment),
 * and one typed wins over it. The bundle is read by the files domain (prepareSource) with
 * the server's LaTeX converter, `ctx.latex`, or a conversion `saved` of this very archive
 * (how the LaTeX sample papers are seeded without LaTeXML); whatever it refuses is a
 * SourceRefused saying why. Nothing is stored here.
 */
export async function fieldsFromSource(
  ctx: ServiceContext,
  typed: { title?: string | undefined; abstract?: string | undefined; body?: string | undefined },
  source: SourceUpload,
  options: { saved?: SavedConversions | undefined } = {},
): Promise<FieldsFromSource> {
  if (given(typed.body)) {
    throw new SourceRefused(
      { code: "body_and_source" },
      "give either a body or a source, not both",
      "The submission was refused",
    );
  }
  const prepared = await prepareSource(source.bytes, {
    main: source.main,
    latex: ctx.latex,
    saved: options.saved,
  });
  return {
    title: given(typed.title) ? typed.title : prepared.title,
    abstract: given(typed.abstract) ? typed.abstract : prepared.abstract,
    body: prepared.body,
    files: prepared.files,
    sha256: createHash("sha256").update(source.bytes).digest("hex"),
  };
}
