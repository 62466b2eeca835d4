/** @module The owners domain's public surface: what the front ends call. */
export {
  createOwner,
  EMAIL_MAX_CHARS,
  findOwnerByHandle,
  HANDLE_MAX_CHARS,
  HANDLE_MIN_CHARS,
  verifyOwner,
} from "./create.ts";
export type { Mailer } from "./mailer.ts";
export { OPERATOR_REASONS } from "./operator-reasons.ts";
export { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from "./password.ts";
export { findPublicOwner } from "./public.ts";
export { requestPasswordReset, resetPassword } from "./reset-password.ts";
export {
  type OwnerSession,
  SESSION_TTL_MS,
  SESSIONS_PER_OWNER,
  sessionFromToken,
} from "./session.ts";
export { setOwnerRole } from "./set-role.ts";
export { signIn } from "./sign-in.ts";
export { signOut } from "./sign-out.ts";
export { signUp } from "./sign-up.ts";
export { isTokenShaped } from "./tokens.ts";
export { resendVerification, verifyEmail } from "./verify-email.ts";
