import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runToExit, startPlatform, type RunningPlatform } from '../support/platform';

/** Waits until the output has a line matching `pattern` (the child's pipe may lag the answer). */
async function lineOf(p: RunningPlatform, pattern: RegExp, ms = 10_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const line = p
      .output()
      .split('\n')
      .find((l) => pattern.test(l));
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no line matching ${pattern} in:\n${p.output()}`);
    await sleep(50);
  }
}

const CLOCK = String.raw`\d\d:\d\d:\d\d`;

describe('local runtime logs (LOG_FORMAT=pretty)', () => {
  it('startup step by step, one readable line per request, stop step by step', async () => {
    const p = await startPlatform({ env: { LOG_FORMAT: 'pretty', POWERTOOLS_LOG_LEVEL: 'INFO' } });
    let stopped = false;
    try {
      const started = p.output();
      for (const step of [
        'checks (port, data directory, Java)',
        'DynamoDB Local',
        'object store (s3rver)',
        'table',
        'pipelines (queue driver, stream pollers, scheduler, workflows)',
        'HTTP',
      ]) {
        expect(started, step).toMatch(new RegExp(`^${CLOCK} ✓ ${step.replace(/[()]/g, '\\$&')} \\d+ms$`, 'm'));
      }
      const demo = JSON.parse(await readFile(join(p.dataDir, 'demo.json'), 'utf8'));
      expect(started).toContain(`adminPassword: ${demo.password}`);
      expect(started).toMatch(new RegExp(`^${CLOCK} Listening on http://127\\.0\\.0\\.1:\\d+$`, 'm'));
      expect(started).not.toContain('\u001b['); // piped: no colours unless asked

      const auth = { authorization: `Bearer ${demo.apiKey}` };
      expect((await fetch(`${p.baseUrl}/api/v2/api-keys`, { headers: auth })).status).toBe(200);
      const asJson = { ...auth, 'content-type': 'application/json' };
      expect((await fetch(`${p.baseUrl}/api/v2/stores`, { method: 'POST', headers: asJson, body: '{}' })).status).toBe(422);
      expect((await fetch(`${p.baseUrl}/api/v2/no-such-thing`)).status).toBe(404);
      // Refused by the local HTTP adapter itself (over API Gateway's payload limit), before any handler.
      expect((await fetch(`${p.baseUrl}/api/v2/stores`, { method: 'POST', headers: auth, body: 'x'.repeat(7 * 1024 * 1024) })).status).toBe(413);
      await lineOf(p, /GET \/api\/v2\/api-keys 200/);
      await lineOf(p, /POST \/api\/v2\/stores 422/);
      await lineOf(p, /GET \/api\/v2\/no-such-thing 404/);
      await lineOf(p, /POST \/api\/v2\/stores 413/);

      const requests = p
        .output()
        .split('\n')
        .filter((l) => /^\S+ (GET|POST) \/api/.test(l));
      expect(requests).toEqual([
        expect.stringMatching(new RegExp(`^${CLOCK} GET /api/v2/api-keys 200 \\d+ms$`)),
        expect.stringMatching(new RegExp(`^${CLOCK} POST /api/v2/stores 422 \\d+ms VALIDATION_FAILED$`)),
        expect.stringMatching(new RegExp(`^${CLOCK} GET /api/v2/no-such-thing 404 \\d+ms NOT_FOUND$`)),
        expect.stringMatching(new RegExp(`^${CLOCK} POST /api/v2/stores 413 \\d+ms PAYLOAD_TOO_LARGE$`)),
      ]);

      expect(await p.stop('SIGTERM')).toBe(0);
      stopped = true;
      const stopping = p.output().slice(p.output().indexOf('Stopping…'));
      const said = stopping
        .split('\n')
        .filter(Boolean)
        .map((l) => l.replace(new RegExp(`^${CLOCK} `), '').replace(/ \d+ms$/, ''));
      expect(said).toEqual([
        'Stopping…',
        '■ HTTP closed',
        '■ pipelines drained',
        '■ workflows stopped',
        '■ object store stopped',
        '■ DynamoDB Local stopped',
        'Stopped',
      ]);
      // Nothing left unrendered: no JSON line anywhere in the output.
      expect(
        p
          .output()
          .split('\n')
          .filter((l) => l.trimStart().startsWith('{')),
      ).toEqual([]);
    } finally {
      if (!stopped) await p.stop();
    }
  });

  it('an unknown LOG_FORMAT is refused before anything starts, in one line', async () => {
    const run = await runToExit({ env: { LOG_FORMAT: 'yaml' }, timeoutMs: 30_000 });
    expect(run.code, run.output).toBe(1);
    const lines = run.output.split('\n').filter(Boolean);
    expect(lines, run.output).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'ERROR',
      message: expect.stringContaining('LOG_FORMAT=yaml is not a log format: use json or pretty'),
    });
  });
});
