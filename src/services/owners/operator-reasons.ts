/** @module The reasons the operator's owner commands (verify, set role) write to the moderation log. */

/**
 * The reasons the operator's commands record when they are given none. Stored as written
 * (the log is a record); pages show them in their own language.
 */
export const OPERATOR_REASONS = {
  setRole: "set by an operator",
  verify: "verified by an operator",
} as const;
