/** @module The Croissant 1.0 description of the corpus: the exports, their records, RAI notes. */
import type { ServiceContext } from "../context.ts";
import { AI_LABEL } from "../papers/index.ts";
import { EXPORT_FILE_NAMES, type ExportKind, exportUrl } from "./export.ts";
import { currentSnapshot, type DatasetSnapshot, snapshotDigest } from "./snapshot.ts";

const CROISSANT_CONFORMS_TO = "http://mlcommons.org/croissant/1.0";
export const CROISSANT_MEDIA_TYPE = `application/ld+json; profile="${CROISSANT_CONFORMS_TO}"`;
/**
 * The dataset's structural version. For a live dataset the spec asks for a new version only
 * when the structure changes, not when records are added, so this moves with the export
 * format, while `dateModified` and the checksums move with the data. 1.1.0: papers' `files`,
 * caption chunks.
 */
const DATASET_VERSION = "1.1.0";
/** The Croissant encodingFormat of both exports (mlcroissant's name for JSON Lines). */
const JSONL_ENCODING_FORMAT = "application/jsonlines";

/** The standard Croissant 1.0 JSON-LD context (as in the spec's examples), plus `rai`. */
export const CROISSANT_CONTEXT = {
  "@language": "en",
  "@vocab": "https://schema.org/",
  citeAs: "cr:citeAs",
  column: "cr:column",
  conformsTo: "dct:conformsTo",
  cr: "http://mlcommons.org/croissant/",
  rai: "http://mlcommons.org/croissant/RAI/",
  data: { "@id": "cr:data", "@type": "@json" },
  dataType: { "@id": "cr:dataType", "@type": "@vocab" },
  dct: "http://purl.org/dc/terms/",
  examples: { "@id": "cr:examples", "@type": "@json" },
  extract: "cr:extract",
  field: "cr:field",
  fileProperty: "cr:fileProperty",
  fileObject: "cr:fileObject",
  fileSet: "cr:fileSet",
  format: "cr:format",
  includes: "cr:includes",
  isLiveDataset: "cr:isLiveDataset",
  jsonPath: "cr:jsonPath",
  key: "cr:key",
  md5: "cr:md5",
  parentField: "cr:parentField",
  path: "cr:path",
  recordSet: "cr:recordSet",
  references: "cr:references",
  regex: "cr:regex",
  repeated: "cr:repeated",
  replace: "cr:replace",
  sc: "https://schema.org/",
  separator: "cr:separator",
  source: "cr:source",
  subField: "cr:subField",
  transform: "cr:transform",
} as const;

export type CroissantDocument = Record<string, unknown>;

/**
 * The Croissant document of the current corpus. Needs the current snapshot (which may be
 * computed here, streaming both exports once); the document itself is small and inlines no
 * records, so it costs the same at ten papers as at a million once the snapshot exists.
 */
export async function getCroissant(
  ctx: ServiceContext,
): Promise<{ document: CroissantDocument; snapshot: DatasetSnapshot }> {
  const snapshot = await currentSnapshot(ctx);
  return { document: buildCroissant(ctx.settings.baseUrl, snapshot), snapshot };
}

/** A pure function of the base URL and the snapshot, so equal snapshots give equal bytes. */
export function buildCroissant(baseUrl: string, snapshot: DatasetSnapshot): CroissantDocument {
  const published = (snapshot.corpusFirstPublishedAt ?? snapshot.computedAt).toISOString();
  const modified = (snapshot.corpusModifiedAt ?? snapshot.computedAt).toISOString();
  const quire = { "@type": "sc:Organization", name: "Quire", url: `${baseUrl}/` };
  const { facets } = snapshot;
  const licenses = facets.licenses.length > 0 ? facets.licenses.map(licenseUrl) : [CC_BY_4];
  const screeners = facets.screeners.length > 0 ? facets.screeners.join(", ") : "none yet";
  return {
    "@context": CROISSANT_CONTEXT,
    "@type": "sc:Dataset",
    name: "Quire: AI-authored research papers",
    description:
      "Every visible (published) paper in the Quire open archive, in its current version, with " +
      "its text split into ordered verbatim spans for grounding. Every paper in this dataset was " +
      "written by an AI model (named per paper in `ai_model`) and is labeled " +
      `"${AI_LABEL}"; humans only submitted them on the models' behalf. Papers were screened ` +
      "automatically before publication; none has been peer reviewed. Each paper carries its own " +
      "license in its `license` column.",
    conformsTo: CROISSANT_CONFORMS_TO,
    url: `${baseUrl}/`,
    license: licenses.length === 1 ? licenses[0] : licenses,
    sdLicense: CC_BY_4,
    creator: quire,
    publisher: quire,
    datePublished: published,
    dateModified: modified,
    version: DATASET_VERSION,
    isLiveDataset: true,
    inLanguage: facets.languages.length > 0 ? facets.languages : ["en"],
    isAccessibleForFree: true,
    keywords: [
      "AI-generated text",
      "machine-authored research papers",
      "large language models",
      "scientific documents",
      "retrieval grounding",
      "Croissant",
    ],
    citeAs:
      "@misc{quire_corpus, title = {Quire: AI-authored research papers}, author = {{Quire}}, " +
      `howpublished = {\\url{${baseUrl}/api/v1/dataset/croissant}}, year = {${modified.slice(0, 4)}}, ` +
      `note = {Live dataset; snapshot of ${modified}, papers.jsonl sha256 ${snapshot.papersSha256}}}`,
    ...raiProperties(snapshot, screeners),
    distribution: (["papers", "chunks"] as const).map((kind) =>
      fileObject(baseUrl, snapshot, kind),
    ),
    recordSet: [papersRecordSet(), chunksRecordSet()],
  };
}

const CC_BY_4 = "https://creativecommons.org/licenses/by/4.0/";

/** SPDX identifiers become SPDX license URLs, as the spec recommends; anything else stays. */
function licenseUrl(license: string): string {
  if (/^https?:\/\//.test(license)) return license;
  return /^[A-Za-z0-9][A-Za-z0-9.+-]*$/.test(license)
    ? `https://spdx.org/licenses/${license}.html`
    : license;
}

const FILE_DESCRIPTIONS: Record<ExportKind, string> = {
  papers:
    "One JSON object per line for every visible paper's current version, ordered by id. Served " +
    "as application/x-ndjson with ETag and Repr-Digest carrying this sha256; send " +
    'If-Match: "<sha256>" to be told (412) if the corpus moved since this document.',
  chunks:
    "One JSON object per line for every verbatim span of the current versions, ordered by paper " +
    "id and chunk index. Per paper and field (title, abstract, body), the contents concatenate " +
    "to the field's text; caption spans follow the body's, each the span start..end of the body.",
};

function fileObject(baseUrl: string, snapshot: DatasetSnapshot, kind: ExportKind) {
  const digest = snapshotDigest(snapshot, kind);
  return {
    "@type": "cr:FileObject",
    "@id": EXPORT_FILE_NAMES[kind],
    name: EXPORT_FILE_NAMES[kind],
    description: FILE_DESCRIPTIONS[kind],
    contentUrl: exportUrl(baseUrl, kind),
    encodingFormat: JSONL_ENCODING_FORMAT,
    contentSize: `${digest.bytes} B`,
    sha256: digest.sha256,
  };
}

interface FieldSpec {
  name: string;
  description: string;
  dataType: string;
  column: string;
  /** A member of an object column, e.g. `status` of `verification`. */
  member?: string;
  repeated?: boolean;
  references?: string;
}

function field(recordSet: string, fileId: string, spec: FieldSpec) {
  return {
    "@type": "cr:Field",
    "@id": `${recordSet}/${spec.name}`,
    name: spec.name,
    description: spec.description,
    dataType: spec.dataType,
    ...(spec.repeated ? { repeated: true } : {}),
    ...(spec.references ? { references: { field: { "@id": spec.references } } } : {}),
    source: {
      fileObject: { "@id": fileId },
      extract: { column: spec.column },
      ...(spec.member ? { transform: { jsonPath: spec.member } } : {}),
    },
  };
}

const PAPER_FIELDS: FieldSpec[] = [
  { name: "id", dataType: "sc:Text", column: "id", description: "Paper id, YYMM.NNNNN." },
  {
    name: "version",
    dataType: "sc:Integer",
    column: "version",
    description: "The current version number (versions are immutable; older ones stay in the API).",
  },
  { name: "title", dataType: "sc:Text", column: "title", description: "Title." },
  { name: "abstract", dataType: "sc:Text", column: "abstract", description: "Abstract." },
  { name: "body", dataType: "sc:Text", column: "body", description: "Full text, Markdown." },
  {
    name: "ai_model",
    dataType: "sc:Text",
    column: "ai_model",
    description: "The AI model that wrote the paper.",
  },
  {
    name: "ai_label",
    dataType: "sc:Text",
    column: "ai_label",
    description: `Always "${AI_LABEL}": marks AI authorship.`,
  },
  {
    name: "license",
    dataType: "sc:Text",
    column: "license",
    description: "The paper's license, an SPDX identifier.",
  },
  {
    name: "keywords",
    dataType: "sc:Text",
    column: "keywords",
    repeated: true,
    description: "Keywords given at submission.",
  },
  {
    name: "language",
    dataType: "sc:Text",
    column: "language",
    description: "ISO 639-1 code detected by the screener, or und.",
  },
  {
    name: "published_at",
    dataType: "sc:Date",
    column: "published_at",
    description: "First publication, ISO 8601 date-time in UTC.",
  },
  {
    name: "updated_at",
    dataType: "sc:Date",
    column: "updated_at",
    description: "Last change of the paper (e.g. a new version), ISO 8601 date-time in UTC.",
  },
  {
    name: "owner_handle",
    dataType: "sc:Text",
    column: "owner_handle",
    description:
      "Public handle of the human who submitted the paper for the model; null for imports.",
  },
  { name: "url", dataType: "sc:URL", column: "url", description: "The paper in the Quire API." },
  {
    name: "verification_status",
    dataType: "sc:Text",
    column: "verification",
    member: "status",
    description: "Outcome of automated pre-screening: passed or warnings.",
  },
  {
    name: "screened_at",
    dataType: "sc:Date",
    column: "verification",
    member: "screened_at",
    description: "When the current version was screened, ISO 8601 date-time in UTC.",
  },
  {
    name: "screened_by",
    dataType: "sc:Text",
    column: "verification",
    member: "screened_by",
    description: "The screener(s) and their versions.",
  },
];

const CHUNK_FIELDS: FieldSpec[] = [
  {
    name: "paper_id",
    dataType: "sc:Text",
    column: "paper_id",
    references: "papers/id",
    description: "The paper the span belongs to.",
  },
  { name: "version", dataType: "sc:Integer", column: "version", description: "Its version." },
  {
    name: "chunk_index",
    dataType: "sc:Integer",
    column: "chunk_index",
    description: "Order position within the paper, from 0.",
  },
  {
    name: "field",
    dataType: "sc:Text",
    column: "field",
    description:
      "The part of the paper: title, abstract or body (spans partitioning that field), or " +
      "caption (a figure's or a table's caption, a span of the body).",
  },
  {
    name: "section",
    dataType: "sc:Text",
    column: "section",
    description: "Body and caption spans: the Markdown heading path, or null.",
  },
  {
    name: "start",
    dataType: "sc:Integer",
    column: "start",
    description:
      "Start offset in the field's text (for a caption, in the body), in Unicode code points.",
  },
  {
    name: "end",
    dataType: "sc:Integer",
    column: "end",
    description: "End offset (exclusive), in Unicode code points.",
  },
  {
    name: "content",
    dataType: "sc:Text",
    column: "content",
    description: "The verbatim span; quote it, don't paraphrase.",
  },
];

/** The members of each entry of a paper's `files` column (the API's VersionFile). */
const FILE_MEMBERS: { name: string; dataType: string; description: string }[] = [
  {
    name: "name",
    dataType: "sc:Text",
    description: "The path the paper gives the file (its Markdown names figures by it).",
  },
  {
    name: "role",
    dataType: "sc:Text",
    description: "figure (shown in the text), supplementary (data, code) or source (LaTeX).",
  },
  {
    name: "media_type",
    dataType: "sc:Text",
    description: "The file's encodingFormat: its IANA media type.",
  },
  { name: "size", dataType: "sc:Integer", description: "The file's contentSize, in bytes." },
  {
    name: "sha256",
    dataType: "sc:Text",
    description: "SHA-256 of the content, hex; the bytes at url hash to it.",
  },
  {
    name: "url",
    dataType: "sc:URL",
    description: "The content's immutable URL (served while the paper is visible).",
  },
];

/**
 * The papers' `files` column as a repeated field whose entries have one sub-field per member.
 * The files themselves are not FileObjects of this document: it would grow with the corpus
 * (it inlines no records), and each entry carries what a FileObject would (URL, size, type,
 * sha256).
 */
function filesField() {
  const fileObject = { "@id": EXPORT_FILE_NAMES.papers };
  return {
    "@type": "cr:Field",
    "@id": "papers/files",
    name: "files",
    description:
      "The version's figures, supplementary files and LaTeX source, each at an immutable URL " +
      "with its size, media type and sha256; empty for a paper that is only Markdown.",
    repeated: true,
    source: { fileObject, extract: { column: "files" } },
    subField: FILE_MEMBERS.map((member) => ({
      "@type": "cr:Field",
      "@id": `papers/files/${member.name}`,
      name: member.name,
      description: member.description,
      dataType: member.dataType,
      source: { fileObject, extract: { column: "files" }, transform: { jsonPath: member.name } },
    })),
  };
}

function papersRecordSet() {
  return {
    "@type": "cr:RecordSet",
    "@id": "papers",
    name: "papers",
    description: "One record per visible paper, its current version.",
    key: { "@id": "papers/id" },
    field: [
      ...PAPER_FIELDS.map((spec) => field("papers", EXPORT_FILE_NAMES.papers, spec)),
      filesField(),
    ],
  };
}

function chunksRecordSet() {
  return {
    "@type": "cr:RecordSet",
    "@id": "chunks",
    name: "chunks",
    description:
      "Verbatim spans partitioning each paper's title, abstract and body losslessly, then its " +
      "figure and table captions (spans of the body), joined to papers by paper_id.",
    key: [{ "@id": "chunks/paper_id" }, { "@id": "chunks/chunk_index" }],
    field: CHUNK_FIELDS.map((spec) => field("chunks", EXPORT_FILE_NAMES.chunks, spec)),
  };
}

/** Responsible-AI metadata (Croissant RAI 1.0 vocabulary), written for this corpus. */
function raiProperties(snapshot: DatasetSnapshot, screeners: string) {
  const { facets } = snapshot;
  return {
    "rai:dataCollection":
      "Papers are written by AI models and submitted on the site by verified human owners on " +
      "behalf of the model that wrote them (title, abstract, Markdown body, the model's name, " +
      "license, keywords); operators may also bulk-import records. Each submission is screened " +
      "automatically and published when screening passes. New versions are new immutable rows; " +
      "this dataset holds each visible paper's current version. Withdrawn, removed, rejected or " +
      `unscreened papers are excluded. At this snapshot: ${snapshot.paperCount} papers, ` +
      `${snapshot.chunkCount} spans, AI models named ${facets.aiModels} distinct ways.`,
    "rai:dataCollectionType": [
      "AI-generated (machine-authored) text",
      "User submissions through a web form",
      "Operator bulk import",
    ],
    "rai:dataCollectionRawData":
      "The submissions as entered; only surrounding whitespace of titles, abstracts and " +
      "keywords is trimmed. Nothing is paraphrased or corrected.",
    "rai:dataPreprocessingProtocol": [
      "Each field (title, abstract, body) is split into verbatim spans at paragraph or sentence " +
        "boundaries under a configured maximum length; spans of a field concatenate to exactly " +
        "the field's text, and offsets are Unicode code points.",
      "Figure captions (an image's alt text) and table captions (a Table: paragraph before a " +
        "table) are also listed as caption spans, each the exact span of the body it comes from.",
      "Figures are re-encoded raster images (metadata dropped, at most 2,400 px wide) or SVGs " +
        "kept as submitted; supplementary files and LaTeX sources are kept as submitted.",
      "The language is detected from the text by the screener (ISO 639-1, or und).",
    ],
    "rai:dataAnnotationProtocol":
      "The only annotations are automatic: the screening outcome (passed or warnings) with the " +
      "screener name and time, and the detected language. No human labels the records.",
    "rai:machineAnnotationTools": [
      `Screeners that annotated the current versions: ${screeners}.`,
      "quire-rules: the built-in rule screener (length, structure, language, exact and " +
        "near-duplicate text by SHA-256 and SimHash, prompt-injection and secret patterns).",
      "Optionally an LLM screener over an OpenAI-compatible chat endpoint, when the archive " +
        "operator configures one; its name then appears in screened_by.",
    ],
    "rai:dataBiases": [
      "The texts are produced by AI models and inherit their biases: topics, framing, citation " +
        "habits and English-centric writing of their training data.",
      "Which papers exist depends on which humans chose to submit them and which models they " +
        "used; a few popular models may dominate.",
      "Automated screening filters by rules (length, language, duplicates, patterns), which can " +
        "systematically exclude some kinds of texts.",
    ],
    "rai:dataLimitations": [
      "AI-written papers can contain fabricated results, citations or data; claims are not " +
        "verified. Screening is automated pre-screening, not peer review.",
      "Community reviews and comments are not part of this dataset; AI review scores are " +
        "advisory only.",
      "Live dataset: records change as papers are published, versioned or withdrawn. The sha256 " +
        "values describe the snapshot dated in dateModified; pin them for reproducibility.",
    ],
    "rai:personalSensitiveInformation": [
      "owner_handle is the public, self-chosen handle of the human who submitted a paper; no " +
        "emails or other account data are exported.",
      "Submissions are screened for secrets (API keys, tokens) and rejected if found, but papers " +
        "may still mention real people or organisations.",
    ],
    "rai:dataUseCases": [
      "Studying AI-authored scientific writing: style, structure, claims and failure modes.",
      "Retrieval and grounding: citing verbatim spans with paper id, version and offsets.",
      "Training or evaluating detectors and classifiers of machine-generated text, since every " +
        "record is AI-written by construction.",
      "Not suitable as a source of verified scientific facts.",
    ],
    "rai:dataSocialImpact":
      "Publishing machine-written papers openly and labeled as such makes AI authorship " +
      "visible and studyable, and keeps it apart from human scholarship. Risks: the texts could " +
      "be mistaken for peer-reviewed work or reused without their AI label; every record keeps " +
      `ai_model and ai_label ("${AI_LABEL}") to counter this.`,
    "rai:dataReleaseMaintenancePlan": [
      "Served live by the archive: this document and both exports always describe the current " +
        "corpus. A snapshot (sha256 and size of each export) is recomputed whenever the set of " +
        "visible papers, their current versions or owners change.",
      "Versions are immutable and keep their ids; withdrawn or removed papers leave the exports " +
        "at the next snapshot. The dataset version changes only when the export structure does.",
    ],
  };
}
