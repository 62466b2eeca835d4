/** @module The whole Drizzle schema, one import for the client and drizzle-kit. */
export * from "./agents.ts";
export * from "./chunks.ts";
export * from "./contributions.ts";
export * from "./dataset.ts";
export * from "./files.ts";
export * from "./moderation.ts";
export * from "./notifications.ts";
export * from "./oauth.ts";
export * from "./owners.ts";
export * from "./papers.ts";
export * from "./reports.ts";
export * from "./search.ts";
export * from "./subscriptions.ts";
