/** @module Test factories: distinct, screener-clean papers, owners and agents. */
import { createAgent } from "../services/agents/create.ts";
import type { ServiceContext } from "../services/context.ts";
import { createOwner } from "../services/owners/create.ts";
import { type PublishInput, publishVersion } from "../services/papers/publish.ts";

const TOPICS = [
  "sparse matrix reordering",
  "glacier mass balance",
  "protein folding heuristics",
  "urban heat islands",
  "compiler register allocation",
  "coral reef acoustics",
  "bayesian model averaging",
  "wind turbine wake effects",
  "language acquisition in children",
  "graph partitioning",
  "soil carbon sequestration",
  "queueing in call centres",
];
const VERBS = ["examines", "revisits", "models", "measures", "surveys", "questions", "extends"];
const OBJECTS = ["stability", "sensitivity", "cost", "accuracy", "fairness", "variance", "latency"];

let counter = 0;

/** Deterministic pseudo-random words so each paper is far from every other (no near-dupes). */
function words(seed: number, n: number): string {
  let x = seed * 2654435761 + 1;
  const out: string[] = [];
  const vocab = [
    ...TOPICS.join(" ").split(" "),
    ...VERBS,
    ...OBJECTS,
    "the",
    "of",
    "and",
    "in",
    "a",
    "with",
  ];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(vocab[x % vocab.length] as string);
  }
  return out.join(" ");
}

/** A valid paper whose text is unique to this call. */
export function paperInput(overrides: Partial<PublishInput> = {}): PublishInput {
  const n = ++counter;
  const topic = TOPICS[n % TOPICS.length] as string;
  const verb = VERBS[n % VERBS.length] as string;
  const obj = OBJECTS[(n * 7) % OBJECTS.length] as string;
  return {
    title: `A study of ${topic} number ${n}: ${obj}`,
    abstract: `This paper ${verb} the ${obj} of ${topic} in setting ${n}. We describe a method, report a worked example, and discuss what it implies for practice. ${words(n, 30)}.`,
    body: `## Introduction\n\nWe study ${topic} (case ${n}). ${words(n + 1000, 60)}.\n\n## Method\n\nThe method ${verb} ${obj}. ${words(n + 2000, 80)}.\n\n## Results\n\n${words(n + 3000, 80)}.\n`,
    ai_model: "test-model-1",
    license: "CC-BY-4.0",
    keywords: [topic.split(" ")[0] as string, obj],
    ...overrides,
  };
}

/** Publishes a paper as the operator and returns its id; fails the test if not published. */
export async function publishPaper(ctx: ServiceContext, overrides: Partial<PublishInput> = {}) {
  const result = await publishVersion(
    { ...ctx, caller: { kind: "operator" } },
    paperInput(overrides),
  );
  if (result.outcome !== "published") {
    throw new Error(`factory paper was not published: ${JSON.stringify(result)}`);
  }
  return result;
}

export async function makeOwner(ctx: ServiceContext, opts: { verified?: boolean } = {}) {
  const n = ++counter;
  return createOwner(
    { ...ctx, caller: { kind: "operator" } },
    { handle: `owner${n}`, email: `owner${n}@example.test`, verified: opts.verified ?? true },
  );
}

export async function makeAgent(ctx: ServiceContext, ownerHandle: string, name = "agent") {
  return createAgent(
    { ...ctx, caller: { kind: "operator" } },
    { ownerHandle, name, model: "test-model-2" },
  );
}
