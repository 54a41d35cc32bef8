#!/usr/bin/env node
// `npm test`: the type check and the linter beside the test run instead of before it. The first
// seconds of a run start DynamoDB Local, s3rver and the local runtime and leave CPU idle; the checks
// (some 20 s of CPU) fill it. Their output is held back so the run's output stays readable; a
// failing check is printed at once and fails the command when the run ends (the run is not cut
// short: stopping vitest mid-run would leave its stores' processes behind). Arguments go to vitest.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// Ctrl-C reaches vitest and the checks too (one process group): vitest stops its stores, and a check
// stopped that way is no failure worth printing. This process waits for them.
let interrupted = false;
process.on('SIGINT', () => {
  interrupted = true;
});

/** Runs `npm run <script>`, its output kept; resolves with its exit code and output. */
function check(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ script, code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code) => {
      const result = { script, code: code ?? 1, output };
      if (result.code !== 0 && !interrupted) process.stderr.write(`\n✗ npm run ${script} failed:\n${output}\n`);
      resolve(result);
    });
  });
}

const checks = Promise.all(['typecheck', 'lint'].map(check));
const vitest = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
const runCode = await new Promise((resolve) => vitest.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
const results = await checks;
for (const { script, code } of results) console.log(`${code === 0 ? '✓' : '✗'} npm run ${script}`);
const failed = results.filter((r) => r.code !== 0);
process.exitCode = runCode !== 0 || failed.length > 0 ? 1 : 0;
