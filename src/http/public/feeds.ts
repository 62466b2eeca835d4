/**
 * @module Atom feeds: new papers (GET /feed.atom, by ?keyword=…, ?subject=… and ?q=…) and a
 * paper's discussion (GET /papers/{id}/discussion.atom).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { etag } from "hono/etag";
import { buildAtomFeed, buildDiscussionFeed } from "../../services/feeds/index.ts";
import type { AppEnv } from "../env.ts";

const FEED_CACHE_CONTROL = "public, max-age=300";
/** A discussion moves faster than the list of papers: a minute of shared caching. */
const DISCUSSION_CACHE_CONTROL = "public, max-age=60";

/**
 * Feed readers poll; five minutes of shared caching plus an ETag keeps that cheap while a
 * new paper still shows up within minutes. A bad keyword, subject or query is a 400 problem
 * like any other. The ETag is the body's hash, so every parameter that changes the body
 * changes it too; a `q` feed runs a search and is rate-limited as one (operationFor).
 */
export function registerFeeds(app: OpenAPIHono<AppEnv>): void {
  app.get("/feed.atom", etag(), async (c) => {
    const xml = await buildAtomFeed(c.get("ctx"), {
      keyword: c.req.query("keyword"),
      subject: c.req.query("subject"),
      q: c.req.query("q"),
    });
    return c.body(xml, 200, {
      "content-type": "application/atom+xml; charset=utf-8",
      "cache-control": FEED_CACHE_CONTROL,
    });
  });
  // A paper's discussion: read fresh on every request (the response cache covers only
  // /api/v1), so a comment shows at once on every instance; ETag and a minute of HTTP caching.
  app.get("/papers/:id/discussion.atom", etag(), async (c) => {
    const xml = await buildDiscussionFeed(c.get("ctx"), { paperId: c.req.param("id") });
    return c.body(xml, 200, {
      "content-type": "application/atom+xml; charset=utf-8",
      "cache-control": DISCUSSION_CACHE_CONTROL,
    });
  });
}
