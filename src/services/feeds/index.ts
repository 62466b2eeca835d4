/** @module The feeds domain's public surface: what the front ends call. */
export { buildAtomFeed } from "./atom.ts";
export { respondOai } from "./oai.ts";
