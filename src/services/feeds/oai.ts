/** @module OAI-PMH 2.0: the six verbs over papers, oai_dc metadata, subject sets, sealed keyset tokens. */

import { publicReadDb, type ServiceContext } from "../context.ts";
import { PAPER_ID_PATTERN } from "../ids.ts";
import { AI_LABEL } from "../papers/index.ts";
import { subjectName } from "../subjects/index.ts";
import {
  countHarvestable,
  earliestChange,
  findHarvestable,
  type HarvestRecord,
  type HarvestWindow,
  harvestPage,
} from "./harvest.ts";
import { OAI_SETS, oaiSet, setSpecsOf } from "./oai-sets.ts";
import {
  decodeResumptionToken,
  encodeResumptionToken,
  type ResumptionState,
} from "./resumption.ts";
import { type Attributes, element, textElement, XML_DECLARATION } from "./xml.ts";

const OAI_PAGE_SIZE = 100;
/** How long a resumption token stays good; long enough for a slow harvester between pages. */
const RESUMPTION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

const OAI_NAMESPACE = "http://www.openarchives.org/OAI/2.0/";
const OAI_SCHEMA = "http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd";
const OAI_DC_NAMESPACE = "http://www.openarchives.org/OAI/2.0/oai_dc/";
const OAI_DC_SCHEMA = "http://www.openarchives.org/OAI/2.0/oai_dc.xsd";
const DC_NAMESPACE = "http://purl.org/dc/elements/1.1/";
const XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";

export const OAI_VERBS = [
  "Identify",
  "ListMetadataFormats",
  "ListSets",
  "ListIdentifiers",
  "ListRecords",
  "GetRecord",
] as const;
type OaiVerb = (typeof OAI_VERBS)[number];

export type OaiErrorCode =
  | "badArgument"
  | "badResumptionToken"
  | "badVerb"
  | "cannotDisseminateFormat"
  | "idDoesNotExist"
  | "noRecordsMatch"
  | "noMetadataFormats"
  | "noSetHierarchy";

interface OaiError {
  code: OaiErrorCode;
  message: string;
}

export interface OaiOptions {
  /** The request's arguments in order, repeats kept (from the query or the form body). */
  args: ReadonlyArray<readonly [string, string]>;
  /** Records per list response; tests use small pages. */
  pageSize?: number;
  tokenTtlMs?: number;
  /** Identify's adminEmail; derived from the base URL's host when absent. */
  adminEmail?: string;
  /** Optional deployment secret for sealing resumption tokens. */
  tokenSecret?: string;
}

/** Which arguments each verb takes; `resumptionToken`, where allowed, must come alone. */
const VERB_ARGS: Record<OaiVerb, { required: string[]; optional: string[]; exclusive?: string }> = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ["identifier"] },
  ListSets: { required: [], optional: [], exclusive: "resumptionToken" },
  ListIdentifiers: {
    required: ["metadataPrefix"],
    optional: ["from", "until", "set"],
    exclusive: "resumptionToken",
  },
  ListRecords: {
    required: ["metadataPrefix"],
    optional: ["from", "until", "set"],
    exclusive: "resumptionToken",
  },
  GetRecord: { required: ["identifier", "metadataPrefix"], optional: [] },
};

/** The protocol's own syntax for these values (OAI-PMH.xsd metadataPrefixType, setSpecType). */
const METADATA_PREFIX_PATTERN = /^[A-Za-z0-9\-_.!~*'()]+$/;
const SET_SPEC_PATTERN = /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const SECOND_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
/** A URI (RFC 3986 characters, valid %-escapes, one fragment at most), as anyURI needs. */
const URI_CHARS = "(?:[A-Za-z0-9\\-._~:/?@!$&'()*+,;=]|%[0-9A-Fa-f]{2})";
const IDENTIFIER_PATTERN = new RegExp(`^${URI_CHARS}+(?:#${URI_CHARS}*)?$`);
const LANGUAGE_PATTERN = /^[a-z]{2,3}$/;

type Outcome = { body: string } | { errors: OaiError[] };

interface Request {
  ctx: ServiceContext;
  options: OaiOptions;
  args: Map<string, string>;
  endpoint: string;
  host: string;
  now: Date;
}

/**
 * Answers one OAI-PMH request with the complete XML document. Protocol errors are part of
 * the protocol (HTTP 200 with `<error>` elements), so this never throws for bad input.
 * Every failed argument check is reported, each as its own `badArgument` error.
 *
 * Choices: sets are subjects (oai-sets.ts): a set per group (`cs`) and per category under
 * it (`cs:cs.CL`); records carry their setSpecs, deleted ones too, so a harvester of a set
 * learns of deletions in it. A well-formed set this repository does not define gives
 * `noRecordsMatch` (the list over it is empty; the protocol names no other error for it).
 * Deleted records are persistent — withdrawn and removed papers stay as headers with
 * `status="deleted"` so harvesters can take their copies down.
 */
export async function respondOai(ctx: ServiceContext, options: OaiOptions): Promise<string> {
  const baseUrl = ctx.settings.baseUrl.replace(/\/+$/, "");
  const endpoint = `${baseUrl}/oai`;
  const now = ctx.clock.now();
  const envelope = (attributes: Attributes | null, body: string) =>
    renderEnvelope({ endpoint, now, attributes, body });

  const seen = new Map<string, string[]>();
  for (const [name, value] of options.args) seen.set(name, [...(seen.get(name) ?? []), value]);
  const verbs = seen.get("verb") ?? [];
  const verb = verbs[0];
  if (verbs.length !== 1 || !isVerb(verb)) {
    const message =
      verbs.length === 0
        ? "The verb argument is missing."
        : verbs.length > 1
          ? "The verb argument is repeated."
          : `"${verb}" is not an OAI-PMH verb.`;
    return envelope(null, renderErrors([{ code: "badVerb", message }]));
  }

  const issues = checkArguments(verb, seen);
  if (issues.length > 0) {
    return envelope(
      null,
      renderErrors(issues.map((message) => ({ code: "badArgument", message }))),
    );
  }
  const args = new Map([...seen].map(([name, values]) => [name, values[0] as string]));
  const request: Request = {
    ctx,
    options,
    args,
    endpoint,
    host: new URL(baseUrl).hostname,
    now,
  };
  const outcome = await HANDLERS[verb](request);
  const attributes: Attributes = { verb };
  for (const [name, value] of args) if (name !== "verb") attributes[name] = value;
  return envelope(attributes, "errors" in outcome ? renderErrors(outcome.errors) : outcome.body);
}

function isVerb(value: string | undefined): value is OaiVerb {
  return (OAI_VERBS as readonly (string | undefined)[]).includes(value);
}

/** Every badArgument condition: unknown, repeated, empty, missing or ill-formed arguments. */
function checkArguments(verb: OaiVerb, seen: Map<string, string[]>): string[] {
  const spec = VERB_ARGS[verb];
  const allowed = new Set(["verb", ...spec.required, ...spec.optional]);
  if (spec.exclusive) allowed.add(spec.exclusive);
  const issues: string[] = [];
  for (const [name, values] of seen) {
    if (name === "verb") continue;
    if (!allowed.has(name)) {
      issues.push(`"${name}" is not an argument of ${verb}.`);
      continue;
    }
    if (values.length > 1) issues.push(`The ${name} argument is repeated.`);
    if (values.some((v) => v === "")) issues.push(`The ${name} argument is empty.`);
  }
  const exclusive = spec.exclusive && seen.has(spec.exclusive);
  if (exclusive) {
    const others = [...seen.keys()].filter((n) => n !== "verb" && n !== spec.exclusive);
    if (others.length > 0) {
      issues.push(`resumptionToken is an exclusive argument; do not send ${others.join(", ")}.`);
    }
    return issues;
  }
  for (const name of spec.required) {
    if (!seen.has(name)) issues.push(`${verb} requires the ${name} argument.`);
  }
  const single = (name: string) => {
    const values = seen.get(name);
    return values?.length === 1 && values[0] !== "" ? values[0] : undefined;
  };
  const prefix = single("metadataPrefix");
  if (prefix !== undefined && !METADATA_PREFIX_PATTERN.test(prefix)) {
    issues.push(`"${prefix}" is not a syntactically valid metadataPrefix.`);
  }
  const identifier = single("identifier");
  if (identifier !== undefined && !IDENTIFIER_PATTERN.test(identifier)) {
    issues.push(`"${identifier}" is not a syntactically valid identifier (a URI).`);
  }
  const set = single("set");
  if (set !== undefined && !SET_SPEC_PATTERN.test(set)) {
    issues.push(`"${set}" is not a syntactically valid setSpec.`);
  }
  const fromText = single("from");
  const untilText = single("until");
  const from = fromText === undefined ? undefined : parseUtc(fromText);
  const until = untilText === undefined ? undefined : parseUtc(untilText);
  if (from === null) issues.push(`from "${fromText}" is not YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ.`);
  if (until === null) {
    issues.push(`until "${untilText}" is not YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ.`);
  }
  if (from && until) {
    if (from.granularity !== until.granularity) {
      issues.push("from and until must have the same granularity.");
    } else if (from.start > until.start) {
      issues.push("from is later than until.");
    }
  }
  return issues;
}

interface UtcBound {
  granularity: "day" | "second";
  start: Date;
  /** The first instant after the bound, for an inclusive `until`. */
  next: Date;
}

/** Parses an OAI UTCdatetime at either granularity; null for syntax or calendar errors. */
function parseUtc(value: string): UtcBound | null {
  const day = DAY_PATTERN.test(value);
  if (!day && !SECOND_PATTERN.test(value)) return null;
  const iso = day ? `${value}T00:00:00Z` : value;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms) || formatDatestamp(new Date(ms)) !== iso) return null;
  return {
    granularity: day ? "day" : "second",
    start: new Date(ms),
    next: new Date(ms + (day ? 86_400_000 : 1000)),
  };
}

/** `YYYY-MM-DDThh:mm:ssZ`, the repository's granularity. */
export function formatDatestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

const HANDLERS: Record<OaiVerb, (request: Request) => Promise<Outcome>> = {
  Identify: identify,
  ListMetadataFormats: listMetadataFormats,
  ListSets: listSets,
  ListIdentifiers: (request) => listRecords(request, "ListIdentifiers"),
  ListRecords: (request) => listRecords(request, "ListRecords"),
  GetRecord: getRecord,
};

/**
 * Every set in one response (under two hundred: no resumption token is needed). A
 * resumptionToken can only be one this repository never issued.
 */
async function listSets(request: Request): Promise<Outcome> {
  if (request.args.has("resumptionToken")) {
    return {
      errors: [
        {
          code: "badResumptionToken",
          message: "ListSets answers in one response; this repository issues no token for it.",
        },
      ],
    };
  }
  return {
    body: element(
      "ListSets",
      {},
      OAI_SETS.map((set) =>
        element("set", {}, [textElement("setSpec", set.spec), textElement("setName", set.name)]),
      ),
    ),
  };
}

async function identify(request: Request): Promise<Outcome> {
  const earliest = (await earliestChange(publicReadDb(request.ctx))) ?? request.now;
  const host = request.host;
  const adminEmail =
    request.options.adminEmail ?? `admin@${host.includes(".") ? host : `${host}.invalid`}`;
  return {
    body: element("Identify", {}, [
      textElement("repositoryName", "Quire"),
      textElement("baseURL", request.endpoint),
      textElement("protocolVersion", "2.0"),
      textElement("adminEmail", adminEmail),
      textElement("earliestDatestamp", formatDatestamp(earliest)),
      textElement("deletedRecord", "persistent"),
      textElement("granularity", "YYYY-MM-DDThh:mm:ssZ"),
      textElement("compression", "gzip"),
    ]),
  };
}

const OAI_DC_FORMAT = element("metadataFormat", {}, [
  textElement("metadataPrefix", "oai_dc"),
  textElement("schema", OAI_DC_SCHEMA),
  textElement("metadataNamespace", OAI_DC_NAMESPACE),
]);

async function listMetadataFormats(request: Request): Promise<Outcome> {
  const identifier = request.args.get("identifier");
  if (identifier !== undefined) {
    const record = await lookUp(request, identifier);
    if (!record) return { errors: [unknownIdentifier(identifier)] };
    if (record.status !== "published") {
      return {
        errors: [
          {
            code: "noMetadataFormats",
            message: `${identifier} is a deleted record; no metadata is disseminated for it.`,
          },
        ],
      };
    }
  }
  return { body: element("ListMetadataFormats", {}, [OAI_DC_FORMAT]) };
}

async function getRecord(request: Request): Promise<Outcome> {
  const identifier = request.args.get("identifier") as string;
  const prefix = request.args.get("metadataPrefix") as string;
  const record = await lookUp(request, identifier);
  const errors: OaiError[] = [];
  if (!record) errors.push(unknownIdentifier(identifier));
  if (prefix !== "oai_dc") errors.push(cannotDisseminate(prefix));
  if (errors.length > 0 || !record) return { errors };
  return { body: element("GetRecord", {}, [renderRecord(request, record)]) };
}

async function listRecords(
  request: Request,
  verb: "ListIdentifiers" | "ListRecords",
): Promise<Outcome> {
  const { ctx, options, args } = request;
  const pageSize = options.pageSize ?? OAI_PAGE_SIZE;
  const baseUrl = ctx.settings.baseUrl.replace(/\/+$/, "");
  const token = args.get("resumptionToken");
  let resumed: ResumptionState | null = null;
  if (token !== undefined) {
    const decoded = decodeResumptionToken(token, {
      baseUrl,
      now: request.now,
      ...(options.tokenSecret ? { secret: options.tokenSecret } : {}),
    });
    if (!decoded.ok || decoded.state.verb !== verb) {
      const message =
        !decoded.ok && decoded.reason === "expired"
          ? "The resumptionToken has expired; start the list again."
          : "The resumptionToken is not one this repository issued for this verb.";
      return { errors: [{ code: "badResumptionToken", message }] };
    }
    resumed = decoded.state;
  } else {
    const errors: OaiError[] = [];
    const prefix = args.get("metadataPrefix") as string;
    if (prefix !== "oai_dc") errors.push(cannotDisseminate(prefix));
    const spec = args.get("set");
    if (spec !== undefined && !oaiSet(spec)) {
      errors.push({
        code: "noRecordsMatch",
        message: `This repository has no set "${spec}", so no records are in it; ListSets lists the sets.`,
      });
    }
    if (errors.length > 0) return { errors };
  }

  const fromText = resumed ? resumed.from : (args.get("from") ?? null);
  const untilText = resumed ? resumed.until : (args.get("until") ?? null);
  const setSpec = resumed ? resumed.set : (args.get("set") ?? null);
  const set = setSpec === null ? undefined : oaiSet(setSpec);
  if (setSpec !== null && !set) {
    return {
      errors: [{ code: "badResumptionToken", message: "The resumptionToken names no set here." }],
    };
  }
  const window: HarvestWindow = {
    from: fromText === null ? undefined : parseUtc(fromText)?.start,
    before: untilText === null ? undefined : parseUtc(untilText)?.next,
    subjects: set?.codes,
  };
  const rows = await harvestPage(publicReadDb(ctx), {
    ...window,
    after: resumed ? { position: resumed.position, id: resumed.id } : undefined,
    limit: pageSize + 1,
  });
  if (rows.length === 0) {
    return {
      errors: [
        {
          code: "noRecordsMatch",
          message: resumed
            ? "No records remain in this list."
            : "No records match these from, until, set and metadataPrefix arguments.",
        },
      ],
    };
  }
  const page = rows.slice(0, pageSize);
  const more = rows.length > pageSize;
  const cursor = resumed?.cursor ?? 0;
  const counted =
    resumed?.completeListSize ??
    (more ? await countHarvestable(publicReadDb(ctx), window) : page.length);
  // Records changed mid-harvest move behind the cursor, so the first count can fall short.
  const completeListSize = Math.max(counted, cursor + page.length + (more ? 1 : 0));
  const children =
    verb === "ListRecords"
      ? page.map((record) => renderRecord(request, record))
      : page.map((record) => renderHeader(request, record));

  if (more) {
    const last = page.at(-1) as HarvestRecord;
    const expiresAt = request.now.getTime() + (options.tokenTtlMs ?? RESUMPTION_TOKEN_TTL_MS);
    const next = encodeResumptionToken(
      {
        verb,
        metadataPrefix: resumed?.metadataPrefix ?? "oai_dc",
        from: fromText,
        until: untilText,
        set: setSpec,
        position: last.position,
        id: last.id,
        cursor: cursor + page.length,
        completeListSize,
        expiresAt,
      },
      { baseUrl, ...(options.tokenSecret ? { secret: options.tokenSecret } : {}) },
    );
    children.push(
      textElement("resumptionToken", next, {
        expirationDate: formatDatestamp(new Date(expiresAt)),
        completeListSize,
        cursor,
      }),
    );
  } else if (resumed) {
    // The last part of a split list carries an empty token, per the protocol.
    children.push(element("resumptionToken", { completeListSize, cursor }));
  }
  return { body: element(verb, {}, children) };
}

/** `oai:<host>:<paper id>` → the record, deleted ones included; null if unknown or ill-formed. */
async function lookUp(request: Request, identifier: string): Promise<HarvestRecord | null> {
  const prefix = `oai:${request.host}:`;
  if (!identifier.startsWith(prefix)) return null;
  const id = identifier.slice(prefix.length);
  if (!PAPER_ID_PATTERN.test(id)) return null;
  return findHarvestable(publicReadDb(request.ctx), id);
}

function unknownIdentifier(identifier: string): OaiError {
  return {
    code: "idDoesNotExist",
    message: `${identifier} is not an identifier in this repository.`,
  };
}

function cannotDisseminate(prefix: string): OaiError {
  return {
    code: "cannotDisseminateFormat",
    message: `The metadata format "${prefix}" is not supported; use oai_dc.`,
  };
}

function oaiIdentifier(host: string, paperId: string): string {
  return `oai:${host}:${paperId}`;
}

function renderHeader(request: Request, record: HarvestRecord): string {
  return element("header", { status: record.status === "published" ? undefined : "deleted" }, [
    textElement("identifier", oaiIdentifier(request.host, record.id)),
    textElement("datestamp", formatDatestamp(record.updatedAt)),
    ...setSpecsOf(record.subjects).map((spec) => textElement("setSpec", spec)),
  ]);
}

function renderRecord(request: Request, record: HarvestRecord): string {
  const header = renderHeader(request, record);
  if (record.status !== "published") return element("record", {}, [header]);
  const metadata = element("metadata", {}, [
    dublinCore(request.ctx.settings.baseUrl.replace(/\/+$/, ""), record),
  ]);
  return element("record", {}, [header, metadata]);
}

/**
 * Simple Dublin Core for one paper. The AI model is the creator and the owner only a
 * contributor, mirroring the API's authors list; the AI label is stated in words in a
 * description of its own, since harvesters show descriptions but drop unknown elements.
 */
function dublinCore(baseUrl: string, record: HarvestRecord): string {
  const lang = LANGUAGE_PATTERN.test(record.language) ? record.language : undefined;
  const statement =
    `${AI_LABEL}: this paper was written by the AI model ${record.aiModel}` +
    (record.ownerHandle ? ` and submitted to Quire by ${record.ownerHandle}.` : ".");
  return element(
    "oai_dc:dc",
    {
      "xmlns:oai_dc": OAI_DC_NAMESPACE,
      "xmlns:dc": DC_NAMESPACE,
      "xmlns:xsi": XSI_NAMESPACE,
      "xsi:schemaLocation": `${OAI_DC_NAMESPACE} ${OAI_DC_SCHEMA}`,
    },
    [
      textElement("dc:title", record.title, { "xml:lang": lang }),
      textElement("dc:creator", record.aiModel),
      ...(record.ownerHandle ? [textElement("dc:contributor", record.ownerHandle)] : []),
      ...record.keywords.map((keyword) => textElement("dc:subject", keyword)),
      ...record.subjects.map((code) =>
        textElement("dc:subject", `${subjectName(code, "en")} (${code})`, { "xml:lang": "en" }),
      ),
      textElement("dc:description", record.abstract, { "xml:lang": lang }),
      textElement("dc:description", statement, { "xml:lang": "en" }),
      textElement("dc:publisher", "Quire"),
      textElement("dc:date", record.publishedAt.toISOString().slice(0, 10)),
      textElement("dc:type", "Text"),
      textElement("dc:type", "preprint"),
      textElement("dc:identifier", `${baseUrl}/papers/${record.id}`),
      textElement("dc:identifier", record.id),
      ...(lang ? [textElement("dc:language", lang)] : []),
      textElement("dc:rights", record.license),
    ],
  );
}

function renderErrors(errors: OaiError[]): string {
  return errors.map((e) => textElement("error", e.message, { code: e.code })).join("");
}

/**
 * The document around every answer. For badVerb and badArgument the request element
 * carries no attributes, as the protocol requires; otherwise it echoes the arguments.
 */
function renderEnvelope(input: {
  endpoint: string;
  now: Date;
  attributes: Attributes | null;
  body: string;
}): string {
  return (
    XML_DECLARATION +
    element(
      "OAI-PMH",
      {
        xmlns: OAI_NAMESPACE,
        "xmlns:xsi": XSI_NAMESPACE,
        "xsi:schemaLocation": `${OAI_NAMESPACE} ${OAI_SCHEMA}`,
      },
      [
        textElement("responseDate", formatDatestamp(input.now)),
        textElement("request", input.endpoint, input.attributes ?? {}),
        input.body,
      ],
    )
  );
}
