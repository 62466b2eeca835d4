/**
 * @module A seeded fuzzer of every front end over real HTTP: each operation of the OpenAPI
 * document, `/mcp` JSON-RPC (every tool, resource reads and subscriptions, malformed envelopes,
 * batches, with and without a session id), `/mcp`'s GET event stream and DELETE, `/oai`,
 * `/feed.atom`, every page (a paper's discussion feed included) and every form route in both
 * languages (with and without a session and a CSRF token; replies, votes, notification and
 * revision fields with values that reach real rows), fed hostile strings. A request fails when it answers 5xx (a 503 only where the
 * contract allows it), takes over 5 s, loses its connection, or shows a stack trace or SQL text.
 */
import fc from "fast-check";
import { OAI_VERBS } from "../services/feeds/oai.ts";
import { MCP_TOOL_NAMES } from "./mcp.ts";

/** One request the fuzzer sends; `path` is sent as is (already percent-encoded or not). */
interface FuzzRequest {
  family: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FuzzFailure {
  request: FuzzRequest;
  reason: string;
  status?: number;
  excerpt?: string;
}

export interface FuzzReport {
  sent: number;
  byStatus: Record<string, number>;
  failures: FuzzFailure[];
}

/** What the fuzzer knows about the running service before it starts. */
export interface FuzzTarget {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The served OpenAPI document. */
  document: OpenApiDocument;
  /** Method and path of every registered route (Hono's `app.routes`). */
  routes: { method: string; path: string }[];
  /** A real paper id in the archive, so some requests go deep. */
  paperId: string;
  /** Real comment and review ids on that paper: reply targets and vote paths that exist. */
  contributionIds: string[];
  /** A verified agent's key. */
  agentKey: string;
  /** A signed-in owner's cookie header and a CSRF token valid for it. */
  session: { cookie: string; csrf: string };
  /** A signed-out CSRF cookie and its token. */
  anonymous: { cookie: string; csrf: string };
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string }[];
        requestBody?: { content?: Record<string, { schema?: unknown }> };
      }
    >
  >;
}

const TIMEOUT_MS = 5000;

/** Strings that have broken services: encoding, size, injection, traversal, numbers. */
const HOSTILE = [
  "",
  " ",
  "a",
  "\u0000",
  "a\u0000b",
  "\r\n",
  "a\r\nSet-Cookie: x=1",
  "\t",
  "\u001b[31m",
  "\u007f",
  "\ud800",
  "\udc00x",
  "\ufffe",
  "\u202e",
  "💥",
  "x".repeat(1001),
  "y".repeat(70_000),
  "-1",
  "0",
  "1e309",
  "99999999999999999999999",
  "NaN",
  "1.5",
  "' OR 1=1 --",
  "'; drop table papers; --",
  '") union select * from owners --',
  "%",
  "%zz",
  "%00",
  "%ff%fe",
  "%c0%af",
  "../../etc/passwd",
  "..%2f..%2fetc%2fpasswd",
  "/..//..",
  "<script>alert(1)</script>",
  "{{7*7}}",
  "$\u007bjndi:ldap://x}",
  "2611.00001",
  "2611.00001v999",
  "9999.99999",
  "agt_0000000000000000000000",
  "quire_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  "eyJhIjoxfQ",
  "!!!notbase64",
  "true",
  "null",
  "[]",
  "{}",
];

const hostile = fc.constantFrom(...HOSTILE);
const anyText = fc.oneof(
  { weight: 3, arbitrary: hostile },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

/** A string as a URL component: mostly encoded, sometimes raw (bad percent-encoding stays). */
const urlPart = fc
  .tuple(anyText, fc.integer({ min: 0, max: 4 }))
  .map(([s, raw]) => (raw === 0 ? rawUrlSafe(s) : encodeURIComponent(safeForEncoding(s))));

/** encodeURIComponent throws on lone surrogates; send what a client would (U+FFFD). */
function safeForEncoding(s: string): string {
  return s.replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    "\ufffd",
  );
}

/** A string put into a URL unencoded, except what fetch could not send at all. */
function rawUrlSafe(s: string): string {
  return safeForEncoding(s).replace(/[\s#?&/]/g, (c) => encodeURIComponent(c));
}

const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  anyText,
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, false, 1e308, -0, Number.MAX_SAFE_INTEGER + 2),
  fc.array(anyText, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), anyText, { maxKeys: 3 }),
);

function deepJson(depth: number): string {
  return `${"[".repeat(depth)}1${"]".repeat(depth)}`;
}

/** Fields of a request body schema (top-level properties), for values that reach services. */
function bodyFields(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props ? Object.keys(props) : [];
}

function resolveRef(document: OpenApiDocument, schema: unknown): unknown {
  const ref = (schema as { $ref?: string } | undefined)?.$ref;
  if (!ref) return schema;
  const name = ref.split("/").pop() ?? "";
  return (document as unknown as { components?: { schemas?: Record<string, unknown> } }).components
    ?.schemas?.[name];
}

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=x",
  "application/xml",
  "",
];

/** Headers an agent might send: none, a bad key, a good key, garbage. */
function authArb(t: FuzzTarget) {
  return fc.constantFrom<Record<string, string>>(
    {},
    {},
    { authorization: `Bearer ${t.agentKey}` },
    { authorization: `Bearer ${t.agentKey}` },
    { authorization: "Bearer quire_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
    { authorization: "Basic Zm9vOmJhcg==" },
    { authorization: "Bearer" },
    { authorization: `Bearer ${"k".repeat(5000)}` },
  );
}

/** `Mcp-Session-Id` values: none, well-formed (any 22 base64url characters is one), hostile. */
const SESSION_IDS = [
  undefined,
  undefined,
  "AAAAAAAAAAAAAAAAAAAAAA",
  "fuzz_fuzz-fuzz_fuzz-ZZ",
  "short",
  "x".repeat(300),
  "../../etc/passwd",
  "a b",
] as const;
const sessionArb = fc.constantFrom(...SESSION_IDS);

function queryString(pairs: [string, string][]): string {
  return pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}` : "";
}

function fillPath(template: string, values: string[]): string {
  let i = 0;
  return template.replace(/\{[^}]+\}|:[A-Za-z_]+/g, () => values[i++ % values.length] ?? "x");
}

function operationArb(t: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const ops = Object.entries(t.document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
  return fc
    .record({
      op: fc.constantFrom(...ops),
      pathValues: fc.array(
        fc.oneof(
          urlPart,
          fc.constant(t.paperId),
          fc.constant(`${t.paperId}v1`),
          fc.constantFrom(...t.contributionIds),
        ),
        { minLength: 1, maxLength: 2 },
      ),
      queryValues: fc.array(urlPart, { minLength: 1, maxLength: 4 }),
      duplicate: fc.boolean(),
      extra: fc.option(fc.tuple(urlPart, urlPart), { nil: undefined }),
      auth: authArb(t),
      contentType: fc.constantFrom(...CONTENT_TYPES),
      bodyKind: fc.constantFrom("schema", "schema", "schema", "junk", "deep", "wrong-shape"),
      values: fc.array(jsonValue, { minLength: 1, maxLength: 6 }),
      replyTo: fc.option(fc.constantFrom(...t.contributionIds), { nil: undefined }),
      idempotency: fc.option(anyText, { nil: undefined }),
    })
    .map((g) => {
      const params = g.op.op.parameters ?? [];
      const pairs: [string, string][] = [];
      params
        .filter((p) => p.in === "query")
        .forEach((p, i) => {
          pairs.push([p.name, g.queryValues[i % g.queryValues.length] ?? ""]);
          if (g.duplicate)
            pairs.push([p.name, g.queryValues[(i + 1) % g.queryValues.length] ?? ""]);
        });
      if (g.extra) pairs.push(g.extra);
      const headers: Record<string, string> = { ...g.auth, accept: "application/json" };
      if (g.idempotency !== undefined) headers["idempotency-key"] = headerSafe(g.idempotency);
      const request: FuzzRequest = {
        family: `api ${g.op.method} ${g.op.path}`,
        method: g.op.method,
        path: `${fillPath(g.op.path, g.pathValues)}${queryString(pairs)}`,
        headers,
      };
      const content = g.op.op.requestBody?.content;
      if (g.op.method === "POST" || content) {
        const schema = resolveRef(t.document, content?.["application/json"]?.schema);
        const fields = bodyFields(schema);
        headers["content-type"] = g.contentType || "application/json";
        if (g.bodyKind === "junk") request.body = "{not json";
        else if (g.bodyKind === "deep") request.body = deepJson(5000);
        else if (g.bodyKind === "wrong-shape") request.body = JSON.stringify(g.values);
        else {
          const body: Record<string, unknown> = {};
          fields.forEach((f, i) => {
            body[f] = f === "in_reply_to" && g.replyTo ? g.replyTo : g.values[i % g.values.length];
          });
          request.body = JSON.stringify(body);
        }
      }
      return request;
    });
}

/** Every tool the server lists (the MCP test holds the list to the server's). */
const TOOLS = MCP_TOOL_NAMES;
const TOOL_FIELDS = [
  "id",
  "version",
  "format",
  "limit",
  "cursor",
  "q",
  "mode",
  "paper_id",
  "body",
  "idempotency_key",
  "in_reply_to",
  "order",
  "soundness",
  "presentation",
  "contribution",
  "overall",
  "confidence",
  "unread_only",
  "ids",
  "up_to",
  "subject",
  "since",
  "until",
  "model",
  "agent",
  "sort",
  "group",
];

function mcpArb(t: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const call = fc
    .record({
      tool: fc.oneof(fc.constantFrom(...TOOLS), anyText),
      args: fc.dictionary(fc.constantFrom(...TOOL_FIELDS), jsonValue, { maxKeys: 5 }),
      withPaper: fc.boolean(),
      id: fc.oneof(fc.integer(), anyText, fc.constant(null)),
    })
    .map((g) => ({
      jsonrpc: "2.0",
      id: g.id,
      method: "tools/call",
      params: {
        name: g.tool,
        arguments: g.withPaper ? { ...g.args, id: t.paperId, paper_id: t.paperId } : g.args,
      },
    }));
  const other = fc.oneof(
    fc.constant({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    fc.constant({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz" } },
    }),
    fc.record({
      jsonrpc: fc.constant("2.0"),
      id: fc.constant(2),
      method: fc.constantFrom(
        "resources/read",
        "prompts/get",
        "resources/list",
        "completion/complete",
      ),
      params: fc.record({ uri: anyText, name: anyText }),
    }),
    fc.record({
      jsonrpc: fc.oneof(fc.constant("2.0"), anyText),
      id: jsonValue,
      method: anyText,
      params: jsonValue,
    }),
  );
  // Resources that exist, subscribed to, unsubscribed from and read (issue 31).
  const resource = fc.record({
    jsonrpc: fc.constant("2.0"),
    id: fc.constant(4),
    method: fc.constantFrom("resources/subscribe", "resources/unsubscribe", "resources/read"),
    params: fc.record({
      uri: fc.oneof(
        fc.constantFrom(
          "quire://me/notifications",
          `quire://papers/${t.paperId}/discussion`,
          `quire://papers/${t.paperId}v1/discussion`,
          `quire://papers/${t.paperId}`,
          "quire://papers/2601.99999/discussion",
        ),
        anyText.map((s) => `quire://papers/${s}/discussion`),
        anyText,
      ),
    }),
  });
  const message = fc.oneof(
    { weight: 3, arbitrary: call },
    { weight: 2, arbitrary: other },
    { weight: 1, arbitrary: resource },
  );
  return fc
    .record({
      shape: fc.constantFrom("one", "one", "one", "batch", "junk", "deep", "empty"),
      messages: fc.array(message, { minLength: 1, maxLength: 3 }),
      auth: authArb(t),
      contentType: fc.constantFrom("application/json", "application/json", "text/plain", ""),
      accept: fc.constantFrom("application/json, text/event-stream", "application/json", "*/*"),
      origin: fc.constantFrom(
        undefined,
        undefined,
        "http://evil.example",
        "null",
        "http://localhost",
      ),
      session: sessionArb,
    })
    .map((g) => {
      const body =
        g.shape === "batch"
          ? JSON.stringify(g.messages)
          : g.shape === "junk"
            ? '{"jsonrpc":"2.0",'
            : g.shape === "deep"
              ? `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${deepJson(3000)}}`
              : g.shape === "empty"
                ? ""
                : JSON.stringify(g.messages[0]);
      const headers: Record<string, string> = { ...g.auth, accept: g.accept };
      if (g.contentType) headers["content-type"] = g.contentType;
      if (g.origin) headers.origin = g.origin;
      if (g.session) headers["mcp-session-id"] = g.session;
      return { family: `mcp ${g.shape}`, method: "POST", path: "/mcp", headers, body };
    });
}

/**
 * `/mcp` without POST: an agent session's event stream (GET; answered once its headers
 * arrive, see sendOnce), ending a session (DELETE), and methods it does not take.
 */
function mcpStreamArb(t: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.constantFrom("GET", "GET", "GET", "DELETE", "DELETE", "HEAD", "PUT"),
      auth: authArb(t),
      session: sessionArb,
      accept: fc.constantFrom("text/event-stream", "text/event-stream", "application/json", ""),
      protocol: fc.constantFrom(undefined, undefined, "2025-06-18", "1999-01-01", "💥"),
      lastEventId: fc.option(anyText, { nil: undefined }),
    })
    .map((g): FuzzRequest => {
      const headers: Record<string, string> = { ...g.auth };
      if (g.accept) headers.accept = g.accept;
      if (g.session) headers["mcp-session-id"] = g.session;
      if (g.protocol) headers["mcp-protocol-version"] = headerSafe(g.protocol);
      if (g.lastEventId !== undefined) headers["last-event-id"] = headerSafe(g.lastEventId);
      return { family: `mcp ${g.method}`, method: g.method, path: "/mcp", headers };
    });
}

const OAI_ARGS = ["metadataPrefix", "identifier", "from", "until", "set", "resumptionToken"];

function feedArb(t: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const oai = fc
    .record({
      verb: fc.oneof(fc.constantFrom(...OAI_VERBS), urlPart),
      args: fc.array(fc.tuple(fc.constantFrom(...OAI_ARGS), urlPart), { maxLength: 4 }),
      prefix: fc.constantFrom("oai_dc", "oai_dc", "", "%00"),
      withId: fc.boolean(),
      post: fc.boolean(),
    })
    .map((g): FuzzRequest => {
      const pairs: [string, string][] = [["verb", g.verb], ...g.args];
      if (g.prefix) pairs.push(["metadataPrefix", g.prefix]);
      if (g.withId) pairs.push(["identifier", encodeURIComponent(`oai:quire:${t.paperId}`)]);
      const query = pairs.map(([k, v]) => `${k}=${v}`).join("&");
      return g.post
        ? {
            family: "oai POST",
            method: "POST",
            path: "/oai",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: query,
          }
        : { family: "oai GET", method: "GET", path: `/oai?${query}`, headers: {} };
    });
  const atom = fc
    .array(fc.tuple(fc.constantFrom("keyword", "q", "limit", "cursor", "lang"), urlPart), {
      maxLength: 3,
    })
    .map(
      (pairs): FuzzRequest => ({
        family: "feed.atom",
        method: "GET",
        path: `/feed.atom${queryString(pairs)}`,
        headers: { "if-none-match": '"x"' },
      }),
    );
  return fc.oneof(oai, atom);
}

const FORM_FIELDS = [
  "in_reply_to",
  "vote",
  "email",
  "password",
  "handle",
  "name",
  "model",
  "description",
  "body",
  "title",
  "abstract",
  "keywords",
  "license",
  "reason",
  "next",
  "token",
  "soundness",
  "presentation",
  "contribution",
  "overall",
  "confidence",
  "agent_id",
  "role",
  "lang",
  "ids",
  "up_to",
  "digest",
  "immediate-review",
  "immediate-reply",
  "immediate-helpful_vote",
  "changelog",
];

function pageArb(t: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const pages = t.routes.filter(
    (r) =>
      (r.method === "GET" || r.method === "POST") &&
      !/^\/(?:api|mcp|oai|feed\.atom|llms|docs|healthz|readyz|metrics|assets|\.well-known)/.test(
        r.path,
      ) &&
      !r.path.includes("*"),
  );
  return fc
    .record({
      route: fc.constantFrom(...pages),
      ids: fc.array(
        fc.oneof(
          urlPart,
          fc.constant(t.paperId),
          fc.constant("agt_x"),
          fc.constantFrom(...t.contributionIds),
        ),
        {
          minLength: 1,
          maxLength: 2,
        },
      ),
      query: fc.array(
        fc.tuple(
          fc.constantFrom("q", "keyword", "cursor", "page", "next", "notice", "token"),
          urlPart,
        ),
        { maxLength: 3 },
      ),
      who: fc.constantFrom("signed-in", "signed-out", "no-cookie"),
      csrf: fc.constantFrom("valid", "valid", "wrong", "none"),
      fields: fc.dictionary(
        fc.constantFrom(...FORM_FIELDS, ...t.contributionIds.map((id) => `address-${id}`)),
        fc.oneof(
          { weight: 3, arbitrary: anyText },
          // Values that pass the forms' checks, so replies, votes, read marks and mail
          // choices reach real rows.
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              "on",
              "helpful",
              "unhelpful",
              "none",
              "A fuzzed reply.",
              "2026-11-02T12:00:00Z",
              ...t.contributionIds,
            ),
          },
        ),
        { maxKeys: 6 },
      ),
      encoding: fc.constantFrom(
        "urlencoded",
        "urlencoded",
        "multipart",
        "broken-multipart",
        "json",
        "huge",
      ),
      lang: fc.constantFrom("", "/es"),
    })
    .map((g): FuzzRequest => {
      const path = `${g.route.path.startsWith("/es") ? "" : g.lang}${fillPath(g.route.path, g.ids)}`;
      const headers: Record<string, string> = { accept: "text/html" };
      const identity =
        g.who === "signed-in" ? t.session : g.who === "signed-out" ? t.anonymous : undefined;
      if (identity) headers.cookie = identity.cookie;
      const request: FuzzRequest = {
        family: `page ${g.route.method} ${g.route.path}`,
        method: g.route.method,
        path: `${path}${queryString(g.query)}`,
        headers,
      };
      if (g.route.method !== "POST") return request;
      const fields: Record<string, string> = {};
      for (const [k, v] of Object.entries(g.fields)) fields[k] = safeForEncoding(v);
      if (g.csrf === "valid" && identity) fields._csrf = identity.csrf;
      if (g.csrf === "wrong") fields._csrf = "AAAA";
      if (g.encoding === "urlencoded" || g.encoding === "huge") {
        headers["content-type"] = "application/x-www-form-urlencoded";
        request.body = new URLSearchParams(fields).toString();
        if (g.encoding === "huge") request.body += `&pad=${"z".repeat(300_000)}`;
      } else if (g.encoding === "multipart") {
        headers["content-type"] = "multipart/form-data; boundary=fuzz";
        request.body = `${Object.entries(fields)
          .map(([k, v]) => `--fuzz\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
          .join("")}--fuzz--\r\n`;
      } else if (g.encoding === "broken-multipart") {
        headers["content-type"] = "multipart/form-data; boundary=fuzz";
        request.body = "--fuzz\r\nContent-Disposition: form-data\r\n\r\nno end";
      } else {
        headers["content-type"] = "application/json";
        request.body = JSON.stringify(fields);
      }
      return request;
    });
}

function headerSafe(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, "?").slice(0, 300);
}

/** The requests of a run: deterministic for a seed. */
function generateRequests(t: FuzzTarget, seed: number, count: number): FuzzRequest[] {
  const arb = fc.oneof(
    { weight: 4, arbitrary: operationArb(t) },
    { weight: 3, arbitrary: mcpArb(t) },
    { weight: 1, arbitrary: mcpStreamArb(t) },
    { weight: 1, arbitrary: feedArb(t) },
    { weight: 4, arbitrary: pageArb(t) },
  );
  return fc.sample(arb, { seed, numRuns: count });
}

/** Text a body must never show: a stack trace, SQL or database error text. */
const LEAKS: [RegExp, string][] = [
  [/\n\s+at [^\n]+:\d+:\d+/, "a stack trace"],
  [/node:internal|file:\/\/\/|\/src\/[a-z/-]+\.ts/, "a source path"],
  [
    /syntax error at or near|invalid byte sequence|violates [a-z ]*constraint|duplicate key value/i,
    "database error text",
  ],
  [
    /relation "[^"]+"|column "[^"]+" (?:does not|of relation)|SQLSTATE|\bPGlite\b|drizzle/i,
    "SQL text",
  ],
  [/\bselect\b[^<>\n]{0,80}\bfrom\b[^<>\n]{0,40}\bwhere\b/i, "SQL text"],
];

/** 503 is a contracted answer only where the contract names it. */
function allows503(r: FuzzRequest): boolean {
  return r.path.startsWith("/api/v1/search/semantic");
}

async function sendOnce(
  base: string,
  r: FuzzRequest,
): Promise<{ status: string; failure?: FuzzFailure }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  try {
    let res: Response;
    try {
      res = await fetch(`${base}${r.path}`, {
        method: r.method,
        headers: r.headers,
        ...(r.body !== undefined ? { body: r.body } : {}),
        redirect: "manual",
        signal: controller.signal,
      });
    } catch (error) {
      if (controller.signal.aborted) {
        return {
          status: "hang",
          failure: { request: r, reason: `no answer within ${TIMEOUT_MS} ms` },
        };
      }
      // The client itself refused to send it (an invalid header value, say): not the server's.
      if (error instanceof TypeError && !/fetch failed/.test(error.message)) {
        return { status: "unsendable" };
      }
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
      return { status: "reset", failure: { request: r, reason: `connection failed: ${cause}` } };
    }
    const status = String(res.status);
    // An event stream (an agent's GET /mcp) never ends by itself: its answer is its status and
    // headers; its body is let go.
    if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      await res.body?.cancel();
      return res.status >= 500
        ? { status, failure: { request: r, reason: `answered ${res.status}`, status: res.status } }
        : { status };
    }
    const text = await res.text();
    if (res.status >= 500 && !(res.status === 503 && allows503(r))) {
      return {
        status,
        failure: {
          request: r,
          reason: `answered ${res.status}`,
          status: res.status,
          excerpt: text.slice(0, 300),
        },
      };
    }
    for (const [pattern, what] of LEAKS) {
      const match = pattern.exec(text);
      if (match) {
        return {
          status,
          failure: {
            request: r,
            reason: `the body shows ${what}`,
            status: res.status,
            excerpt: text.slice(Math.max(0, match.index - 100), match.index + 200),
          },
        };
      }
    }
    return { status };
  } catch (error) {
    if (controller.signal.aborted) {
      return {
        status: "hang",
        failure: { request: r, reason: `body not finished within ${TIMEOUT_MS} ms` },
      };
    }
    return { status: "reset", failure: { request: r, reason: `reading failed: ${String(error)}` } };
  } finally {
    clearTimeout(timer);
  }
}

/** Sends the requests, `concurrency` at a time, and counts answers by status. */
export async function runFuzz(
  t: FuzzTarget,
  options: { seed: number; count: number; concurrency?: number },
): Promise<FuzzReport> {
  const requests = generateRequests(t, options.seed, options.count);
  const byStatus: Record<string, number> = {};
  const failures: FuzzFailure[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const r = requests[next++] as FuzzRequest;
      let outcome = await sendOnce(t.base, r);
      // A reset is replayed once, as HTTP clients do when a pooled keep-alive connection is
      // closed under them (on a machine loaded to ~15 on 2 cores that race showed up about once
      // in 20,000 requests; replaying each such request 30 times gave its normal answer every
      // time). The count is reported as "reset, replayed"; a second reset is a failure.
      if (outcome.status === "reset") {
        byStatus["reset, replayed"] = (byStatus["reset, replayed"] ?? 0) + 1;
        outcome = await sendOnce(t.base, r);
      }
      const { status, failure } = outcome;
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      if (failure) failures.push(failure);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  return { sent: requests.length, byStatus, failures };
}

/** A failure as a reproducible request (curl-like), for the log. */
export function describeFailure(f: FuzzFailure): string {
  const headers = Object.entries(f.request.headers)
    .map(([k, v]) => `  -H ${JSON.stringify(`${k}: ${v.slice(0, 120)}`)}`)
    .join("\n");
  const body =
    f.request.body === undefined
      ? ""
      : `\n  --data ${JSON.stringify(f.request.body.length > 500 ? `${f.request.body.slice(0, 500)}…(${f.request.body.length} chars)` : f.request.body)}`;
  return `${f.reason} [${f.request.family}]\ncurl -X ${f.request.method} ${JSON.stringify(f.request.path.slice(0, 600))}\n${headers}${body}${f.excerpt ? `\n  → ${JSON.stringify(f.excerpt)}` : ""}`;
}
