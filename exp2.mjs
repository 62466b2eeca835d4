import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { writeFileSync, mkdirSync, cpSync, rmSync } from "node:fs";
import { createServer } from "node:net";
const mode = process.argv[2];
rmSync("/tmp/opsdata-exp/d3", { recursive: true, force: true });
cpSync("/tmp/opsdata-exp/d1", "/tmp/opsdata-exp/d3", { recursive: true });
if (mode.includes("pid")) writeFileSync("/tmp/opsdata-exp/d3/quire.pid", "123");
let srv;
if (mode.includes("sock")) { mkdirSync("/tmp/opsdata-exp/d3/admin", { mode: 0o700 });
srv = createServer(() => {}); await new Promise(r => srv.listen("/tmp/opsdata-exp/d3/admin/q.sock", r)); }
const p = await PGlite.create("/tmp/opsdata-exp/d3", { extensions: { vector } });
console.log("opened");
const blob = await p.dumpDataDir("gzip");
writeFileSync("/tmp/opsdata-exp/dump3.tgz", Buffer.from(await blob.arrayBuffer()));
console.log((await p.query("select system_identifier::text from pg_control_system()")).rows);
console.log((await p.query("show timezone")).rows, (await p.query("select datcollate from pg_database")).rows);
await p.close(); srv?.close();
