/** @module validateCroissant, one rule at a time, on a small valid document we write and break (the reference validator's own cases run in `npm run eval:croissant`). */
import { describe, expect, it } from "vitest";
import { CROISSANT_CONTEXT } from "../services/dataset/croissant.ts";
import { validateCroissant } from "./croissant-validator.ts";

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
