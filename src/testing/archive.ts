/**
 * @module Test support: an archive with something in every table (sample papers, generated
 * abstracts through the import service, owners, sessions, agents, comments, reviews,
 * moderation, reader reports, OAuth clients, grants and tokens, MCP resource subscriptions,
 * embeddings and their queue, a dataset snapshot), for the migrate and backup tests and the
 * migrate benchmark.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { syntheticPapers } from "../../test/fixtures/synthetic-papers.ts";
import { buildApp } from "../app.ts";
import { type Database, openDatabase } from "../db/client.ts";
import { rowsOf } from "../db/sql.ts";
import { setAgentStatus } from "../services/agents/set-status.ts";
import type { ServiceContext } from "../services/context.ts";
import { createComment } from "../services/contributions/create-comment.ts";
import { createHumanReply } from "../services/contributions/create-human-reply.ts";
import { createHumanReview } from "../services/contributions/create-human-review.ts";
import { createReview } from "../services/contributions/create-review.ts";
import { voteReview } from "../services/contributions/vote-review.ts";
import { currentSnapshot } from "../services/dataset/snapshot.ts";
import { deliverNotificationMail } from "../services/notifications/mail.ts";
import { setMailPreferences } from "../services/notifications/preferences.ts";
import {
  createAuthorizationRequest,
  decideAuthorization,
  exchangeCode,
  registerClient,
} from "../services/oauth/index.ts";
import { createOwner } from "../services/owners/create.ts";
import { signIn } from "../services/owners/sign-in.ts";
import { signUp } from "../services/owners/sign-up.ts";
import { importPapers } from "../services/papers/import.ts";
import { publishVersion } from "../services/papers/publish.ts";
import { seedSamplePapers } from "../services/papers/seed.ts";
import { fileReport, resolveReport } from "../services/reports/index.ts";
import { createHttpEmbedder, type Embedder } from "../services/search/embedder.ts";
import { prepareSearch } from "../services/search/prepare.ts";
import { drainEmbeddingQueue } from "../services/search/worker.ts";
import { newSessionId, subscribeResource } from "../services/subscriptions/index.ts";
import { removeContribution, setPaperStatus } from "./agents.ts";
import { type ApiResponses, collectApiResponses, EXACT_DENSE } from "./api-responses.ts";
import { fixedClock, testContext } from "./db.ts";
import { type FakeEmbeddingServer, startFakeEmbeddingServer } from "./embeddings-server.ts";
import { makeAgent, paperInput } from "./factories.ts";
import { publishFigurePaper } from "./figure-papers.ts";

/** Queries with hits in the generated abstracts and the sample papers. */
export const SEARCH_QUERIES = [
  "retrieval evaluation benchmark",
  "gradient descent error bound",
  "river runoff in a mountain basin",
  "write-ahead logging",
];

export interface PopulatedArchive {
  /** Published papers' ids, as the list returns them. */
  published: number;
  /** Ids of papers that are not published (withdrawn), which the API must 404 alike. */
  hidden: string[];
  /** Keys of agents: two verified (alice's, bob's), then a suspended one. */
  agentKeys: [string, string, string];
  imported: { published: number; ms: number };
}

/**
 * Fills the database behind `ctx` (which should carry an embedder, so vectors exist).
 * `abstracts` generated papers (test/fixtures/synthetic-papers.ts) are imported with `importPapers`, a third of them owned.
 */
export async function populateArchive(
  ctx: ServiceContext,
  options: { abstracts: number; onImported?: (done: number) => void },
): Promise<PopulatedArchive> {
  const op: ServiceContext = { ...ctx, caller: { kind: "operator" } };
  await seedSamplePapers(op);
  const alice = await createOwner(op, {
    handle: "alice",
    email: "alice@example.test",
    verified: true,
  });
  const bob = await createOwner(op, { handle: "bob", email: "bob@example.test", verified: true });
  await createOwner(op, { handle: "carol", email: "carol@example.test", verified: false });
  // An owner with a password, a pending verification token and a session.
  await signUp(ctx, {
    email: "dora@example.test",
    handle: "dora",
    password: "correct horse battery",
    lang: "en",
    ip: "192.0.2.1",
  });
  await signIn(ctx, {
    email: "dora@example.test",
    password: "correct horse battery",
    ip: "192.0.2.1",
  });

  const lines: string[] = [];
  let n = 0;
  for (const paper of syntheticPapers(options.abstracts, 29)) {
    lines.push(
      JSON.stringify({
        title: paper.title,
        abstract: paper.abstract,
        body: "",
        ai_model: "test-model",
        license: "CC-BY-4.0",
        keywords: paper.keywords,
        published_at: `${paper.day}T12:00:00.000Z`,
        ...(n++ % 3 === 0 ? { owner: "alice" } : {}),
      }),
    );
  }
  const started = performance.now();
  let done = 0;
  const summary = await importPapers(op, lines, () => options.onImported?.(++done));
  const imported = { published: summary.published, ms: Math.round(performance.now() - started) };

  // The newest papers, as the list shows them first, get the contributions.
  const listed = await rowsOf<{ id: string }>(
    ctx.db,
    sql`select id from papers where status = 'published'
        order by published_at desc, id desc limit 12`,
  );
  const ids = listed.map((r) => r.id);
  const [first, second, third, ...rest] = ids as [string, string, string, ...string[]];

  // A second version, so versions, chunks and counters have more than one of everything.
  const revision = await publishVersion(op, {
    ...paperInput(),
    paperId: first,
    changelog: "Clarified the method section.",
  });
  if (revision.outcome !== "published") throw new Error(`revision: ${JSON.stringify(revision)}`);

  const writer = await makeAgent(ctx, "alice", "reader-one");
  const critic = await makeAgent(ctx, "bob", "critic");
  const suspended = await makeAgent(ctx, "bob", "suspended-one");
  await setAgentStatus(op, { agentId: suspended.id, status: "suspended", reason: "test" });
  const asAgent = (agent: { id: string }): ServiceContext => ({
    ...ctx,
    caller: {
      kind: "agent",
      agentId: agent.id,
      keyId: "unused",
      ownerId: agent.id === writer.id ? alice.id : bob.id,
      status: "verified",
    },
  });
  const comments: string[] = [];
  for (const [i, id] of [first, second, third, ...rest].entries()) {
    const posted = await createComment(asAgent(i % 2 === 0 ? writer : critic), {
      paperId: id,
      body: `Comment ${i}: the evaluation in section ${i + 1} needs a baseline.`,
      ...(i % 3 === 0 ? { idempotencyKey: `comment-${i}` } : {}),
    });
    comments.push(posted.body.comment.id);
  }
  await removeContribution(ctx, "comment", comments[1] as string);
  const scores = { soundness: 3, presentation: 2, contribution: 3, confidence: 4, overall: 6 };
  const reviewIds: string[] = [];
  for (const [i, id] of [first, second, third].entries()) {
    const posted = await createReview(asAgent(writer), {
      paperId: id,
      review: { ...scores, overall: 5 + i, body: `Advisory review ${i}.` },
      idempotencyKey: `review-${i}`,
    });
    reviewIds.push(posted.body.review.id);
  }
  const secondOpinion = await createReview(asAgent(critic), {
    paperId: first,
    review: { ...scores, body: "A second advisory opinion." },
  });
  // The discussion (ADR 0044): a person's reply, a helpful vote, a version that addresses a
  // review; each records its notifications (ADR 0045).
  const asOwner = (owner: { id: string; handle: string }): ServiceContext => ({
    ...ctx,
    caller: { kind: "owner", ownerId: owner.id, handle: owner.handle, role: "owner" },
  });
  await createHumanReply(asOwner(bob), {
    paperId: first,
    body: "Which baseline would you suggest?",
    inReplyTo: reviewIds[0],
  });
  await voteReview(asOwner(alice), {
    reviewId: secondOpinion.body.review.id,
    vote: "helpful",
  });
  const addressing = await publishVersion(op, {
    ...paperInput(),
    paperId: first,
    changelog: "Added the baseline the review asked for.",
    addresses: [reviewIds[0] as string],
  });
  if (addressing.outcome !== "published") {
    throw new Error(`addressing revision: ${JSON.stringify(addressing)}`);
  }
  await createHumanReview(
    { ...ctx, caller: { kind: "owner", ownerId: bob.id, handle: "bob", role: "owner" } },
    { paperId: second, review: { ...scores, overall: 7, body: "A human reading." } },
  );

  // Reader reports: one still open (by bob), one a moderator (the operator) resolved.
  const reportFrom = { address: "192.0.2.1" };
  await fileReport(
    { ...ctx, caller: { kind: "owner", ownerId: bob.id, handle: "bob", role: "owner" } },
    { targetType: "comment", targetId: comments[0] as string, reason: "abuse", note: "Rude." },
    reportFrom,
  );
  const reported = await fileReport(
    ctx,
    { targetType: "paper", targetId: third, reason: "plagiarism" },
    reportFrom,
  );
  await resolveReport(op, { reportId: reported.id, outcome: "dismissed", reason: "Cited." });

  // An app connected to alice's agent by OAuth (client, grant, tokens), and a request that
  // still waits for the owner's consent.
  const redirectUri = "http://127.0.0.1:8765/callback";
  const client = await registerClient(op, {
    client_id: "archive-client",
    client_name: "Archive test client",
    redirect_uris: [redirectUri],
  });
  const codeChallenge = createHash("sha256").update("archive-code-verifier").digest("base64url");
  await createAuthorizationRequest(op, { client, params: { codeChallenge, redirectUri } });
  const approval = await createAuthorizationRequest(op, {
    client,
    params: { codeChallenge, redirectUri },
  });
  const decided = await decideAuthorization(
    { ...ctx, caller: { kind: "owner", ownerId: alice.id, handle: "alice", role: "owner" } },
    { requestId: approval.requestId, approve: true, agentId: writer.id },
  );
  const code = new URL(decided.redirectTo).searchParams.get("code");
  if (!code) throw new Error(`no code in ${decided.redirectTo}`);
  await exchangeCode(op, { clientId: client.client_id, code, redirectUri });

  // Mail choices, and a daily digest sent (its claim row) through a mailer that only logs.
  await setMailPreferences(asOwner(alice), { digest: true, immediate: ["review"], lang: "en" });
  const tomorrow = fixedClock(new Date(ctx.clock.now().getTime() + 24 * 3600_000));
  await deliverNotificationMail({
    ...op,
    clock: tomorrow,
    mailer: { kind: "log", send: async () => {}, close: async () => {} },
  });

  // An MCP client of the writer's subscribed to its inbox and a paper's discussion (ADR 0051).
  const session = newSessionId();
  for (const uri of ["quire://me/notifications", `quire://papers/${first}/discussion`]) {
    await subscribeResource(asAgent(writer), { sessionId: session, uri });
  }

  // A paper with a figure and a supplementary file (the files and version_files tables).
  await publishFigurePaper(op);

  const hidden = rest.at(-1) as string;
  await setPaperStatus(ctx, hidden, "withdrawn");

  // Vectors for every chunk, then one more paper whose chunks stay queued.
  await prepareSearch(ctx);
  await drainEmbeddingQueue(ctx);
  const late = await publishVersion(op, paperInput());
  if (late.outcome !== "published") throw new Error(`late paper: ${JSON.stringify(late)}`);
  await currentSnapshot(ctx);

  const [published] = await rowsOf<{ n: number }>(
    ctx.db,
    sql`select count(*)::int as n from papers where status = 'published'`,
  );
  return {
    published: Number(published?.n ?? 0),
    hidden: [hidden],
    agentKeys: [writer.key, critic.key, suspended.key],
    imported,
  };
}

/** The fake embedding model the populated archives are made with (64 dimensions). */
export const ARCHIVE_MODEL = "fake-64";

export interface EmbeddedArchive {
  /** A temporary directory holding `dataDir`; tests put their other files here. */
  root: string;
  /** The PGlite DATA_DIR, populated and closed. */
  dataDir: string;
  archive: PopulatedArchive;
  /** A new client of the fake model that made the archive's vectors. */
  embedder(): Embedder;
  /** Stops the model and deletes `root`. */
  close(): Promise<void>;
}

/**
 * A populated embedded archive in a fresh temporary DATA_DIR (`<prefix>…/data`), with the
 * fake embedding server that made its vectors still running for the comparisons.
 */
export async function embeddedArchive(
  prefix: string,
  options: { abstracts: number },
): Promise<EmbeddedArchive> {
  const embeddings: FakeEmbeddingServer = await startFakeEmbeddingServer(64);
  const embedder = () => createHttpEmbedder({ url: embeddings.url, model: ARCHIVE_MODEL });
  const root = mkdtempSync(join(tmpdir(), prefix));
  const close = async () => {
    await embeddings.close();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const dataDir = join(root, "data");
    const database = await openDatabase({ dataDir });
    try {
      const archive = await populateArchive(testContext(database, { embedder: embedder() }), {
        abstracts: options.abstracts,
      });
      return { root, dataDir, archive, embedder, close };
    } finally {
      await database.close();
    }
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Every public API response of the app over `database` at one fixed instant, with exact
 * dense search (so two databases with the same rows answer alike whatever their HNSW graph):
 * what the migrate and backup tests and the migrate benchmark compare.
 */
export function archiveResponses(
  database: Database,
  archive: PopulatedArchive,
  embedder: Embedder,
  options: { withAgentKeys?: boolean; sample?: number } = {},
): Promise<ApiResponses> {
  const app = buildApp({
    services: testContext(database, {
      clock: fixedClock(new Date("2026-11-21T12:00:00.000Z")),
      embedder,
      search: EXACT_DENSE,
    }),
    logger: pino({ level: "silent" }),
    baseUrl: "http://quire.test",
    trustProxy: [],
  });
  return collectApiResponses((path, init) => Promise.resolve(app.request(path, init)), {
    queries: SEARCH_QUERIES,
    modes: ["lexical", "hybrid", "semantic"],
    extraIds: archive.hidden,
    ...(options.withAgentKeys ? { agentKeys: archive.agentKeys } : {}),
    ...(options.sample ? { sample: options.sample } : {}),
  });
}
