/**
 * @module Every public API response of one fixed archive (the sample papers + 300 arXiv
 * abstracts, with owners, agents, comments, reviews), each asked plainly, with
 * `Accept-Encoding: br, gzip` and with `If-None-Match` of its own ETag, written as JSON:
 * status, every header, and a digest of the body bytes. Two checkouts run it over the same
 * archive directory and `diff` the outputs, to show a change kept every response identical.
 *
 *   npx tsx scripts/api-snapshot.ts <archive-dir> <out.json>   # the archive is made on first use
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pino } from "pino";
import { buildApp } from "../src/app.ts";
import { openDatabase } from "../src/db/client.ts";
import { createHttpEmbedder } from "../src/services/search/embedder.ts";
import { collectApiResponses, EXACT_DENSE } from "../src/testing/api-responses.ts";
import {
  ARCHIVE_MODEL,
  type PopulatedArchive,
  populateArchive,
  SEARCH_QUERIES,
} from "../src/testing/archive.ts";
import { fixedClock, testContext } from "../src/testing/db.ts";
import { startFakeEmbeddingServer } from "../src/testing/embeddings-server.ts";

const [root, out] = process.argv.slice(2);
if (!root || !out) throw new Error("usage: tsx scripts/api-snapshot.ts <archive-dir> <out.json>");
const dataDir = join(root, "data");
const factsFile = join(root, "facts.json");

const embeddings = await startFakeEmbeddingServer(64);
const embedder = () => createHttpEmbedder({ url: embeddings.url, model: ARCHIVE_MODEL });
try {
  if (!existsSync(factsFile)) {
    mkdirSync(root, { recursive: true });
    const database = await openDatabase({ dataDir });
    try {
      const archive = await populateArchive(testContext(database, { embedder: embedder() }), {
        abstracts: 300,
      });
      writeFileSync(factsFile, JSON.stringify(archive));
    } finally {
      await database.close();
    }
  }
  const archive = JSON.parse(readFileSync(factsFile, "utf8")) as PopulatedArchive;
  const database = await openDatabase({ dataDir });
  try {
    const app = buildApp({
      services: testContext(database, {
        clock: fixedClock(new Date("2026-11-21T12:00:00.000Z")),
        embedder: embedder(),
        search: EXACT_DENSE,
      }),
      logger: pino({ level: "silent" }),
      baseUrl: "http://quire.test",
      trustProxy: [],
    });
    const records: Record<string, unknown> = {};
    const ask = async (path: string, init: RequestInit = {}) => {
      const res = await app.request(path, init);
      const bytes = Buffer.from(await res.arrayBuffer());
      return {
        res: new Response(bytes.length > 0 ? bytes : null, res),
        record: {
          status: res.status,
          headers: Object.fromEntries(res.headers),
          body: `${bytes.length} bytes sha256 ${createHash("sha256").update(bytes).digest("hex")}`,
        },
      };
    };
    const fetcher = async (path: string, init?: RequestInit) => {
      const headers = { ...(init?.headers as Record<string, string> | undefined) };
      const plain = await ask(path, { headers });
      const encoded = await ask(path, {
        headers: { ...headers, "accept-encoding": "br, gzip" },
      });
      const tag = plain.record.headers.etag;
      const conditional = tag
        ? (await ask(path, { headers: { ...headers, "if-none-match": tag } })).record
        : null;
      const key = `${path} ${JSON.stringify(headers)}`;
      records[key] = { plain: plain.record, encoded: encoded.record, conditional };
      return plain.res;
    };
    const responses = await collectApiResponses(fetcher, {
      queries: SEARCH_QUERIES,
      modes: ["lexical", "hybrid", "semantic"],
      extraIds: archive.hidden,
      agentKeys: archive.agentKeys,
    });
    const sorted = Object.fromEntries(
      Object.entries(records).sort(([a], [b]) => a.localeCompare(b)),
    );
    writeFileSync(
      out,
      `${JSON.stringify({ requests: responses.size, responses: sorted }, null, 1)}\n`,
    );
    process.stdout.write(`${Object.keys(sorted).length} requests recorded in ${out}\n`);
  } finally {
    await database.close();
  }
} finally {
  await embeddings.close();
}
