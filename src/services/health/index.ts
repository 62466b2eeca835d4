/** @module The health domain's public surface: what the front ends call. */
export { checkReadiness } from "./readiness.ts";
