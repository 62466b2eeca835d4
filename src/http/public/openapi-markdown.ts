/** @module Renders the OpenAPI document as a Markdown API reference (for /llms-full.txt). */

type Json = Record<string, unknown>;

interface Doc {
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, Json | undefined> | undefined>;
  components?: { schemas?: Record<string, Json> };
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/**
 * One section per operation (parameters with their bounds and defaults, body fields,
 * responses) and one per named schema. Generated, so it cannot drift from the routes.
 */
export function openApiToMarkdown(document: unknown): string {
  const doc = document as Doc;
  const schemas = doc.components?.schemas ?? {};
  const out: string[] = [];
  out.push(`## Endpoints (OpenAPI ${doc.info?.version ?? ""})`, "");
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      out.push(`### ${method.toUpperCase()} ${path}`, "");
      if (op.summary) out.push(String(op.summary), "");
      if (op.description) out.push(String(op.description), "");
      const security = op.security as unknown[] | undefined;
      out.push(
        `Auth: ${security && security.length > 0 ? "`Authorization: Bearer <agent key>`" : "none (public)"}`,
        "",
      );
      const params = (op.parameters as Json[] | undefined) ?? [];
      if (params.length > 0) {
        out.push(
          "| Parameter | In | Type | Required | Constraints | Description |",
          "|---|---|---|---|---|---|",
        );
        for (const p of params) {
          const schema = (p.schema as Json | undefined) ?? {};
          out.push(
            `| \`${p.name}\` | ${p.in} | ${typeOf(schema, schemas)} | ${p.required ? "yes" : "no"} | ${constraints(schema)} | ${cell(p.description ?? schema.description)} |`,
          );
        }
        out.push("");
      }
      const body = (op.requestBody as Json | undefined)?.content as
        | Record<string, Json>
        | undefined;
      const bodySchema = body?.["application/json"]?.schema as Json | undefined;
      if (bodySchema) {
        out.push(
          "Request body (`application/json`):",
          "",
          ...fieldsTable(resolve(bodySchema, schemas), schemas),
          "",
        );
      }
      const responses = (op.responses as Record<string, Json> | undefined) ?? {};
      out.push("Responses:", "");
      for (const [status, response] of Object.entries(responses)) {
        const types = Object.keys((response.content as Json | undefined) ?? {});
        out.push(
          `- **${status}** ${response.description ?? ""}${types.length ? ` (${types.map((t) => `\`${t}\``).join(", ")})` : ""}`,
        );
      }
      out.push("");
    }
  }
  out.push("## Schemas", "");
  for (const [name, schema] of Object.entries(schemas)) {
    out.push(`### ${name}`, "");
    if (schema.description) out.push(String(schema.description), "");
    out.push(...fieldsTable(schema, schemas), "");
  }
  return out.join("\n");
}

function resolve(schema: Json, schemas: Record<string, Json>): Json {
  const ref = schema.$ref;
  if (typeof ref === "string") return schemas[ref.split("/").pop() ?? ""] ?? schema;
  return schema;
}

function fieldsTable(schema: Json, schemas: Record<string, Json>): string[] {
  const props = schema.properties as Record<string, Json> | undefined;
  if (!props) return [`Type: ${typeOf(schema, schemas)}`];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const rows = ["| Field | Type | Required | Constraints | Description |", "|---|---|---|---|---|"];
  for (const [name, prop] of Object.entries(props)) {
    rows.push(
      `| \`${name}\` | ${typeOf(prop, schemas)} | ${required.has(name) ? "yes" : "no"} | ${constraints(prop)} | ${cell(prop.description)} |`,
    );
  }
  return rows;
}

function typeOf(schema: Json, schemas: Record<string, Json>): string {
  if (typeof schema.$ref === "string") return String(schema.$ref.split("/").pop());
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `\`${v}\``).join(" \\| ");
  if (Array.isArray(schema.anyOf))
    return (schema.anyOf as Json[]).map((s) => typeOf(s, schemas)).join(" \\| ");
  const type = Array.isArray(schema.type)
    ? schema.type.join(" \\| ")
    : String(schema.type ?? "any");
  if (type === "array" && schema.items) return `array of ${typeOf(schema.items as Json, schemas)}`;
  return schema.format ? `${type} (${schema.format})` : type;
}

function constraints(schema: Json): string {
  const parts: string[] = [];
  if (schema.minimum !== undefined) parts.push(`min ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`max ${schema.maximum}`);
  if (schema.minLength !== undefined) parts.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) parts.push(`max length ${schema.maxLength}`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(", ");
}

function cell(value: unknown): string {
  return value === undefined ? "" : String(value).replace(/\|/g, "\\|").replace(/\n/g, " ");
}
