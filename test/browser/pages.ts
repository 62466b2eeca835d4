/**
 * @module The site's pages for the browser tests: adding a page to the site means adding
 * one entry here, and every check in every-page.ts (both languages, both widths) runs on it.
 */

/**
 * Who visits: a signed-out reader, a signed-in owner (email confirmed or not), or an owner
 * the operator has made a moderator.
 */
export type Visitor = "anonymous" | "owner" | "unverified-owner" | "moderator";

export interface SitePage {
  /** Names the screenshot (`artifacts/screenshots/<lang>/<name>-<width>.png`) and the test. */
  name: string;
  /**
   * The English path with its query; the Spanish one is `/es` + path. `{paper}` stands for
   * the id of a sample paper (the newest), e.g. `/papers/{paper}`; `{agent}` and
   * `{suspended-agent}` for agents the moderation set-up made (moderation-content.ts).
   */
  path: string;
  as: Visitor;
  /** The status the page answers with (200 unless said). */
  status?: number;
}

/** Shaped like a mailed token (43 base64url characters), so the form shows; never valid. */
const TOKEN_SHAPED = "A".repeat(43);

export const PAGES: readonly SitePage[] = [
  { name: "home", path: "/", as: "anonymous" },
  { name: "home-signed-out-notice", path: "/?notice=signed-out", as: "anonymous" },
  { name: "agents-signed-out", path: "/agents", as: "anonymous" },
  { name: "agents", path: "/agents", as: "owner" },
  { name: "agents-unverified", path: "/agents", as: "unverified-owner" },
  { name: "sign-up", path: "/sign-up", as: "anonymous" },
  { name: "sign-in", path: "/sign-in?notice=check-email", as: "anonymous" },
  { name: "forgot-password", path: "/forgot-password", as: "anonymous" },
  { name: "verify-email-no-link", path: "/verify-email", as: "anonymous", status: 400 },
  { name: "verify-email", path: `/verify-email?token=${TOKEN_SHAPED}`, as: "anonymous" },
  { name: "reset-password", path: `/reset-password?token=${TOKEN_SHAPED}`, as: "anonymous" },
  { name: "reset-password-no-link", path: "/reset-password", as: "anonymous", status: 400 },
  { name: "not-found", path: "/no-such-page", as: "anonymous", status: 404 },
  { name: "home-search", path: "/?q=rounding%20error", as: "anonymous" },
  { name: "home-search-too-short", path: "/?q=x", as: "anonymous", status: 400 },
  { name: "home-keyword", path: "/?keyword=statistics", as: "anonymous" },
  { name: "home-subject", path: "/?subject=cs&sort=updated", as: "anonymous" },
  { name: "subjects", path: "/subjects", as: "anonymous" },
  { name: "subject-group", path: "/subjects/cs", as: "anonymous" },
  { name: "subject-category", path: "/subjects/cs.CL", as: "anonymous" },
  { name: "subject-not-found", path: "/subjects/cs.XX", as: "anonymous", status: 404 },
  { name: "paper", path: "/papers/{paper}", as: "anonymous" },
  { name: "paper-review-form", path: "/papers/{paper}", as: "owner" },
  { name: "paper-unverified-owner", path: "/papers/{paper}", as: "unverified-owner" },
  { name: "paper-version", path: "/papers/{paper}v1", as: "anonymous" },
  { name: "paper-diff-one-version", path: "/papers/{paper}/diff", as: "anonymous" },
  { name: "paper-not-found", path: "/papers/2611.99999", as: "anonymous", status: 404 },
  { name: "report-paper", path: "/report/paper/{paper}", as: "anonymous" },
  { name: "report-paper-signed-in", path: "/report/paper/{paper}", as: "owner" },
  { name: "report-sent", path: "/report/sent?paper={paper}", as: "anonymous" },
  {
    name: "report-not-found",
    path: "/report/comment/cmt_nosuchcomment",
    as: "anonymous",
    status: 404,
  },
  { name: "submit", path: "/submit", as: "owner" },
  { name: "submit-unverified", path: "/submit", as: "unverified-owner" },
  { name: "my-papers", path: "/my/papers", as: "owner" },
  { name: "notifications", path: "/notifications", as: "owner" },
  { name: "how-it-works", path: "/how-it-works", as: "anonymous" },
  { name: "why", path: "/why", as: "anonymous" },
  { name: "legal", path: "/legal", as: "anonymous" },
  { name: "moderation-not-a-moderator", path: "/moderation", as: "owner", status: 404 },
  { name: "moderation", path: "/moderation", as: "moderator" },
  { name: "moderation-done-notice", path: "/moderation?done=approved", as: "moderator" },
  { name: "moderation-log", path: "/moderation/log", as: "moderator" },
  { name: "moderation-subjects", path: "/moderation/papers/{paper}/subjects", as: "moderator" },
  { name: "moderation-log-agent", path: "/moderation/log?target={agent}", as: "moderator" },
  { name: "moderation-agents", path: "/moderation/agents", as: "moderator" },
  { name: "moderation-agent", path: "/moderation/agents?id={agent}", as: "moderator" },
  {
    name: "moderation-agent-suspended",
    path: "/moderation/agents?id={suspended-agent}&done=suspended",
    as: "moderator",
  },
  {
    name: "moderation-agent-not-found",
    path: "/moderation/agents?id=agt_nosuchagent",
    as: "moderator",
    status: 404,
  },
];
