// Only the locale zod installs by default (English); see ./index.ts.
export { default as en } from '../../../node_modules/zod/v4/locales/en.js';
