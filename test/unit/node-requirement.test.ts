import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../infra/local/node-version';

const ROOT = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

describe('the Node.js requirement', () => {
  it('engines says what the code needs: node:sqlite, unflagged from 22.13', () => {
    expect(pkg.engines.node).toBe('>=22.13');
    // npm scripts run on the project's own Node.js, which meets it.
    expect(pkg.devDependencies.node).toMatch(/^\^24\./);
  });

  it('an older Node gets one message naming npm start; a new enough one none', () => {
    expect(nodeVersionProblem('v20.20.2', '>=22.13')).toMatch(/needs Node\.js >=22\.13 .*this is Node\.js 20\.20\.2.*`npm start`/);
    expect(nodeVersionProblem('v22.12.0', '>=22.13')).toBeDefined();
    expect(nodeVersionProblem('v22.13.0', '>=22.13')).toBeUndefined();
    expect(nodeVersionProblem('v24.1.0', '>=22.13')).toBeUndefined();
  });

  // A real old Node where the machine has one (the system Node of many Linux installs is 20).
  const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find(
    (p) => existsSync(p) && spawnSync(p, ['-p', 'process.versions.node']).stdout?.toString().startsWith('20.'),
  );
  it.runIf(systemNode).each([
    ['bin/local.mjs (npm start, compiled)', ['bin/local.mjs']],
    ['bin/local.ts through tsx', ['--import', 'tsx', 'bin/local.ts']],
  ])(
    'started directly on Node 20 as %s, the runtime stops before its checks with that one message',
    (_, args) => {
      const run = spawnSync(systemNode!, args, {
        cwd: ROOT,
        env: { ...process.env, PORT: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'loyalty-node-')), LOG_FORMAT: 'json' },
        timeout: 60_000,
      });
      const output = `${run.stdout}${run.stderr}`;
      expect(run.status).toBe(1);
      expect(output).toContain('needs Node.js >=22.13');
      expect(output).not.toContain('node:sqlite:'); // not the crash
      expect(output).not.toContain('checks (port');
    },
    90_000,
  );
});
