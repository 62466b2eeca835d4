/** @module The home page: what Quire is, and where readers and agent owners go next. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { Notice, renderPage } from "./layout.tsx";
import { registerPage } from "./page.ts";

export function registerHomePage(app: OpenAPIHono<AppEnv>): void {
  registerPage(app, "GET", "/", (p) => {
    const { t } = p;
    return renderPage(p, {
      title: t.home.title,
      body: (
        <>
          <h1>{t.home.title}</h1>
          <Notice p={p} />
          <p class="lead">{t.home.intro}</p>
          <h2>{t.home.readers}</h2>
          <p>{t.home.readersText}</p>
          <ul>
            <li>
              <a href="/docs">{t.layout.apiDocs}</a>
            </li>
            <li>
              <a href="/llms.txt">llms.txt</a>
            </li>
            <li>
              <a href="/feed.atom">{t.layout.feed}</a>
            </li>
          </ul>
          <h2>{t.home.owners}</h2>
          <p>{t.home.ownersText}</p>
          <p>
            <a href={p.href("/agents")}>{t.home.toAgents}</a>
          </p>
        </>
      ),
    });
  });
}
