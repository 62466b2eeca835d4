/** @module A database's own description of itself (tables, keys, references, triggers, sequences, indexes), read the same way on PGlite and PostgreSQL. */
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rowsOf } from "../../db/sql.ts";

/** Quire's tables live in `public`; Drizzle's migration journal lives in `drizzle`. */
const SCHEMA = "public";

interface ColumnInfo {
  name: string;
  /** `format_type` of the column: what a text value is cast back to. */
  type: string;
  /** A generated column: computed by the engine, never written. */
  generated: boolean;
  /** `GENERATED ALWAYS AS IDENTITY`: written only with OVERRIDING SYSTEM VALUE. */
  identityAlways: boolean;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  /** Primary-key columns in key order (INCLUDE columns excluded). */
  primaryKey: string[];
  /** Tables this one references by foreign key (itself included, if it does). */
  references: string[];
  /** Enabled user triggers (not the engine's internal foreign-key triggers). */
  triggers: string[];
}

export interface Catalog {
  tables: Map<string, TableInfo>;
  sequences: string[];
  /** Index name → its `CREATE INDEX` statement. */
  indexes: Map<string, string>;
}

/** Reads the catalog of the `public` schema. */
export async function readCatalog(db: Db): Promise<Catalog> {
  const columns = await rowsOf<{
    table: string;
    column: string;
    type: string;
    generated: boolean;
    identity_always: boolean;
  }>(
    db,
    sql`select c.relname::text as "table", a.attname::text as "column",
               format_type(a.atttypid, a.atttypmod) as "type",
               a.attgenerated <> '' as "generated", a.attidentity = 'a' as "identity_always"
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        where n.nspname = ${SCHEMA} and c.relkind in ('r', 'p')
        order by c.relname, a.attnum`,
  );
  const keys = await rowsOf<{ table: string; column: string }>(
    db,
    sql`select c.relname::text as "table", a.attname::text as "column"
        from pg_index i
        join pg_class c on c.oid = i.indrelid
        join pg_namespace n on n.oid = c.relnamespace
        cross join lateral unnest(i.indkey::int2[]) with ordinality as k(attnum, ord)
        join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
        where n.nspname = ${SCHEMA} and i.indisprimary and k.ord <= i.indnkeyatts
        order by c.relname, k.ord`,
  );
  const references = await rowsOf<{ table: string; referenced: string }>(
    db,
    sql`select c.relname::text as "table", r.relname::text as "referenced"
        from pg_constraint k
        join pg_class c on c.oid = k.conrelid
        join pg_class r on r.oid = k.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and n.nspname = ${SCHEMA}
        order by 1, 2`,
  );
  const triggers = await rowsOf<{ table: string; trigger: string }>(
    db,
    sql`select c.relname::text as "table", t.tgname::text as "trigger"
        from pg_trigger t
        join pg_class c on c.oid = t.tgrelid
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${SCHEMA} and not t.tgisinternal and t.tgenabled <> 'D'
        order by 1, 2`,
  );
  const sequences = await rowsOf<{ name: string }>(
    db,
    sql`select c.relname::text as "name" from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${SCHEMA} and c.relkind = 'S' order by 1`,
  );
  const indexes = await rowsOf<{ name: string; definition: string }>(
    db,
    sql`select indexname::text as "name", indexdef as "definition"
        from pg_indexes where schemaname = ${SCHEMA} order by 1`,
  );

  const tables = new Map<string, TableInfo>();
  const table = (name: string): TableInfo => {
    let t = tables.get(name);
    if (!t) {
      t = { name, columns: [], primaryKey: [], references: [], triggers: [] };
      tables.set(name, t);
    }
    return t;
  };
  for (const c of columns) {
    table(c.table).columns.push({
      name: c.column,
      type: c.type,
      generated: c.generated,
      identityAlways: c.identity_always,
    });
  }
  for (const k of keys) tables.get(k.table)?.primaryKey.push(k.column);
  for (const r of references) tables.get(r.table)?.references.push(r.referenced);
  for (const t of triggers) tables.get(t.table)?.triggers.push(t.trigger);
  return {
    tables,
    sequences: sequences.map((s) => s.name),
    indexes: new Map(indexes.map((i) => [i.name, i.definition])),
  };
}

/**
 * Tables in an order where every table comes after the tables it references, so rows can
 * be inserted with foreign keys checked. Ties break by name, so the order is stable. A
 * table that references itself, or a cycle, has no such order: that is an error here,
 * not a silent mis-copy.
 */
export function dependencyOrder(tables: Map<string, TableInfo>): TableInfo[] {
  const order: TableInfo[] = [];
  const placed = new Set<string>();
  const pending = [...tables.values()].sort((a, b) => a.name.localeCompare(b.name));
  for (const t of pending) {
    if (t.references.includes(t.name)) {
      throw new Error(
        `table ${t.name} references itself; copying it needs an order within the table, which this tool does not have`,
      );
    }
  }
  while (order.length < pending.length) {
    const ready = pending.find(
      (t) => !placed.has(t.name) && t.references.every((r) => placed.has(r) || !tables.has(r)),
    );
    if (!ready) {
      const left = pending.filter((t) => !placed.has(t.name)).map((t) => t.name);
      throw new Error(`foreign keys form a cycle among: ${left.join(", ")}`);
    }
    order.push(ready);
    placed.add(ready.name);
  }
  return order;
}

/** `"public"."name"`, for statements built from catalog names. */
export function qualified(name: string): SQL {
  return sql`${sql.identifier(SCHEMA)}.${sql.identifier(name)}`;
}

/**
 * Session settings under which every type prints the same text on both engines (PGlite's
 * defaults are UTC and ISO; a server's may be anything), set for one transaction only.
 */
export const CANONICAL_OUTPUT = sql`select set_config('TimeZone', 'UTC', true),
  set_config('DateStyle', 'ISO, YMD', true), set_config('IntervalStyle', 'postgres', true),
  set_config('extra_float_digits', '1', true), set_config('bytea_output', 'hex', true)`;
