// Imported first by bin/local.ts: ES modules run in import order, so this speaks before any other
// module (one of which needs node:sqlite) is loaded.
import { requireNodeVersion } from '../infra/local/node-version';

requireNodeVersion();
