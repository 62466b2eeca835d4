/**
 * @module The MCP server and the SDK's transport, loaded by the first request to /mcp: a start
 * evaluates neither them nor the packages they import (docs/adr/0026-start-up.md).
 */
import { once } from "../lazy.ts";

export const loadMcp = once(() =>
  Promise.all([
    import("./server.ts"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  ]),
);
