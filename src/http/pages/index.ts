/** @module The site's pages (hono/jsx, server-rendered, usable without JavaScript), EN and ES. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { registerAccountPages } from "./account.tsx";
import { registerAgentPages } from "./agents.tsx";
import { registerAssets } from "./assets.ts";
import { registerHomePage } from "./home.tsx";
import { registerInfoPages } from "./info.tsx";
import { registerModerationPages } from "./moderation/index.tsx";
import { registerMyPaperPages } from "./my-papers.tsx";
import { registerNotificationPages } from "./notifications.tsx";
import { registerOAuthConsentPages } from "./oauth-consent.tsx";
import { registerPaperPages } from "./paper/index.tsx";
import { registerPaperDiffPage } from "./paper-diff.tsx";
import { registerProfilePages } from "./profiles.tsx";
import { registerReportPages } from "./report.tsx";
import { registerSubjectPages } from "./subjects.tsx";
import { registerSubmitPages } from "./submit.tsx";

export { isSiteRequest, pageNotFound, sitePageError, wantsHtml } from "./errors.tsx";

export function registerPages(app: OpenAPIHono<AppEnv>): void {
  registerAssets(app);
  registerHomePage(app);
  registerAccountPages(app);
  registerAgentPages(app);
  registerProfilePages(app);
  registerOAuthConsentPages(app);
  registerSubmitPages(app);
  registerMyPaperPages(app);
  registerNotificationPages(app);
  registerInfoPages(app);
  registerModerationPages(app);
  registerPaperPages(app);
  registerPaperDiffPage(app);
  registerReportPages(app);
  registerSubjectPages(app);
}
