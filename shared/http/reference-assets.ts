/**
 * The reference page's renderer: Scalar's standalone browser bundle (about 4.7 MiB, JS and CSS in
 * one file). It is shipped as a file next to the `system` function's bundle, not inside it (the
 * bundling reads this declaration), and found there at run time; the local runtime reads it from
 * node_modules.
 */
export const RENDERER_ASSET = {
  /** Package and file inside it. */
  package: '@scalar/api-reference',
  file: 'dist/browser/standalone.js',
  /** Where it sits next to the function bundle (`index.mjs`). */
  shippedAs: 'reference-assets/api-reference.js',
  /** The function that serves it. */
  function: 'system',
} as const;
