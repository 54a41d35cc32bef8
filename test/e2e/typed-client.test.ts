import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { tenant } from '../support/fixtures';

/**
 * What docs/typed-client.md tells an integrator to do, done for real: types generated with
 * openapi-typescript from the live document, a small openapi-fetch program type-checked with the
 * project's tsc and run against the platform. openapi-typescript needs the TypeScript 5 compiler
 * API, so it comes from its own toolchain package (test/typed-client) with its TypeScript 5.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const TOOLCHAIN = join(ROOT, 'test/typed-client');
const run = promisify(execFile);

const program = `import createClient from 'openapi-fetch';
import type { paths } from './schema';

const client = createClient<paths>({ baseUrl: process.env.BASE_URL, headers: { authorization: \`Bearer \${process.env.API_KEY}\` } });

const created = await client.POST('/api/v2/members', { body: { email: 'typed-client@example.test', firstName: 'Typed' } });
if (!created.data) throw new Error(created.error.error.code);
const memberId: string = created.data.data.id;

const earned = await client.POST('/api/v2/members/{id}/points', {
  params: { path: { id: memberId }, header: { 'Idempotency-Key': crypto.randomUUID() } },
  body: { type: 'earn', amount: 120, reason: 'typed client' },
});
if (!earned.data) throw new Error(earned.error.error.code);
const balance: number = earned.data.data.points.balance;
console.log(JSON.stringify({ memberId, balance, tier: earned.data.data.tier }));
`;

// Each line is one deliberate mistake the generated types must refuse.
const wrong = `import createClient from 'openapi-fetch';
import type { paths } from './schema';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });
await client.POST('/api/v2/members/{id}/points', { params: { path: { id: 'mbr_1' } }, body: { type: 'earn', amount: 1, reason: 'x', bonus: true } });
await client.POST('/api/v2/members/{id}/points', { params: { path: { id: 'mbr_1' } }, body: { type: 'gift', amount: 1, reason: 'x' } });
await client.POST('/api/v2/members/{id}/points', { params: { path: { id: 'mbr_1' } }, body: { type: 'earn', amount: '1', reason: 'x' } });
await client.GET('/api/v2/members/{id}/pointz', { params: { path: { id: 'mbr_1' } } });
`;

describe('typed client generated from the OpenAPI document', () => {
  it('types a working openapi-fetch program and refuses a wrong field, type or path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loyalty-typed-client-'));
    const document = await (await fetch(`${inject('baseUrl')}/api/v2/openapi.json`)).text();
    await writeFile(join(dir, 'openapi.json'), document);
    // The integrator's `npx openapi-typescript openapi.json -o schema.d.ts`.
    const generator = join(TOOLCHAIN, 'node_modules/openapi-typescript/bin/cli.js');
    await run(process.execPath, [generator, join(dir, 'openapi.json'), '-o', join(dir, 'schema.d.ts')], { cwd: dir });

    // openapi-fetch as the integrator's project would have it in its node_modules.
    const fetchPackage = dirname(createRequire(join(TOOLCHAIN, 'package.json')).resolve('openapi-fetch/package.json'));
    await mkdir(join(dir, 'node_modules'));
    await symlink(fetchPackage, join(dir, 'node_modules/openapi-fetch'), 'dir');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    await writeFile(join(dir, 'program.ts'), program);
    await writeFile(join(dir, 'wrong.ts'), wrong);
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          lib: ['ES2023', 'DOM'],
          module: 'preserve',
          moduleResolution: 'bundler',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        files: ['program.ts', 'wrong.ts'],
      }),
    );

    const tsc = join(ROOT, 'node_modules/.bin/tsc');
    const checked = await run(tsc, ['--noEmit', '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], { cwd: dir }).then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(checked.code).not.toBe(0);
    const errors = checked.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
    // program.ts type-checks; every error is one of wrong.ts's deliberate mistakes, and each is caught.
    expect(
      errors.filter((l) => !l.startsWith('wrong.ts(')),
      checked.stdout,
    ).toEqual([]);
    const lines = new Set(errors.map((l) => Number(l.match(/^wrong\.ts\((\d+),/)![1])));
    expect([...lines].sort(), checked.stdout).toEqual([5, 6, 7, 8]);
    expect(checked.stdout).toContain("'bonus' does not exist");

    // And the program does what its types say, against the running platform.
    const t = await tenant('typed-client');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(dir, 'program.ts')], {
      cwd: ROOT,
      env: { ...process.env, BASE_URL: inject('baseUrl'), API_KEY: t.key },
    });
    expect(JSON.parse(stdout)).toMatchObject({ memberId: expect.stringMatching(/^mbr_/), balance: 120 });
  });
});
