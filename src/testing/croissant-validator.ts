/** @module Test-only: a Croissant (0.8 to 1.1) validator after the reference mlcroissant. */
import jsonld from "jsonld";

/**
 * Every problem found, not just the first. `errors` are what the reference validator
 * (mlcroissant) rejects or the spec makes mandatory in a way the published examples respect;
 * `warnings` are recommendations, and spec "required" properties that real, valid datasets
 * (the published examples included) omit and the reference only warns about.
 */
export interface CroissantValidation {
  errors: string[];
  warnings: string[];
}

const SC = "https://schema.org/";
const CR = "http://mlcommons.org/croissant/";
const RAI = `${CR}RAI/`;
const DCT = "http://purl.org/dc/terms/";

const KNOWN_VERSIONS = ["0.8", "1.0", "1.1"];

/** Atomic data types a loader can materialise (schema.org, and Croissant's numeric types). */
const ATOMIC_DATA_TYPES = new Set([
  ...[
    "Boolean",
    "Date",
    "DateTime",
    "Time",
    "Number",
    "Float",
    "Integer",
    "Text",
    "URL",
    "ImageObject",
    "AudioObject",
    "VideoObject",
  ].map((t) => SC + t),
  ...[
    "BoundingBox",
    "SegmentationMask",
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "UInt8",
    "UInt16",
    "UInt32",
    "UInt64",
    "Float16",
    "Float32",
    "Float64",
  ].map((t) => CR + t),
]);

const FILE_PROPERTIES = new Set([
  "content",
  "filename",
  "fullpath",
  "filepath",
  "lines",
  "lineNumbers",
]);
const TRANSFORM_KEYS = [
  "format",
  "jsonPath",
  "regex",
  "replace",
  "separator",
  "readLines",
  "unArchive",
];

/** The RAI 1.0 property table, plus the short names its overview table uses. */
const RAI_PROPERTIES = new Set([
  "dataCollection",
  "dataCollectionType",
  "dataCollectionMissingData",
  "dataCollectionRawData",
  "dataCollectionTimeframe",
  "dataImputationProtocol",
  "dataManipulationProtocol",
  "dataPreprocessingProtocol",
  "dataAnnotationProtocol",
  "dataAnnotationPlatform",
  "dataAnnotationAnalysis",
  "dataReleaseMaintenancePlan",
  "personalSensitiveInformation",
  "dataSocialImpact",
  "dataBiases",
  "dataLimitations",
  "dataUseCases",
  "annotationsPerItem",
  "annotatorDemographics",
  "machineAnnotationTools",
  "useCases",
  "annotationPlatform",
  "dataReleaseMaintenance",
]);

/** Schema.org Text properties whose values are checked before expansion. */
const TEXT_PROPERTIES = new Set(["name", "description", "alternateName"]);
/** Terms whose values are JSON literals (`@type: @json`): never walked as JSON-LD. */
const JSON_LITERAL_TERMS = new Set(["data", "examples"]);

type Obj = Record<string, unknown>;
type Kind = "FileObject" | "FileSet" | "RecordSet" | "Field" | "Unknown";

interface Entry {
  kind: Kind;
  node: Obj;
  /** What messages call the node: its @id, else its name. */
  id: string;
  /** Where messages say the node is: `Metadata(x) > RecordSet(y) > Field(z)`. */
  path: string[];
  /** The record set a field belongs to; itself for a record set. */
  recordSetId?: string;
}

/**
 * Validates a Croissant JSON-LD document without touching the network: the document is
 * expanded with `jsonld` and a document loader that refuses every URL, so a remote
 * `@context` is reported instead of fetched (a validator must not be a fetch proxy, and
 * results must not depend on a third-party host). Checks follow the Croissant spec and the
 * reference validator's rules; see the module's tests for the golden failure cases.
 */
export async function validateCroissant(doc: unknown): Promise<CroissantValidation> {
  const report = new Report();
  if (!isObj(doc)) {
    report.error([], "The document must be a JSON object.");
    return report.result();
  }
  const context = checkContext(doc, report);
  if (!context) return report.result();
  const cleaned = checkTextValues(doc, context, report);
  let expanded: unknown[];
  try {
    expanded = (await jsonld.expand(cleaned as never, {
      documentLoader: refuseRemote as never,
    })) as unknown[];
  } catch (error) {
    report.error([], `The JSON-LD cannot be expanded: ${errorMessage(error)}`);
    return report.result();
  }
  const nodes = expanded.map((n) => normalizeSchemaOrg(n)).filter(isObj);
  const root = nodes.find((n) => types(n).includes(`${SC}Dataset`));
  if (!root) {
    report.error([], `The current JSON-LD doesn't extend ${SC}Dataset.`);
    return report.result();
  }
  new DatasetChecker(root, report).run();
  return report.result();
}

async function refuseRemote(url: string): Promise<never> {
  throw new Error(`remote documents are not loaded (${url}); inline the @context`);
}

class Report {
  private readonly errors: string[] = [];
  private readonly warnings: string[] = [];
  error(path: string[], message: string): void {
    this.errors.push(prefix(path) + message);
  }
  warn(path: string[], message: string): void {
    this.warnings.push(prefix(path) + message);
  }
  result(): CroissantValidation {
    return { errors: [...new Set(this.errors)], warnings: [...new Set(this.warnings)] };
  }
}

function prefix(path: string[]): string {
  return path.length > 0 ? `[${path.join(" > ")}] ` : "";
}

// ---------------------------------------------------------------------------------------
// Before expansion: the @context, and Text values (which expansion would reject or hide).

interface ContextInfo {
  languageMaps: Set<string>;
}

function checkContext(doc: Obj, report: Report): ContextInfo | null {
  const raw = doc["@context"];
  if (raw === undefined) {
    report.error(
      [],
      "The document has no @context; Croissant needs the context of the spec's Appendix 1.",
    );
    return null;
  }
  const parts = Array.isArray(raw) ? raw : [raw];
  const remote = parts.filter((p) => typeof p === "string");
  if (remote.length > 0) {
    report.error(
      [],
      `The @context refers to remote contexts (${remote.join(", ")}), which are not fetched; inline the Croissant context.`,
    );
    return null;
  }
  const merged: Obj = {};
  for (const part of parts) {
    if (!isObj(part)) {
      report.error([], "The @context must be an object (or a list of objects).");
      return null;
    }
    Object.assign(merged, part);
  }
  const vocab = merged["@vocab"];
  if (vocab !== `${SC}` && vocab !== "http://schema.org/") {
    report.warn(
      [],
      `The @context should set "@vocab" to https://schema.org/; got ${JSON.stringify(vocab)}.`,
    );
  }
  if (merged.cr === undefined) {
    report.error([], `The @context does not define the "cr" prefix (${CR}).`);
  } else if (merged.cr !== CR) {
    report.error([], `The "cr" prefix must be ${CR}; got ${JSON.stringify(merged.cr)}.`);
  }
  for (const prefixName of ["sc", "dct"] as const) {
    const expected = prefixName === "sc" ? [SC, "http://schema.org/"] : [DCT];
    const value = merged[prefixName];
    if (value !== undefined && !expected.includes(value as string)) {
      report.error(
        [],
        `The "${prefixName}" prefix must be ${expected[0]}; got ${JSON.stringify(value)}.`,
      );
    }
  }
  if (merged.rai !== undefined && merged.rai !== RAI) {
    report.error([], `The "rai" prefix must be ${RAI}; got ${JSON.stringify(merged.rai)}.`);
  }
  if (merged.rai === undefined && Object.keys(doc).some((k) => k.startsWith("rai:"))) {
    report.error(
      [],
      `The document uses rai: properties but the @context does not define the "rai" prefix (${RAI}).`,
    );
  }
  const dataType = merged.dataType;
  if (!isObj(dataType) || dataType["@type"] !== "@vocab") {
    report.warn(
      [],
      'The @context should define "dataType" as {"@id": "cr:dataType", "@type": "@vocab"}.',
    );
  }
  for (const term of JSON_LITERAL_TERMS) {
    const definition = merged[term];
    if (definition !== undefined && (!isObj(definition) || definition["@type"] !== "@json")) {
      report.warn([], `The @context should define "${term}" with "@type": "@json".`);
    }
  }
  const languageMaps = new Set<string>();
  for (const [term, definition] of Object.entries(merged)) {
    if (isObj(definition) && definition["@container"] === "@language") languageMaps.add(term);
  }
  return { languageMaps };
}

/**
 * name/description must be Text: a string, a value object with a string, or (when the
 * context makes the term a language map) a map of language to string. Offending values are
 * reported and dropped from the copy that is expanded, so one fault is reported once.
 */
function checkTextValues(doc: Obj, context: ContextInfo, report: Report): Obj {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!isObj(value)) return value;
    const out: Obj = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === "@context" || JSON_LITERAL_TERMS.has(key)) {
        out[key] = child;
      } else if (TEXT_PROPERTIES.has(key)) {
        const kept = textValues(key, child, context.languageMaps.has(key), report);
        if (kept !== undefined) out[key] = kept;
      } else {
        out[key] = walk(child);
      }
    }
    return out;
  };
  return walk(doc) as Obj;
}

function textValues(key: string, value: unknown, languageMap: boolean, report: Report): unknown {
  const bad = (v: unknown) =>
    report.error([], `\`${key}\` should have type ${SC}Text, but got ${jsonTypeName(v)}`);
  const one = (v: unknown): unknown => {
    if (typeof v === "string" || v === null) return v;
    if (isObj(v) && "@value" in v) {
      if (typeof v["@value"] === "string") return v;
      bad(v["@value"]);
      return undefined;
    }
    if (isObj(v) && languageMap && !("@id" in v) && !("@type" in v)) {
      const kept: Obj = {};
      for (const [language, text] of Object.entries(v)) {
        const texts = Array.isArray(text) ? text : [text];
        const good = texts.filter((t) => {
          if (typeof t === "string" || t === null) return true;
          bad(t);
          return false;
        });
        if (good.length > 0) kept[language] = Array.isArray(text) ? good : good[0];
      }
      return kept;
    }
    bad(v);
    return undefined;
  };
  if (Array.isArray(value)) {
    const kept = value.map(one).filter((v) => v !== undefined);
    return kept.length > 0 ? kept : undefined;
  }
  return one(value);
}

function jsonTypeName(v: unknown): string {
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return "list";
  if (v === null) return "null";
  return typeof v === "object" ? "object" : typeof v;
}

// ---------------------------------------------------------------------------------------
// After expansion: full IRIs everywhere, every property an array.

/** Both schema.org schemes are in use (the spec's appendix vs. its examples); use https. */
function normalizeSchemaOrg(value: unknown): unknown {
  const fix = (s: string) => (s.startsWith("http://schema.org/") ? SC + s.slice(18) : s);
  if (Array.isArray(value)) return value.map(normalizeSchemaOrg);
  if (!isObj(value)) return value;
  if (value["@type"] === "@json") return value;
  const out: Obj = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "@type") {
      out[key] = Array.isArray(child)
        ? child.map((t) => (typeof t === "string" ? fix(t) : t))
        : child;
    } else if (key === "@id" && typeof child === "string") {
      out[key] = fix(child);
    } else if (key === "@value") {
      out[key] = child;
    } else {
      out[fix(key)] = normalizeSchemaOrg(child);
    }
  }
  return out;
}

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function all(node: Obj, ...iris: string[]): unknown[] {
  return iris.flatMap((iri) => {
    const v = node[iri];
    return v === undefined ? [] : Array.isArray(v) ? v : [v];
  });
}

function has(node: Obj, ...iris: string[]): boolean {
  return all(node, ...iris).length > 0;
}

function types(node: Obj): string[] {
  const t = node["@type"];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : [];
}

function literal(v: unknown): unknown {
  return isObj(v) && "@value" in v ? v["@value"] : undefined;
}

function strings(node: Obj, ...iris: string[]): string[] {
  return all(node, ...iris)
    .map((v) => literal(v) ?? (isObj(v) && typeof v["@id"] === "string" ? v["@id"] : undefined))
    .filter((s): s is string => typeof s === "string");
}

function refId(v: unknown): string | undefined {
  return isObj(v) && typeof v["@id"] === "string" ? v["@id"] : undefined;
}

function shortIri(iri: string): string {
  if (iri.startsWith(SC)) return `sc:${iri.slice(SC.length)}`;
  if (iri.startsWith(RAI)) return `rai:${iri.slice(RAI.length)}`;
  if (iri.startsWith(CR)) return `cr:${iri.slice(CR.length)}`;
  return iri;
}

/** The reference drops @ids with whitespace (rdflib cannot make IRIs of them); so do we. */
function validId(id: string): boolean {
  return !/\s|%20/i.test(id);
}

function isAbsoluteUrl(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(s) && URL.canParse(s);
}

function isIsoDate(s: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) &&
    !Number.isNaN(Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s))
  );
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    const details = (error as Error & { details?: { code?: string } }).details;
    return details?.code ? `${error.message} (${details.code})` : error.message;
  }
  return String(error);
}

class DatasetChecker {
  private readonly registry = new Map<string, Entry>();
  private readonly entries = new Map<Obj, Entry>();
  private readonly byName = new Map<string, Entry>();
  private readonly datasetPath: string[];
  private version = "1.0";

  constructor(
    private readonly root: Obj,
    private readonly report: Report,
  ) {
    this.datasetPath = [`Metadata(${strings(root, `${SC}name`)[0] ?? "<unnamed>"})`];
  }

  run(): void {
    this.checkConformsTo();
    this.register();
    this.checkDataset();
    this.checkRai();
    for (const item of all(this.root, `${SC}distribution`)) this.checkDistribution(item);
    for (const item of all(this.root, `${CR}recordSet`)) this.checkRecordSet(item);
  }

  private error(path: string[], message: string) {
    this.report.error(path, message);
  }

  private warn(path: string[], message: string) {
    this.report.warn(path, message);
  }

  // --- identifiers and references -------------------------------------------------------

  private register(): void {
    const add = (node: Obj, kind: Kind, parent: string[], recordSetId?: string): Entry => {
      const id = refId(node);
      const name = strings(node, `${SC}name`)[0];
      const display = id ?? name ?? "<no @id>";
      const path = [...parent, `${kind === "Unknown" ? "Node" : kind}(${name ?? display})`];
      const entry: Entry = { kind, node, id: display, path };
      if (recordSetId !== undefined) entry.recordSetId = recordSetId;
      this.entries.set(node, entry);
      if (id === undefined) {
        const message = "Property @id is mandatory, but does not exist.";
        if (this.version === "1.1") this.error(path, message);
        else if (kind !== "Unknown")
          this.warn(path, `${message} (Croissant 1.0 falls back on the name.)`);
      } else {
        if (!validId(id)) {
          this.error(
            [],
            `The dataset contains a wrong \`@id\`: '${id}'. Note that currently we do not support \`@id\`s containing whitespaces (not even if URL-escaped).`,
          );
        }
        const existing = this.registry.get(id);
        if (existing) {
          this.error(
            path,
            `The @id "${id}" is also used by ${existing.path.join(" > ")}; @ids must be unique.`,
          );
        } else {
          this.registry.set(id, entry);
        }
      }
      if (name !== undefined && !this.byName.has(name)) this.byName.set(name, entry);
      return entry;
    };
    for (const item of all(this.root, `${SC}distribution`)) {
      if (!isObj(item)) continue;
      const t = types(item);
      const kind = t.includes(`${CR}FileObject`)
        ? "FileObject"
        : t.includes(`${CR}FileSet`)
          ? "FileSet"
          : "Unknown";
      add(item, kind, this.datasetPath);
    }
    const addFields = (owner: Obj, parent: string[], recordSetId: string | undefined) => {
      for (const f of all(owner, `${CR}field`, `${CR}subField`, `${CR}annotation`)) {
        if (!isObj(f)) continue;
        const entry = add(
          f,
          types(f).includes(`${CR}Field`) ? "Field" : "Unknown",
          parent,
          recordSetId,
        );
        addFields(f, entry.path, recordSetId);
      }
    };
    for (const rs of all(this.root, `${CR}recordSet`)) {
      if (!isObj(rs)) continue;
      const kind = types(rs).includes(`${CR}RecordSet`) ? "RecordSet" : "Unknown";
      const rsId = refId(rs) ?? strings(rs, `${SC}name`)[0];
      const entry = add(rs, kind, this.datasetPath, rsId);
      addFields(rs, entry.path, rsId);
    }
  }

  /** The registered entry of a node (every Croissant node is registered before checks). */
  private entryOf(node: Obj): Entry {
    const entry = this.entries.get(node);
    if (!entry) throw new Error("unregistered node");
    return entry;
  }

  /** Resolves a reference by @id, then (for Croissant 1.0 documents without @ids) by name. */
  private resolve(id: string): Entry | undefined {
    return this.registry.get(id) ?? this.byName.get(id);
  }

  private checkConformsTo(): void {
    const values = strings(this.root, `${DCT}conformsTo`);
    if (values.length === 0) {
      this.error(this.datasetPath, `Property "${DCT}conformsTo" is mandatory, but does not exist.`);
      return;
    }
    for (const value of values) {
      const match = /^https?:\/\/mlcommons\.org\/croissant\/(\d+\.\d+)\/?$/.exec(value);
      if (!match) {
        this.error(
          this.datasetPath,
          `conformsTo must be a Croissant specification URL such as ${CR}1.0; got "${value}".`,
        );
        continue;
      }
      const version = match[1] ?? "";
      this.version = version;
      if (!KNOWN_VERSIONS.includes(version)) {
        this.warn(
          this.datasetPath,
          `conformsTo names Croissant ${version}, which this validator does not know.`,
        );
      }
    }
  }

  // --- the dataset ----------------------------------------------------------------------

  private checkDataset(): void {
    const root = this.root;
    const path = this.datasetPath;
    for (const property of ["name", "description", "url"]) {
      if (!has(root, SC + property)) {
        this.error(path, `Property "${SC}${property}" is mandatory, but does not exist.`);
      }
    }
    for (const url of strings(root, `${SC}url`)) {
      if (!isAbsoluteUrl(url)) this.error(path, `url must be an absolute URL; got "${url}".`);
    }
    for (const property of ["license", "creator", "datePublished"]) {
      if (!has(root, SC + property)) {
        this.warn(path, `Property "${SC}${property}" is required by the spec, but does not exist.`);
      }
    }
    for (const property of [`${CR}citeAs`, `${SC}version`, `${SC}keywords`]) {
      if (!has(root, property)) {
        this.warn(path, `Property "${property}" is recommended, but does not exist.`);
      }
    }
    for (const property of ["datePublished", "dateModified", "dateCreated"]) {
      for (const value of all(root, SC + property)) {
        const date = literal(value);
        if (typeof date !== "string" || !isIsoDate(date)) {
          this.error(
            path,
            `${property} must be an ISO 8601 date or date-time; got ${JSON.stringify(date ?? value)}.`,
          );
        }
      }
    }
    for (const value of all(root, `${SC}version`)) {
      const version = literal(value);
      if (typeof version === "number") continue;
      if (typeof version !== "string") {
        this.error(
          path,
          `The version should be a string or a number. Got: ${JSON.stringify(value)}.`,
        );
      } else if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(version)) {
        this.warn(path, `Version doesn't follow MAJOR.MINOR.PATCH: ${version}.`);
      }
    }
    for (const value of all(root, `${SC}license`)) {
      const text = literal(value);
      if (typeof text === "string") {
        if (!isAbsoluteUrl(text) && !/^[A-Za-z0-9][A-Za-z0-9.+-]*$/.test(text)) {
          this.warn(
            path,
            `license should be the URL of a license or an SPDX identifier; got "${text}".`,
          );
        }
      } else if (isObj(value) && (refId(value) !== undefined || types(value).length > 0)) {
        const t = types(value);
        if (t.length > 0 && !t.includes(`${SC}CreativeWork`)) {
          this.warn(path, `A license node should be a ${SC}CreativeWork; got ${t.join(", ")}.`);
        }
      } else {
        this.error(
          path,
          `Malformed license: ${JSON.stringify(text ?? value)}; give a URL, an SPDX identifier or a CreativeWork.`,
        );
      }
    }
    for (const value of all(root, `${SC}creator`, `${SC}publisher`)) {
      if (!isObj(value) || literal(value) !== undefined) {
        this.warn(
          path,
          `creator/publisher should be a ${SC}Person or ${SC}Organization; got ${JSON.stringify(literal(value) ?? value)}.`,
        );
        continue;
      }
      const t = types(value);
      if (refId(value) !== undefined && t.length === 0) continue;
      if (!t.includes(`${SC}Person`) && !t.includes(`${SC}Organization`)) {
        this.error(
          path,
          `creator/publisher must be a ${SC}Person or ${SC}Organization; got ${t.join(", ") || "no @type"}.`,
        );
      } else if (!has(value, `${SC}name`)) {
        this.warn(path, "A creator/publisher should have a name.");
      }
    }
    for (const value of all(root, `${CR}isLiveDataset`)) {
      if (typeof literal(value) !== "boolean") {
        this.error(
          path,
          `isLiveDataset must be a boolean; got ${JSON.stringify(literal(value) ?? value)}.`,
        );
      }
    }
    for (const value of all(root, `${CR}citeAs`)) {
      if (typeof literal(value) !== "string") this.error(path, "citeAs must be text.");
    }
    if (!has(root, `${SC}distribution`)) {
      this.warn(path, "The dataset declares no distribution (FileObject or FileSet).");
    }
  }

  private checkRai(): void {
    for (const [key, values] of Object.entries(this.root)) {
      if (!key.startsWith(RAI)) continue;
      const name = key.slice(RAI.length);
      if (!RAI_PROPERTIES.has(name)) {
        this.warn(this.datasetPath, `Unknown Responsible-AI property rai:${name}.`);
        continue;
      }
      for (const value of Array.isArray(values) ? values : [values]) {
        const v = literal(value);
        if (name === "dataCollectionTimeframe") {
          if (typeof v !== "string" || !isIsoDate(v)) {
            this.error(
              this.datasetPath,
              `rai:${name} must be ISO 8601 date-times; got ${JSON.stringify(v ?? value)}.`,
            );
          }
        } else if (
          typeof v !== "string" &&
          !(name === "annotationsPerItem" && typeof v === "number")
        ) {
          this.warn(
            this.datasetPath,
            `rai:${name} should be text; got ${JSON.stringify(v ?? value)}.`,
          );
        }
      }
    }
  }

  // --- distribution ---------------------------------------------------------------------

  private checkDistribution(item: unknown): void {
    if (!isObj(item)) {
      this.error(
        this.datasetPath,
        `A distribution must be a FileObject or FileSet node; got ${JSON.stringify(item)}.`,
      );
      return;
    }
    const entry = this.entryOf(item);
    const path = entry.path;
    if (entry.kind === "Unknown") {
      this.error(
        [],
        `"${entry.id}" should have an attribute "@type": "${CR}FileObject" or "@type": "${CR}FileSet". Got ${types(item).join(", ") || "no @type"} instead.`,
      );
      return;
    }
    if (!has(item, `${SC}encodingFormat`)) {
      this.error(path, `Property "${SC}encodingFormat" is mandatory, but does not exist.`);
    }
    for (const format of strings(item, `${SC}encodingFormat`)) {
      if (!/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(format)) {
        this.warn(path, `encodingFormat should be a MIME type; got "${format}".`);
      }
    }
    const containers = all(item, `${CR}containedIn`, `${SC}containedIn`);
    for (const container of containers) this.checkContainer(container, entry, path);
    if (entry.kind === "FileObject") {
      if (containers.length === 0) {
        if (!has(item, `${SC}contentUrl`)) {
          this.error(path, `Property "${SC}contentUrl" is mandatory, but does not exist.`);
        }
        const live = all(this.root, `${CR}isLiveDataset`).some((v) => literal(v) === true);
        const hashes = ["sha256", "md5"].filter((h) => has(item, SC + h, CR + h));
        if (hashes.length === 0 && !live) {
          this.error(
            path,
            `Exactly one of the properties "${SC}sha256" or "${CR}md5" is mandatory, but none exists.`,
          );
        } else if (hashes.length > 1) {
          this.error(
            path,
            `Exactly one of the properties "${SC}sha256" or "${CR}md5" is mandatory, but both exist.`,
          );
        }
      }
      for (const sha of strings(item, `${SC}sha256`, `${CR}sha256`)) {
        if (!/^[0-9a-f]{64}$/i.test(sha))
          this.warn(path, `sha256 should be 64 hex digits; got "${sha}".`);
      }
      for (const md5 of strings(item, `${CR}md5`, `${SC}md5`)) {
        if (!/^[0-9a-f]{32}$/i.test(md5))
          this.warn(path, `md5 should be 32 hex digits; got "${md5}".`);
      }
      for (const size of strings(item, `${SC}contentSize`)) {
        if (!/^\d+(\.\d+)?\s*([KMGTPE]i?)?B?$/i.test(size.trim())) {
          this.warn(
            path,
            `contentSize should be a number of bytes with an optional unit (e.g. "1024 B"); got "${size}".`,
          );
        }
      }
    } else {
      if (!has(item, `${CR}includes`)) {
        this.error(path, `Property "${CR}includes" is mandatory, but does not exist.`);
      }
    }
  }

  /** containedIn is a reference, or (1.1) a DataSource naming a fileObject/fileSet. */
  private checkContainer(container: unknown, entry: Entry, path: string[]): void {
    if (!isObj(container)) {
      this.error(
        path,
        `containedIn must reference a FileObject or FileSet; got ${JSON.stringify(container)}.`,
      );
      return;
    }
    const viaSource = all(container, `${CR}fileObject`, `${CR}fileSet`).map(refId);
    const ids = viaSource.length > 0 ? viaSource : [refId(container)];
    for (const id of ids) {
      if (id === undefined) {
        this.error(path, "containedIn must reference a FileObject or FileSet by @id.");
        continue;
      }
      const target = this.resolve(id);
      if (!target) {
        this.error(
          path,
          `There is a reference to node with UUID "${id}" in node "${entry.id}", but this node doesn't exist.`,
        );
      } else if (target.kind !== "FileObject" && target.kind !== "FileSet") {
        this.error(
          path,
          `containedIn refers to "${id}", which is a ${target.kind}, not a FileObject or FileSet.`,
        );
      } else if (target.node === entry.node) {
        this.error(path, "A file cannot be contained in itself.");
      }
    }
  }

  // --- record sets and fields -----------------------------------------------------------

  private checkRecordSet(item: unknown): void {
    if (!isObj(item)) {
      this.error(
        this.datasetPath,
        `A recordSet must be a RecordSet node; got ${JSON.stringify(item)}.`,
      );
      return;
    }
    const entry = this.entryOf(item);
    if (entry.kind !== "RecordSet") {
      this.error(
        [],
        `"${entry.id}" should have an attribute "@type": "${CR}RecordSet". Got ${types(item).join(", ") || "no @type"} instead.`,
      );
      return;
    }
    const path = entry.path;
    const fields = all(item, `${CR}field`).filter(isObj);
    const annotations = all(item, `${CR}annotation`).filter(isObj);
    const hasData = has(item, `${CR}data`);
    if (fields.length === 0 && !hasData) this.warn(path, "The RecordSet declares no field.");
    for (const f of [...fields, ...annotations]) this.checkField(f, item, hasData, []);
    if (hasData) this.checkData(item, fields, path);
    for (const example of all(item, `${CR}examples`)) {
      if (isObj(example) && example["@type"] === "@json") {
        const records = example["@value"];
        const list = Array.isArray(records) ? records : [records];
        if (!list.every(isObj))
          this.warn(path, "examples should be a list of records (JSON objects).");
      }
    }
    this.checkKeys(item, fields, path);
    this.checkJoins(fields, entry);
  }

  /** Inline records: a JSON list of objects whose keys are exactly the fields' ids (or names). */
  private checkData(recordSet: Obj, fields: Obj[], path: string[]): void {
    const ids = fields.map((f) => refId(f)).filter((s): s is string => s !== undefined);
    const names = fields
      .map((f) => strings(f, `${SC}name`)[0])
      .filter((s): s is string => s !== undefined);
    for (const value of all(recordSet, `${CR}data`)) {
      if (!isObj(value) || value["@type"] !== "@json") {
        this.error(
          path,
          'cr:data must be a JSON literal; declare "data" with "@type": "@json" in the @context.',
        );
        continue;
      }
      const raw = value["@value"];
      const records = Array.isArray(raw) ? raw : [raw];
      if (records.length === 0) this.error(path, "cr:data should declare a non empty list.");
      records.forEach((record, i) => {
        if (!isObj(record)) {
          this.error(
            path,
            `cr:data should declare a list of objects; record #${i} is ${jsonTypeName(record)}.`,
          );
          return;
        }
        const keys = Object.keys(record).sort();
        const same = (expected: string[]) =>
          expected.length === keys.length && [...expected].sort().every((k, j) => k === keys[j]);
        if (!same(ids) && !same(names)) {
          this.error(
            path,
            `Line #${i} doesn't have the expected columns. Expected: ${JSON.stringify(ids.length > 0 ? ids : names)}. Got: ${JSON.stringify(keys)}.`,
          );
        }
      });
    }
  }

  private checkKeys(recordSet: Obj, fields: Obj[], path: string[]): void {
    const fieldIds = new Set(fields.map((f) => refId(f) ?? strings(f, `${SC}name`)[0]));
    for (const key of all(recordSet, `${CR}key`, `${SC}key`)) {
      const id =
        refId(key) ?? (typeof literal(key) === "string" ? (literal(key) as string) : undefined);
      if (id === undefined) {
        this.error(
          path,
          `key must reference a field of the RecordSet; got ${JSON.stringify(key)}.`,
        );
      } else if (!fieldIds.has(id)) {
        this.warn(path, `key "${id}" is not a field of this RecordSet.`);
      }
    }
  }

  /** Like the reference: every pair of sources a record set draws from needs a join. */
  private checkJoins(fields: Obj[], recordSet: Entry): void {
    const path = recordSet.path;
    const sources = new Set<string>();
    const joins = new Set<string>();
    for (const f of fields) {
      const source = this.sourceTarget(all(f, `${CR}source`)[0]);
      const reference = this.sourceTarget(all(f, `${CR}references`)[0]);
      for (const id of [source, reference]) {
        if (id !== undefined && !this.resolve(id)) {
          this.error(
            path,
            `There is a reference to node with UUID "${id}" in node "${recordSet.id}", but this node doesn't exist.`,
          );
        }
      }
      const sourceParent = source && this.parentOf(source);
      const referenceParent = reference && this.parentOf(reference);
      if (sourceParent) sources.add(sourceParent);
      if (sourceParent && referenceParent) {
        joins.add(`${sourceParent}\u0000${referenceParent}`);
        joins.add(`${referenceParent}\u0000${sourceParent}`);
      }
    }
    const list = [...sources].sort();
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        if (!joins.has(`${list[i]}\u0000${list[j]}`)) {
          this.error(
            path,
            `You try to use the sources with names ('${list[i]}', '${list[j]}') as sources, but you didn't declare a join between them. Use \`ml:references\` to declare a join. Please, refer to the documentation for more information.`,
          );
        }
      }
    }
  }

  /** The @id a source/reference points at, whatever its form. */
  private sourceTarget(source: unknown): string | undefined {
    if (!isObj(source)) return undefined;
    const named = all(
      source,
      `${CR}fileObject`,
      `${CR}fileSet`,
      `${CR}field`,
      `${SC}distribution`,
      `${CR}recordSet`,
    );
    const id = named.length > 0 ? refId(named[0]) : refId(source);
    return id !== undefined && validId(id) ? id : undefined;
  }

  /** A file is its own source; a field's source is its record set. */
  private parentOf(id: string): string | undefined {
    const target = this.resolve(id);
    if (!target) return undefined;
    return target.kind === "Field" ? target.recordSetId : id;
  }

  private checkField(field: Obj, recordSet: Obj, inlineData: boolean, parents: Obj[]): void {
    const entry = this.entryOf(field);
    const label = entry.id;
    if (entry.kind !== "Field") {
      this.error(
        [],
        `"${label}" should have an attribute "@type": "${CR}Field". Got ${types(field).join(", ") || "no @type"} instead.`,
      );
      return;
    }
    const path = entry.path;
    const subFields = all(field, `${CR}subField`).filter(isObj);
    for (const sub of subFields) this.checkField(sub, recordSet, inlineData, [...parents, field]);

    const sources = all(field, `${CR}source`);
    const usable = sources.filter((source) => this.sourceTarget(source) !== undefined);
    const values = all(field, `${CR}value`, `${SC}value`);
    const leaf = subFields.length === 0;
    if (leaf && !inlineData) {
      if (usable.length === 0 && values.length === 0 && !has(field, `${CR}parentField`)) {
        this.error(
          path,
          `Field ${label} does not define \`source\` or \`value\`. Please specify exactly one of them.`,
        );
      } else if (usable.length > 0 && values.length > 0) {
        this.error(
          path,
          `Field ${label} defines both \`source\` and \`value\`. Please specify exactly one of them.`,
        );
      }
    }
    if (sources.length > 1) this.error(path, "A field has at most one source.");
    for (const source of sources) this.checkSource(source, path, "source");
    for (const reference of all(field, `${CR}references`))
      this.checkSource(reference, path, "references");
    for (const parent of all(field, `${CR}parentField`)) {
      if (isObj(parent)) {
        for (const s of all(parent, `${CR}source`, `${CR}references`))
          this.checkSource(s, path, "parentField");
      }
    }
    if (leaf) this.checkDataType(field, sources[0], parents, recordSet, path);
    this.checkArray(field, label, path);
    for (const value of all(field, `${CR}repeated`)) {
      if (typeof literal(value) !== "boolean") this.error(path, "repeated must be a boolean.");
    }
  }

  private checkDataType(
    field: Obj,
    source: unknown,
    parents: Obj[],
    recordSet: Obj,
    path: string[],
  ): void {
    const own = all(field, `${CR}dataType`);
    const iris = own.map(refId).filter((s): s is string => s !== undefined);
    if (own.length > iris.length) {
      this.error(
        path,
        `dataType values must be IRIs (e.g. sc:Text); got ${JSON.stringify(own.map(literal).filter(Boolean))}.`,
      );
    }
    const inherited = [...parents, recordSet].flatMap((p) => all(p, `${CR}dataType`).map(refId));
    if (iris.some((t) => ATOMIC_DATA_TYPES.has(t))) return;
    const target = this.sourceTarget(source);
    const fromField = target !== undefined && this.resolve(target)?.kind === "Field";
    if (fromField) return;
    if (iris.length > 0 || inherited.some((t) => t !== undefined && ATOMIC_DATA_TYPES.has(t))) {
      if (iris.length > 0) {
        this.warn(
          path,
          `None of the field's dataTypes (${iris.map(shortIri).join(", ")}) is an atomic type this validator knows.`,
        );
      }
      return;
    }
    if (has(field, `${SC}dataType`)) {
      this.warn(
        path,
        'The field has sc:dataType instead of cr:dataType: map "dataType" to {"@id": "cr:dataType", "@type": "@vocab"} in the @context.',
      );
    }
    this.error(
      path,
      `The field does not specify a valid ${CR}dataType, neither does any of its predecessor. Got: [${iris.map(shortIri).join(", ")}]`,
    );
  }

  private checkArray(field: Obj, label: string, path: string[]): void {
    const isArray = all(field, `${CR}isArray`, `${SC}isArray`).map(literal);
    const shapes = all(field, `${CR}arrayShape`, `${SC}arrayShape`).map(literal);
    for (const value of isArray) {
      if (typeof value !== "boolean")
        this.error(path, `isArray must be a boolean; got ${JSON.stringify(value)}.`);
    }
    if (shapes.length === 0) return;
    if (!isArray.includes(true)) {
      this.error(path, `Field ${label} defines \`array_shape\`, but \`is_array\` is False.`);
    }
    for (const shape of shapes) {
      if (typeof shape !== "string" || !/^\s*-?\d+\s*(,\s*-?\d+\s*)*,?\s*$/.test(shape)) {
        this.error(
          path,
          `Field ${label}'s attribute array_shape \`${String(shape)}\` cannot be parsed as a tuple of comma-separated values.`,
        );
      }
    }
  }

  /** A source (or references) names exactly one node, which must exist and be of a fitting kind. */
  private checkSource(source: unknown, path: string[], property: string): void {
    if (!isObj(source)) {
      this.error(path, `\`${property}\` has wrong type: ${JSON.stringify(source)}.`);
      return;
    }
    const slots: [string, Kind[]][] = [
      [`${CR}fileObject`, ["FileObject"]],
      [`${CR}fileSet`, ["FileSet"]],
      [`${CR}field`, ["Field"]],
      [`${SC}distribution`, ["FileObject", "FileSet"]],
      [`${CR}recordSet`, ["RecordSet"]],
    ];
    const named = slots
      .flatMap(([iri, kinds]) => all(source, iri).map((v) => ({ iri, kinds, id: refId(v) })))
      .filter((n) => n.id === undefined || validId(n.id));
    if (named.length === 0 && refId(source) !== undefined && Object.keys(source).length === 1) {
      named.push({
        iri: "@id",
        kinds: ["FileObject", "FileSet", "Field", "RecordSet"],
        id: refId(source),
      });
    }
    if (named.length === 0) {
      this.error(
        [],
        `${property === "references" ? "A reference" : "Source"} should have one of the following properties ${CR}field or ${CR}fileObject or ${CR}fileSet.`,
      );
    } else if (named.length > 1) {
      this.error(
        path,
        `${property} names more than one node (${named.map((n) => n.id).join(", ")}); give exactly one.`,
      );
    }
    for (const { kinds, id } of named) {
      if (id === undefined) {
        this.error(path, `${property} must reference a node by @id.`);
        continue;
      }
      const target = this.resolve(id);
      if (!target) {
        this.error(
          path,
          `Malformed ${property} data: ${id}. It does not refer to any existing node. Have you used ${CR}field or ${SC}distribution to indicate the source field or the source distribution? If you specified a field, it should contain all the names from the RecordSet separated by \`/\`, e.g.: "record_set_name/field_name"`,
        );
      } else if (!kinds.includes(target.kind)) {
        this.error(
          path,
          `${property} refers to "${id}", which is a ${target.kind === "Unknown" ? "node of an unknown type" : target.kind}, not a ${kinds.join(" or ")}.`,
        );
      }
    }
    const extracts = all(source, `${CR}extract`).filter(isObj);
    for (const extract of extracts) {
      const present = ["column", "jsonPath", "fileProperty"].filter((k) => has(extract, CR + k));
      if (present.length > 1) {
        this.error(
          path,
          `extract should have exactly one of column, jsonPath or fileProperty; got ${present.join(", ")}.`,
        );
      }
      for (const property of strings(extract, `${CR}fileProperty`)) {
        if (!FILE_PROPERTIES.has(property)) {
          this.error(
            path,
            `fileProperty must be one of ${[...FILE_PROPERTIES].join(", ")}; got "${property}".`,
          );
        }
      }
      for (const jsonPath of strings(extract, `${CR}jsonPath`)) this.checkJsonPath(jsonPath, path);
    }
    for (const transform of all(source, `${CR}transform`)) {
      if (!isObj(transform) || !TRANSFORM_KEYS.some((k) => has(transform, CR + k))) {
        this.error(path, `A transform should have at least one of ${TRANSFORM_KEYS.join(", ")}.`);
        continue;
      }
      for (const regex of strings(transform, `${CR}regex`)) {
        try {
          new RegExp(regex.replace(/\(\?P</g, "(?<"), "u");
        } catch {
          this.warn(
            path,
            `The regex ${JSON.stringify(regex)} does not compile as an ECMAScript regular expression.`,
          );
        }
      }
      for (const jsonPath of strings(transform, `${CR}jsonPath`))
        this.checkJsonPath(jsonPath, path);
    }
  }

  private checkJsonPath(jsonPath: string, path: string[]): void {
    let depth = 0;
    for (const ch of jsonPath) {
      if (ch === "[") depth++;
      if (ch === "]") depth--;
      if (depth < 0) break;
    }
    if (jsonPath.trim() === "" || depth !== 0) {
      this.error(
        path,
        `Wrong JSONPath (https://goessner.net/articles/JsonPath/): ${JSON.stringify(jsonPath)}.`,
      );
    }
  }
}
