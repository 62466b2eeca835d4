/**
 * @module The catalog the migration copies from, on the engine under test: it lists every
 * table Drizzle's schema declares (so a new table can never be skipped), keys without
 * INCLUDE columns, generated columns, user triggers; the copy order respects foreign keys;
 * a schema the copy cannot reproduce is refused with every problem named.
 */
import { is, sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import * as schema from "../../db/schema/index.ts";
import { createTestDatabase } from "../../testing/db.ts";
import { type Catalog, dependencyOrder, readCatalog, type TableInfo } from "./catalog.ts";
import { MigrationRefused, planCopy } from "./migrate.ts";

let database: Database;
let catalog: Catalog;

beforeAll(async () => {
  database = await createTestDatabase();
  catalog = await readCatalog(database.db);
});
afterAll(async () => {
  await database?.close();
});

function table(name: string, references: string[] = []): TableInfo {
  return {
    name,
    columns: [{ name: "id", type: "integer", generated: false, identityAlways: false }],
    primaryKey: ["id"],
    references,
    triggers: [],
  };
}

describe("readCatalog", () => {
  it("lists exactly the tables of Drizzle's schema", () => {
    const declared = (Object.values(schema) as unknown[])
      .filter((value): value is PgTable => is(value, PgTable))
      .map((t) => getTableConfig(t).name)
      .sort();
    expect([...catalog.tables.keys()].sort()).toEqual(declared);
  });

  it("reads keys (without INCLUDE columns), generated columns, triggers and sequences", () => {
    expect(catalog.tables.get("search_postings")?.primaryKey).toEqual(["term", "chunk_id"]);
    expect(catalog.tables.get("idempotency_keys")?.primaryKey).toEqual(["agent_id", "key"]);
    const tsv = catalog.tables.get("chunks")?.columns.find((c) => c.name === "tsv");
    expect(tsv).toMatchObject({ type: "tsvector", generated: true });
    expect(catalog.tables.get("comments")?.triggers).toEqual([
      "comments_archive_changed",
      "comments_count",
    ]);
    expect(catalog.tables.get("reviews")?.triggers).toEqual([
      "reviews_archive_changed",
      "reviews_count",
    ]);
    expect(catalog.tables.get("paper_versions")?.triggers).toEqual([
      "paper_versions_archive_changed",
      "paper_versions_immutable",
    ]);
    expect(catalog.sequences).toEqual(["chunks_id_seq", "dataset_snapshots_id_seq"]);
    expect(catalog.indexes.get("papers_list_idx")).toMatch(/^CREATE INDEX papers_list_idx/);
  });
});

describe("dependencyOrder", () => {
  it("puts every table after the tables it references", () => {
    const order = dependencyOrder(catalog.tables).map((t) => t.name);
    expect(order).toHaveLength(catalog.tables.size);
    for (const t of catalog.tables.values()) {
      for (const r of t.references)
        expect(order.indexOf(r), `${t.name} → ${r}`).toBeLessThan(order.indexOf(t.name));
    }
    expect(order.indexOf("papers")).toBeLessThan(order.indexOf("paper_versions"));
    expect(order.indexOf("chunks")).toBeLessThan(order.indexOf("chunk_embeddings"));
  });

  it("refuses self-references and cycles instead of guessing", () => {
    expect(() => dependencyOrder(new Map([["a", table("a", ["a"])]]))).toThrow(
      /a references itself/,
    );
    expect(() =>
      dependencyOrder(
        new Map([
          ["a", table("a", ["b"])],
          ["b", table("b", ["a"])],
        ]),
      ),
    ).toThrow(/cycle among: a, b/);
  });
});

describe("planCopy", () => {
  it("accepts the same schema", () => {
    expect(planCopy(catalog, catalog).map((t) => t.name)).toContain("papers");
  });

  it("names every table, column and key the target cannot hold", () => {
    const source: Catalog = {
      ...catalog,
      tables: new Map(catalog.tables),
      sequences: [...catalog.sequences, "stray_seq"],
    };
    source.tables.set("stray_notes", table("stray_notes"));
    const owners = catalog.tables.get("owners") as TableInfo;
    source.tables.set("owners", {
      ...owners,
      columns: [
        ...owners.columns.map((c) =>
          c.name === "handle" ? { ...c, type: "character varying" } : c,
        ),
        { name: "nickname", type: "text", generated: false, identityAlways: false },
      ],
    });
    const sessions = catalog.tables.get("sessions") as TableInfo;
    source.tables.set("sessions", { ...sessions, primaryKey: [] });
    let error: unknown;
    try {
      planCopy(source, catalog);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MigrationRefused);
    const message = (error as Error).message;
    expect(message).toContain(
      "table stray_notes is in the source but not in this version's schema",
    );
    expect(message).toContain(
      "column owners.handle is character varying in the source, text in the target",
    );
    expect(message).toContain("column owners.nickname is missing from the target");
    expect(message).toContain("table sessions has no primary key");
    expect(message).toContain("sequence stray_seq is in the source only");
  });

  it("sees a table created outside the migrations", async () => {
    await database.db.execute(sql`create table stray_table (id integer primary key)`);
    try {
      const withStray = await readCatalog(database.db);
      expect(() => planCopy(withStray, catalog)).toThrow(/table stray_table is in the source/);
    } finally {
      await database.db.execute(sql`drop table stray_table`);
    }
  });
});
