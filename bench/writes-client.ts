/**
 * The load generator of `bench:writes`, run in a worker thread so it stays off the server's
 * event loop. One keep-alive HTTP/1.1 connection per agent, each sending
 * `POST /api/v1/papers/{id}/comments` with its own `Authorization` header and a body no
 * other request uses, the next request as soon as the answer is in (closed loop, like
 * autocannon). At the deadline no connection starts another request, and the answers in
 * flight are awaited, so every request the server took is counted: the comments stored
 * must then equal the 2xx answers exactly (autocannon drops requests in flight when it
 * stops, which would leave stored comments no answer accounts for).
 */
import { Agent, request } from "node:http";
import { parentPort, workerData } from "node:worker_threads";

export interface ClientJob {
  port: number;
  /** One agent key per connection. */
  keys: string[];
  paperIds: string[];
  seconds: number;
  /** Marks this phase's bodies (warm-up or measured run) so no two requests share one. */
  tag: string;
}

export interface ClientResult {
  /** Milliseconds per answered request (any status), in completion order. */
  latencies: number[];
  statuses: Record<string, number>;
  /** Socket errors and timeouts: no answer at all. */
  errors: number;
  firstError: string | null;
  /** The first non-2xx answer's body, to say why. */
  firstRefusal: string | null;
  /** Lowest `r` seen per RateLimit bucket over all connections ("writes" is per IP). */
  minRemaining: Record<string, number>;
  /** Lowest `r` of the per-agent "comments" bucket, per connection (agent). */
  commentsMinRemaining: (number | null)[];
  /** Wall time from the first request to the last answer. */
  elapsedMs: number;
}

const FILLER =
  "The method section reports a sensitivity analysis but not the variance across seeds; " +
  "a table with both would let readers judge whether the stated effect exceeds the noise. " +
  "The related-work paragraph could also cite the earlier reordering heuristics it extends.";

function post(
  agent: Agent,
  port: number,
  path: string,
  key: string,
  body: string,
): Promise<{ status: number; rateLimit: string | undefined; text: string | null }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const keep = status < 200 || status >= 300;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => {
          if (keep) chunks.push(chunk);
        });
        res.on("end", () => {
          const header = res.headers.ratelimit;
          resolve({
            status,
            rateLimit: Array.isArray(header) ? header.join(", ") : header,
            text: keep ? Buffer.concat(chunks).toString("utf8") : null,
          });
        });
        res.on("error", reject);
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error("no answer in 60 s")));
    req.on("error", reject);
    req.end(body);
  });
}

/** `"writes";r=9;t=3, "comments";r=4;t=600` → [["writes", 9], ["comments", 4]] */
function remainingByBucket(field: string): [string, number][] {
  const out: [string, number][] = [];
  for (const item of field.split(",")) {
    const match = /^\s*"([a-z]+)".*;r=(\d+)/.exec(item);
    if (match) out.push([match[1] as string, Number(match[2])]);
  }
  return out;
}

export async function runClient(job: ClientJob): Promise<ClientResult> {
  const result: ClientResult = {
    latencies: [],
    statuses: {},
    errors: 0,
    firstError: null,
    firstRefusal: null,
    minRemaining: {},
    commentsMinRemaining: job.keys.map(() => null),
    elapsedMs: 0,
  };
  const started = performance.now();
  const deadline = started + job.seconds * 1000;
  await Promise.all(
    job.keys.map(async (key, connection) => {
      // maxSockets 1: this agent's requests all go over one connection, one at a time.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let seq = 0; performance.now() < deadline; seq++) {
          const paperId = job.paperIds[(connection + seq) % job.paperIds.length];
          const body = JSON.stringify({
            body: `[${job.tag} ${connection}.${seq}] ${FILLER}`,
          });
          const t0 = performance.now();
          try {
            const answer = await post(
              agent,
              job.port,
              `/api/v1/papers/${paperId}/comments`,
              key,
              body,
            );
            result.latencies.push(performance.now() - t0);
            result.statuses[answer.status] = (result.statuses[answer.status] ?? 0) + 1;
            if (answer.text !== null && result.firstRefusal === null) {
              result.firstRefusal = `${answer.status} ${answer.text.slice(0, 300)}`;
            }
            for (const [bucket, r] of remainingByBucket(answer.rateLimit ?? "")) {
              result.minRemaining[bucket] = Math.min(result.minRemaining[bucket] ?? r, r);
              if (bucket === "comments") {
                const seen = result.commentsMinRemaining[connection];
                result.commentsMinRemaining[connection] =
                  seen === null || seen === undefined ? r : Math.min(seen, r);
              }
            }
          } catch (error) {
            result.errors++;
            result.firstError ??= error instanceof Error ? error.message : String(error);
          }
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  result.elapsedMs = performance.now() - started;
  return result;
}

if (parentPort && workerData) {
  const port = parentPort;
  runClient(workerData as ClientJob).then(
    (result) => port.postMessage({ ok: true, result }),
    (error: unknown) =>
      port.postMessage({ ok: false, error: error instanceof Error ? error.stack : String(error) }),
  );
}
