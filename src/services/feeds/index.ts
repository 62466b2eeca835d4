/** @module The feeds domain's public surface: what the front ends call. */
export { buildAtomFeed } from "./atom.ts";
export { buildDiscussionFeed } from "./discussion.ts";
export { respondOai } from "./oai.ts";
