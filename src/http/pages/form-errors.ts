/** @module Service field issues in the page's language (services speak English; pages translate). */

import type { FieldIssue } from "../../services/errors.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../services/owners/index.ts";
import type { Page } from "./page.ts";

export type FieldErrors = Record<string, string>;

/** One translated message per failed field, keyed by the field's name. */
export function translateIssues(p: Page, issues: readonly FieldIssue[]): FieldErrors {
  const { t } = p;
  const out: FieldErrors = {};
  for (const issue of issues) {
    if (out[issue.name]) continue;
    const value = p.form[issue.name] ?? "";
    if (issue.message === "is required") out[issue.name] = t.form.required;
    else if (issue.name === "email") out.email = t.errors.email;
    else if (issue.name === "handle") out.handle = t.errors.handle;
    else if (issue.name === "password") {
      const length = [...value.normalize("NFKC")].length;
      out.password =
        length < PASSWORD_MIN
          ? t.errors.passwordShort(PASSWORD_MIN)
          : t.errors.passwordLong(PASSWORD_MAX);
    } else if (issue.name === "name") out.name = t.errors.agentName;
    else if (issue.name === "model") out.model = t.errors.agentModel;
    else out[issue.name] = issue.message;
  }
  return out;
}

/** Minutes to wait, rounded up, from a Retry-After in seconds. */
export function minutesFrom(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}
