/**
 * @module The OAuth refusal: a domain error carrying the RFC 6749 (or RFC 7591, for
 * registration) error code to answer with.
 */
import { Invalid } from "../errors.ts";

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "invalid_target"
  | "access_denied"
  | "invalid_client_metadata"
  | "invalid_redirect_uri";

export class OAuthRefusal extends Invalid {
  constructor(
    readonly oauthCode: OAuthErrorCode,
    message: string,
  ) {
    super(message);
  }
}
