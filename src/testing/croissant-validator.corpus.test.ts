/** @module validateCroissant against the reference validator's golden cases and examples (../shared/data: the full tier only, see vitest.config.ts). */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CROISSANT_CONTEXT } from "../services/dataset/croissant.ts";
import { validateCroissant } from "./croissant-validator.ts";

const EXAMPLES = new URL("../../../shared/data/croissant-examples/", import.meta.url);

interface Case {
  name: string;
  doc: unknown;
  /** The reference validator's report (tests only), split into its error and warning lines. */
  expected?: { errors: string[]; warnings: string[] };
}

function cases(group: string): Case[] {
  const root = new URL(`${group}/`, EXAMPLES);
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(new URL(`${d.name}/`, root), { withFileTypes: true })
        .filter((v) => v.isDirectory())
        .map((v) => new URL(`${d.name}/${v.name}/`, root)),
    )
    .map((dir) => {
      const name = dir.pathname.split("/").slice(-3, -1).join("/");
      const doc = JSON.parse(readFileSync(new URL("metadata.json", dir), "utf8")) as unknown;
      const output = new URL("output.txt", dir);
      return existsSync(output)
        ? { name, doc, expected: parseReport(readFileSync(output, "utf8")) }
        : { name, doc };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** mlcroissant prints "Found the following N error(s)…" / "…warning(s)…", then "  -  line"s. */
function parseReport(text: string): { errors: string[]; warnings: string[] } {
  const out = { errors: [] as string[], warnings: [] as string[] };
  let section: "errors" | "warnings" | null = null;
  for (const line of text.split("\n")) {
    if (/^Found the following \d+ error\(s\)/.test(line)) section = "errors";
    else if (/^Found the following \d+ warning\(s\)/.test(line)) section = "warnings";
    else if (section && /^\s+-\s+/.test(line))
      out[section].push(line.replace(/^\s+-\s+/, "").trim());
  }
  return out;
}

const goldens = cases("tests/graphs");
const examples = cases("datasets");

describe("the reference validator's test graphs", () => {
  it("are all found, and every one of them is a failure case", () => {
    expect(goldens.length).toBeGreaterThanOrEqual(15);
    for (const c of goldens) expect(c.expected?.errors.length, c.name).toBeGreaterThan(0);
  });

  for (const c of goldens) {
    it(`${c.name}: reports the reference's errors, exactly`, async () => {
      const report = await validateCroissant(c.doc);
      expect(report.errors.length, JSON.stringify(report.errors, null, 2)).toBeGreaterThan(0);
      expect([...report.errors].sort()).toEqual([...(c.expected?.errors ?? [])].sort());
      for (const warning of c.expected?.warnings ?? []) expect(report.warnings).toContain(warning);
    });
  }
});

describe("the published example datasets", () => {
  it("are all found", () => {
    expect(examples.length).toBeGreaterThanOrEqual(11);
  });

  for (const c of examples) {
    it(`${c.name}: validates with no errors`, async () => {
      const report = await validateCroissant(c.doc);
      expect(report.errors).toEqual([]);
    });
  }
});

/** A small valid 1.0 document to break one rule at a time. */
function minimal(): Record<string, unknown> {
  return {
    "@context": { ...CROISSANT_CONTEXT },
    "@type": "sc:Dataset",
    name: "minimal",
    description: "A minimal dataset.",
    conformsTo: "http://mlcommons.org/croissant/1.0",
    license: "https://creativecommons.org/licenses/by/4.0/",
    url: "https://example.org/minimal",
    creator: { "@type": "sc:Organization", name: "Example" },
    datePublished: "2026-01-01",
    version: "1.0.0",
    citeAs: "@misc{minimal}",
    keywords: ["example"],
    distribution: [
      {
        "@type": "cr:FileObject",
        "@id": "rows.jsonl",
        name: "rows.jsonl",
        contentUrl: "https://example.org/rows.jsonl",
        encodingFormat: "application/jsonlines",
        sha256: "a".repeat(64),
      },
    ],
    recordSet: [
      {
        "@type": "cr:RecordSet",
        "@id": "rows",
        name: "rows",
        key: { "@id": "rows/id" },
        field: [
          {
            "@type": "cr:Field",
            "@id": "rows/id",
            name: "id",
            dataType: "sc:Text",
            source: { fileObject: { "@id": "rows.jsonl" }, extract: { column: "id" } },
          },
        ],
      },
    ],
  };
}

type Doc = Record<string, unknown> & {
  distribution: Record<string, unknown>[];
  recordSet: (Record<string, unknown> & { field: Record<string, unknown>[] })[];
};

async function errorsOf(change: (doc: Doc) => void): Promise<string[]> {
  const doc = minimal() as Doc;
  change(doc);
  return (await validateCroissant(doc)).errors;
}

describe("rules beyond the golden cases", () => {
  it("accepts the minimal document without errors or warnings", async () => {
    expect(await validateCroissant(minimal())).toEqual({ errors: [], warnings: [] });
  });

  it("never fetches a remote @context, and says so", async () => {
    const errors = await errorsOf((d) => {
      d["@context"] = "https://mlcommons.org/croissant/context.jsonld";
    });
    expect(errors.join()).toMatch(/remote contexts.*not fetched/);
  });

  it("rejects non-objects and documents without a @context", async () => {
    expect((await validateCroissant([])).errors).toHaveLength(1);
    expect(
      await errorsOf((d) => {
        delete d["@context"];
      }),
    ).toEqual([expect.stringMatching(/no @context/)]);
  });

  it("requires conformsTo to name a Croissant version", async () => {
    expect(
      await errorsOf((d) => {
        delete d.conformsTo;
      }),
    ).toEqual([expect.stringMatching(/conformsTo" is mandatory/)]);
    expect(
      await errorsOf((d) => {
        d.conformsTo = "https://example.org/spec";
      }),
    ).toEqual([expect.stringMatching(/must be a Croissant specification URL/)]);
  });

  it("requires exactly one of sha256 and md5 on a FileObject outside a container", async () => {
    const distribution = (d: Doc) => d.distribution[0] as Record<string, unknown>;
    expect(await errorsOf((d) => delete distribution(d).sha256)).toEqual([
      expect.stringMatching(/none exists/),
    ]);
    expect(
      await errorsOf((d) => {
        distribution(d).md5 = "b".repeat(32);
      }),
    ).toEqual([expect.stringMatching(/both exist/)]);
    expect(
      await errorsOf((d) => {
        delete distribution(d).sha256;
        d.isLiveDataset = true;
      }),
    ).toEqual([]);
  });

  it("rejects duplicate @ids, unresolved keys' fields and dangling references", async () => {
    expect(
      await errorsOf((d) => {
        d.recordSet[0]?.field.push({ ...d.recordSet[0]?.field[0] });
      }),
    ).toEqual([expect.stringMatching(/@id "rows\/id" is also used/)]);
    expect(
      await errorsOf((d) => {
        const f = d.recordSet[0]?.field[0] as Record<string, unknown>;
        f.references = { field: { "@id": "nowhere/id" } };
      }),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Malformed references data: nowhere\/id/),
        expect.stringMatching(/reference to node with UUID "nowhere\/id"/),
      ]),
    );
  });

  it("checks inline data against the fields", async () => {
    const errors = await errorsOf((d) => {
      const rs = d.recordSet[0] as Record<string, unknown>;
      rs.data = [{ "rows/id": "a" }, { "rows/other": "b" }];
    });
    expect(errors).toEqual([expect.stringMatching(/Line #1 doesn't have the expected columns/)]);
  });

  it("checks extract, fileProperty, transforms and data types", async () => {
    const field = (d: Doc) => d.recordSet[0]?.field[0] as Record<string, unknown>;
    expect(
      await errorsOf((d) => {
        field(d).source = {
          fileObject: { "@id": "rows.jsonl" },
          extract: { column: "id", jsonPath: "$.id" },
        };
      }),
    ).toEqual([expect.stringMatching(/exactly one of column, jsonPath or fileProperty/)]);
    expect(
      await errorsOf((d) => {
        field(d).source = {
          fileObject: { "@id": "rows.jsonl" },
          extract: { fileProperty: "size" },
        };
      }),
    ).toEqual([expect.stringMatching(/fileProperty must be one of/)]);
    expect(
      await errorsOf((d) => {
        field(d).source = {
          fileObject: { "@id": "rows.jsonl" },
          extract: { column: "id" },
          transform: { nothing: "here" },
        };
      }),
    ).toEqual([expect.stringMatching(/A transform should have at least one of/)]);
    expect(
      await errorsOf((d) => {
        delete field(d).dataType;
      }),
    ).toEqual([expect.stringMatching(/does not specify a valid .*dataType/)]);
  });

  it("rejects a malformed license, creator, date and a non-Dataset root", async () => {
    expect(
      await errorsOf((d) => {
        d.license = 42;
      }),
    ).toEqual([expect.stringMatching(/Malformed license/)]);
    expect(
      await errorsOf((d) => {
        d.creator = { "@type": "sc:Place", name: "Somewhere" };
      }),
    ).toEqual([expect.stringMatching(/Person or .*Organization/)]);
    expect(
      await errorsOf((d) => {
        d.datePublished = "yesterday";
      }),
    ).toEqual([expect.stringMatching(/datePublished must be an ISO 8601/)]);
  });

  it("knows the RAI vocabulary and checks the rai prefix", async () => {
    const doc = minimal();
    doc["rai:dataBiases"] = ["Some bias."];
    doc["rai:dataBiasez"] = "typo";
    const report = await validateCroissant(doc);
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([
      expect.stringMatching(/Unknown Responsible-AI property rai:dataBiasez/),
    ]);
    const noPrefix = minimal();
    const context: Record<string, unknown> = { ...(noPrefix["@context"] as object) };
    delete context.rai;
    noPrefix["@context"] = context;
    noPrefix["rai:dataBiases"] = "x";
    expect((await validateCroissant(noPrefix)).errors).toEqual([
      expect.stringMatching(/does not define the "rai" prefix/),
    ]);
  });
});
