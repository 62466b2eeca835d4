/**
 * @module Figures checked before they are stored: rasters decoded and re-encoded by sharp
 * (libvips) — which proves they are images, applies the EXIF orientation, drops metadata
 * (camera, GPS) and bounds their width — and SVGs parsed by librsvg and kept as they are,
 * to be shown only through <img> and served under a sandboxing CSP (routes/files).
 */
import { BUNDLE_LIMITS, extensionOf, FIGURE_TYPES } from "./limits.ts";
import { type BadFigure, refuseSource } from "./refusal.ts";

export interface CheckedImage {
  bytes: Uint8Array;
  mediaType: string;
}

/** `detail` is the image library's words, when it gave some. */
function refuse(path: string, kind: BadFigure, why: string, detail = ""): never {
  refuseSource({ code: "bad_figure", path, kind, detail }, `the figure "${path}" ${why}`);
}

const FORMAT_TYPES: Record<string, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  svg: "image/svg+xml",
};

/**
 * Checks one figure by its content, never by its name alone. `trim` crops the white page
 * around a figure LaTeXML rendered from a PDF.
 */
export async function checkImage(
  path: string,
  bytes: Uint8Array,
  options: { trim?: boolean } = {},
): Promise<CheckedImage> {
  const ext = extensionOf(path);
  if (!FIGURE_TYPES[ext]) refuse(path, "type", "is not a PNG, JPEG, WebP, GIF or SVG image");
  // Loaded with the first figure, not with every process that imports the papers domain
  // (sharp's native module takes half a second to load; docs/adr/0026-start-up.md).
  const { default: sharp } = await import("sharp");
  const image = sharp(bytes, {
    limitInputPixels: BUNDLE_LIMITS.pixelsMax,
    animated: ext === "gif",
  });
  let format: string | undefined;
  let width = 0;
  try {
    const meta = await image.metadata();
    format = meta.format;
    width = meta.width ?? 0;
  } catch (error) {
    const detail = (error as Error).message;
    refuse(path, "unreadable", `is not a readable image (${detail})`, detail);
  }
  const mediaType = format ? FORMAT_TYPES[format] : undefined;
  if (!mediaType)
    refuse(
      path,
      "type",
      `is a ${format ?? "unknown"} file, not a PNG, JPEG, WebP, GIF or SVG image`,
    );
  if (mediaType !== FIGURE_TYPES[ext]) {
    refuse(path, "mismatch", `is named .${ext} but holds a ${format} image`, String(format));
  }
  if (format === "svg") {
    if (!/<svg[\s>]/i.test(new TextDecoder().decode(bytes.subarray(0, 64 * 1024)))) {
      refuse(path, "unreadable", "has no <svg> element");
    }
    return { bytes, mediaType };
  }
  if (format === "gif") return { bytes, mediaType };
  try {
    let pipeline = image.rotate();
    if (options.trim) pipeline = pipeline.trim({ background: "#ffffff", threshold: 10 });
    if (width > BUNDLE_LIMITS.figureWidthMax) {
      pipeline = pipeline.resize({ width: BUNDLE_LIMITS.figureWidthMax, withoutEnlargement: true });
    }
    const out =
      format === "png"
        ? pipeline.png({ compressionLevel: 9 })
        : format === "webp"
          ? pipeline.webp({ quality: 90 })
          : pipeline.jpeg({ quality: 90, mozjpeg: true });
    return { bytes: new Uint8Array(await out.toBuffer()), mediaType };
  } catch (error) {
    const detail = (error as Error).message;
    refuse(path, "unreadable", `could not be decoded (${detail})`, detail);
  }
}
