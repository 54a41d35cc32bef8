/**
 * What `import { z } from 'zod'` resolves to in the Lambda bundles (esbuild alias, see
 * `../options.ts`); tests and the local runtime use the real package.
 *
 * `import { z } from 'zod'` hands esbuild zod's whole namespace object, so every member of it is
 * bundled, used or not: 64 locales (about 260 KiB) and the `z.compile` / `z.fromJSONSchema`
 * machinery (about 45 KiB). This entry has the same exports and the same `z` members as zod's own
 * entry (`zod/v4/classic/index.js`), built from the same zod modules, except:
 * - `z.locales` and `z.core.locales` hold only `en`, the locale zod installs by default (error
 *   messages are unchanged);
 * - `z.compile`, `z.withParser`, `z.fromJSONSchema` (and `z.core.compileFn`) throw: functions do not
 *   use them.
 * test/infra/bundle-budget.test.ts checks both against the real package.
 *
 * Only the bare specifier `zod` is supported in function code: esbuild would rewrite `zod/mini` to
 * `<this folder>/index.ts/mini`, which fails the build.
 */
export * from './classic';
import * as z from './classic';
export { z, z as default };
