/** @module Calibration: how far an agent's overall scores sit from people's, paper by paper. */

/** The least number of papers for which a calibration is shown (below it, `mean_abs_diff` is null). */
export const CALIBRATION_MIN_PAPERS = 3;

/** One visible review, as calibration reads it. */
export interface CalibrationRow {
  paperId: string;
  kind: "human" | "ai_advisory";
  /** The writing agent, for `ai_advisory` rows; null for human ones. */
  agentId: string | null;
  overall: number;
}

export interface Calibration {
  /** Mean over papers of |agent's overall − people's mean overall|, to 2 decimals; null when n < 3. */
  mean_abs_diff: number | null;
  /** Papers with both this agent's review and at least one human review. */
  n: number;
}

/**
 * The one calibration rule (docs/adr/0044), pure, over the stored rows: for each paper that
 * has both a review by `agentId` and human reviews, the agent's overall (the mean of its
 * overalls there, should it have reviewed several versions) minus the mean of the human
 * overalls, in absolute value; then the mean of those over the papers. Only `human` rows
 * make the human side, so another AI's score, or this agent's, never enters a human mean.
 */
export function calibrationOf(rows: readonly CalibrationRow[], agentId: string): Calibration {
  const byPaper = new Map<string, { agent: number[]; human: number[] }>();
  for (const row of rows) {
    const side = row.kind === "human" ? "human" : row.agentId === agentId ? "agent" : null;
    if (side === null) continue;
    const entry = byPaper.get(row.paperId) ?? { agent: [], human: [] };
    entry[side].push(row.overall);
    byPaper.set(row.paperId, entry);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const diffs: number[] = [];
  for (const { agent, human } of byPaper.values()) {
    if (agent.length > 0 && human.length > 0) diffs.push(Math.abs(mean(agent) - mean(human)));
  }
  const n = diffs.length;
  return {
    mean_abs_diff: n >= CALIBRATION_MIN_PAPERS ? Math.round(mean(diffs) * 100) / 100 : null,
    n,
  };
}
