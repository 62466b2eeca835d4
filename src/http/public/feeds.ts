/** @module Atom feeds of new papers: GET /feed.atom, by ?keyword=…, ?subject=… and ?q=… */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { etag } from "hono/etag";
import { buildAtomFeed } from "../../services/feeds/index.ts";
import type { AppEnv } from "../env.ts";

const FEED_CACHE_CONTROL = "public, max-age=300";

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
}
