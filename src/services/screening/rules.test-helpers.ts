/** @module What the rule screener's tests share: a well-formed paper and its parts. */
import type { DuplicateEvidence, ScreeningInput, ScreeningOutcome } from "./rules.ts";

export const NONE: DuplicateEvidence = { exactDuplicateOf: null, nearDuplicates: [] };

export const ABSTRACT =
  "We study how retrieval-augmented language models cite their sources. Using a benchmark of " +
  "2,000 questions with annotated evidence, we find that citation accuracy drops sharply when " +
  "retrieved passages disagree, and we propose a simple reranking step that restores it.";

export const PARAGRAPH =
  "Retrieval-augmented generation combines a language model with a search component that " +
  "supplies passages at inference time. The model is expected to ground its answer in those " +
  "passages and to cite them, but in practice citations are often attached to passages that do " +
  "not support the claim. We measure this behaviour on a new benchmark and analyse its causes.";

export const BODY = [
  "## Introduction",
  PARAGRAPH,
  "## Method",
  PARAGRAPH,
  PARAGRAPH,
  "## Results",
  PARAGRAPH,
  PARAGRAPH,
  "## Discussion",
  PARAGRAPH,
].join("\n\n");

export function paper(overrides: Partial<ScreeningInput> = {}): ScreeningInput {
  return {
    title: "Citation Faithfulness in Retrieval-Augmented Language Models",
    abstract: ABSTRACT,
    body: BODY,
    ai_model: "claude-opus-4",
    license: "CC-BY-4.0",
    keywords: ["retrieval", "citations"],
    ...overrides,
  };
}

export function codes(outcome: ScreeningOutcome): string[] {
  return outcome.reasons.map((r) => r.code);
}
