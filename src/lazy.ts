/**
 * @module Work done on first use and kept: the modules that only some requests need load
 * with the first of them, not at start-up (docs/adr/0026-start-up.md).
 */

/**
 * `load`, run on the first call and its promise returned to every call after (a rejection
 * included: a module that failed to load is not tried again).
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}
