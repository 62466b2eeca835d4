/** @module OAI-PMH 2.0 endpoint: GET /oai?verb=… and POST /oai (form-encoded). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { respondOai } from "../../services/feeds/index.ts";
import { limitBody } from "../body-limit.ts";
import type { AppEnv } from "../env.ts";
import { problem } from "../problem.ts";

const OAI_CACHE_CONTROL = "public, max-age=300";
/** OAI-PMH arguments are a handful of short values; a resumption token is under 1 KiB. */
const MAX_FORM_BYTES = 16 * 1024;

/**
 * Protocol errors are answered by the service as HTTP 200 with OAI `<error>` elements, as
 * the protocol requires; only HTTP-level faults (wrong body type, oversized body) are
 * problem+json. The protocol mandates `text/xml`.
 */
export function registerOai(app: OpenAPIHono<AppEnv>): void {
  app.get("/oai", (c) => answer(c, new URL(c.req.url).searchParams));
  app.post(
    "/oai",
    limitBody({
      maxSize: MAX_FORM_BYTES,
      onError: (c) => problem(c, 413, `The body is over ${MAX_FORM_BYTES / 1024} KiB.`),
    }),
    async (c) => {
      const type = c.req.header("content-type") ?? "";
      if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
        return problem(c, 415, "Send OAI-PMH arguments as application/x-www-form-urlencoded.", {
          errors: [
            {
              in: "header",
              name: "content-type",
              message: "must be application/x-www-form-urlencoded",
            },
          ],
        });
      }
      return answer(c, new URLSearchParams(await c.req.text()));
    },
  );
}

async function answer(c: Context<AppEnv>, params: URLSearchParams): Promise<Response> {
  const xml = await respondOai(c.get("ctx"), { args: [...params.entries()] });
  return c.body(xml, 200, {
    "content-type": "text/xml; charset=utf-8",
    "cache-control": OAI_CACHE_CONTROL,
  });
}
