import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { builtinModules } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RENDERER_ASSET } from '../../shared/http/reference-assets';
import { OPENAPI_FILE } from '../../shared/http/openapi-file';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { matchRoute } from '../../shared/http/route-match';
import { OPENAPI_PATH } from '../../shared/platform/contract/reference';
import { App, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltBundle, buildBundles, functionEntries } from '../../infra/build/bundling/build';
import {
  BUNDLE_BUDGET_EXCEPTION,
  BUNDLE_BUDGET_KIB,
  bundleBudgetKib,
  LEFT_OUT_MODULES,
  REPLACED_MODULES,
  SHIPPED_FILES,
} from '../../infra/build/bundling/options';
import { Mail } from '../../infra/app/constructs/mail';
import { PlatformFunction } from '../../infra/app/constructs/platform-function';
import { BUNDLING_STACKS_CONTEXT } from '../../infra/app/stack';
import type { SecretName } from '../../shared/platform/ports/secrets';
import { declaredSecrets } from './templates';

/**
 * The function bundles, built once with esbuild's JS API and the options CDK uses
 * (infra/build/bundling/options.ts): size budget, what they leave out, and zod inside them.
 */

const PROBE = '_zod-probe';
const functions = functionEntries();
let outdir: string;
let bundles: Record<string, BuiltBundle>;

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), 'loyalty-bundles-'));
  ({ bundles } = await buildBundles({ ...functions, [PROBE]: fileURLToPath(new URL('./zod-probe.ts', import.meta.url)) }, outdir));
});

afterAll(async () => {
  if (outdir) await rm(outdir, { recursive: true, force: true });
});

const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const functionBundles = () => Object.entries(bundles).filter(([name]) => name in functions);

/** The largest sources of a bundle, for the failure message. */
const largestInputs = (bundle: BuiltBundle, n = 12) =>
  Object.entries(bundle.inputs)
    .sort(([, a], [, b]) => b - a)
    .slice(0, n)
    .map(([path, bytes]) => `  ${kib(bytes)} KiB ${path}`)
    .join('\n');

describe('function bundles', () => {
  it('finds every functions/<name>/handler.ts', () => {
    expect(Object.keys(functions)).toEqual(expect.arrayContaining(['auth', 'system', 'webhook-fanout', 'webhook-worker', 'webhook-dlq']));
  });

  it.each(Object.keys(functions).map((n) => [n, bundleBudgetKib(n)]))(`%s is at most %s KiB`, (name, budget) => {
    const bundle = bundles[name]!;
    expect(
      kib(bundle.bytes),
      `${name}: ${kib(bundle.bytes)} KiB. Largest parts (see docs/performance.md, "Cold start"):\n${largestInputs(bundle)}`,
    ).toBeLessThanOrEqual(budget);
  });

  // Every function (areas and consumers): what CDK ships is this bundle byte for byte ('CDK bundling' below).
  it.each(Object.keys(functions).map((n) => [n]))('%s is bundled as ESM with a require shim, its handler exported and a source map', (name) => {
    const code = readFileSync(bundles[name]!.file, 'utf8');
    expect(code.startsWith('import { createRequire as __loyaltyCreateRequire }')).toBe(true);
    expect(code).toMatch(/export\s*\{[^}]*\bhandler\b[^}]*\}/);
    expect(existsSync(`${bundles[name]!.file}.map`)).toBe(true);
  });

  it('hold every function to 600 KiB but the one named exception, the MCP server', () => {
    expect(BUNDLE_BUDGET_KIB).toBe(600);
    expect(BUNDLE_BUDGET_EXCEPTION.function).toBe('mcp');
    for (const name of Object.keys(functions)) if (name !== 'mcp') expect(bundleBudgetKib(name), name).toBe(600);
  });

  it('sign passes without a pass library (no passkit-generator, node-forge or joi in any bundle), only in the function that builds passes', () => {
    const library = /node_modules\/(passkit-generator|node-forge|joi|do-not-zip)\//;
    expect(
      functionBundles()
        .filter(([, b]) => Object.keys(b.inputs).some((p) => library.test(p)))
        .map(([name]) => name),
    ).toEqual([]);
    const signer = functionBundles()
      .filter(([, b]) => 'shared/platform/adapters/wallet/pkpass-signer.ts' in b.inputs)
      .map(([name]) => name);
    expect(signer).toEqual(['wallet-passes']);
  });

  it('take the MCP SDK with its smaller JSON Schema validator: our shim in place of its Node shim, no Ajv', () => {
    const inputs = Object.keys(bundles.mcp!.inputs);
    expect(inputs).toContain(REPLACED_MODULES['@modelcontextprotocol/server/_shims']!.replace(/^\.\//, ''));
    expect(inputs.filter((p) => /shimsNode|ajvProvider|node_modules\/ajv/.test(p))).toEqual([]);
    expect(inputs.some((p) => p.includes('cfWorkerProvider'))).toBe(true);
  });

  it('grants the exception only while the MCP server needs it, with its reason', () => {
    const { function: name, kib: allowed, reason } = BUNDLE_BUDGET_EXCEPTION;
    expect(functions).toHaveProperty(name);
    expect(reason.length).toBeGreaterThan(40);
    // An exception the bundle no longer needs goes away.
    expect(kib(bundles[name]!.bytes), `${name} fits the common budget again: remove its exception`).toBeGreaterThan(BUNDLE_BUDGET_KIB);
    expect(allowed).toBeGreaterThan(BUNDLE_BUDGET_KIB);
  });

  it('ship the files SHIPPED_FILES declares next to the bundle, each within its budget and with its reason', () => {
    expect(Object.keys(SHIPPED_FILES)).toEqual([RENDERER_ASSET.function]);
    expect(SHIPPED_FILES[OPENAPI_FILE.function]!.map((f) => f.to)).toContain(OPENAPI_FILE.shippedAs);
    for (const [name, files] of Object.entries(SHIPPED_FILES)) {
      expect(functions, name).toHaveProperty(name);
      for (const file of files) {
        expect(file.reason.length, `${name}: ${file.to}`).toBeGreaterThan(40);
        const bytes = bundles[name]!.shipped[file.to];
        expect(bytes, `${name}: ${file.to} was not shipped`).toBeGreaterThan(0);
        expect(kib(bytes!), `${name}: ${file.to} is ${kib(bytes!)} KiB`).toBeLessThanOrEqual(file.kib);
      }
    }
    for (const [name, bundle] of functionBundles()) if (!(name in SHIPPED_FILES)) expect(bundle.shipped, name).toEqual({});
  });

  it('keep the reference page renderer out of every bundle (it is a shipped file of the system function)', () => {
    for (const [name, bundle] of functionBundles()) {
      expect(
        Object.keys(bundle.inputs).filter((p) => p.includes(RENDERER_ASSET.package)),
        name,
      ).toEqual([]);
    }
  });

  it('import what they leave out only dynamically (never loaded when the function starts)', () => {
    for (const [name, bundle] of functionBundles()) {
      // Node's own modules (with or without the `node:` prefix: lib-storage imports `events`) are no left-out packages.
      for (const { path, kind } of bundle.externalImports.filter((i) => !i.path.startsWith('node:') && !builtinModules.includes(i.path))) {
        expect(
          LEFT_OUT_MODULES.some((m) => path === m || path.startsWith(`${m}/`)),
          `${name} imports ${path}`,
        ).toBe(true);
        expect(
          kind,
          `${name} imports ${path} statically, so the function would fail to start: remove it from ` +
            'LEFT_OUT_MODULES (infra/build/bundling/options.ts) or stop importing it',
        ).toBe('dynamic-import');
      }
    }
  });

  it('carry the lean log formatter but none of the local runtime (its pretty log format included)', () => {
    for (const [name, bundle] of functionBundles()) {
      const inputs = Object.keys(bundle.inputs);
      expect(
        inputs.filter((p) => p.includes('infra/local/')),
        name,
      ).toEqual([]);
      expect(
        inputs.some((p) => p.endsWith('shared/platform/observability/log-formatter.ts')),
        name,
      ).toBe(true);
    }
  });

  it('read as plain DynamoDB: no DynamoDB Local commit barrier ships, only the hook it is installed through', () => {
    for (const [name, bundle] of functionBundles()) {
      const code = readFileSync(bundle.file, 'utf8');
      expect(code, name).not.toMatch(/CommitNotConfirmed|DynamoDB Local answered|localCommitBarrier/);
    }
    expect(readFileSync(bundles.members!.file, 'utf8')).toContain('beforeAnswer');
  });

  it('carry the stored types they use: no declaration nothing reads, no record schema no API shape derives from (decision 0073)', () => {
    const code = (name: string) => readFileSync(bundles[name]!.file, 'utf8');
    const declared = (name: string) => [...code(name).matchAll(/\{name:"(\w+)",keys:/g)].map((m) => m[1]);
    // The system function answers every area's shapes and reads no pass, delivery, export or coupon.
    expect(declared('system')).toEqual(expect.arrayContaining(['session']));
    for (const type of ['walletPass', 'webhookDelivery', 'webhookEndpoint', 'exportJob', 'couponPool', 'order'])
      expect(declared('system'), type).not.toContain(type);
    // Nor does the MCP server write a wallet pass.
    expect(declared('mcp')).not.toContain('walletPass');
    // A stored member is no API shape's base: no bundle builds its record schema (the functions that read and write members included).
    for (const [name] of functionBundles()) expect(code(name), name).not.toMatch(/lifetime:[\w$]+\(\),orderCount:[\w$]+\(\)/);
    // Modules nothing reads from are left out ("sideEffects" in package.json): the pass-change consumer never reads the table.
    expect(Object.keys(bundles['wallet-changes']!.inputs).filter((p) => p.includes('@aws-sdk/client-dynamodb'))).toEqual([]);
  });

  it('read a secret where their access declares it: the code that needs it is in the bundle of each function that declares it, and of no other', () => {
    // The module that signs and checks page cursors; the one that works out a request's origin from the distribution's header.
    const users: Record<SecretName, string> = { pageCursors: 'shared/platform/data/cursor.ts', originVerify: 'shared/http/origin.ts' };
    const declared = declaredSecrets();
    for (const [secret, file] of Object.entries(users)) {
      const carrying = functionBundles()
        .filter(([, b]) => (b.inputs[file] ?? 0) > 0)
        .map(([name]) => name);
      expect(carrying.length, `${file} is in no bundle: has it moved?`).toBeGreaterThan(0);
      const declaring = Object.keys(declared).filter((name) => declared[name]!.includes(secret as SecretName));
      expect(carrying.sort(), secret).toEqual(declaring.sort());
    }
    // Each of them also carries the store it reads the secret from (its entry hands it over).
    for (const [name, secrets] of Object.entries(declared)) {
      if (secrets.length > 0) expect(bundles[name]!.inputs['shared/platform/adapters/secret-store.ts'] ?? 0, name).toBeGreaterThan(0);
    }
  });

  it('hold zod with the English locale only (zod is imported as a namespace, so unused members are shaken out)', () => {
    for (const [name, bundle] of functionBundles()) {
      const locales = Object.keys(bundle.inputs).filter((p) => p.includes('/zod/v4/locales/'));
      expect(
        locales.map((p) => p.replace(/.*\/zod\//, 'zod/')),
        `${name}: every zod locale is bundled; import zod as \`import * as z from 'zod'\`, not \`import { z }\``,
      ).toEqual(['zod/v4/locales/en.js']);
    }
  });
});

/** Runs `code` (an ES module that imports the bundle through `BUNDLE`) in a fresh process outside the project, as in Lambda: only the bundle folder is there. */
function inFreshProcess(name: string, code: string): string {
  const url = pathToFileURL(bundles[name]!.file).href;
  return execFileSync(process.execPath, ['--input-type=module', '-e', `const BUNDLE = ${JSON.stringify(url)}; ${code}`], {
    encoding: 'utf8',
    cwd: outdir,
    env: {
      PATH: process.env.PATH,
      STAGE: 'aws',
      TABLE_NAME: 't',
      MAIL_FROM: 'no-reply@example.com',
      AWS_REGION: 'eu-west-1',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
    },
  });
}

/** An API Gateway v2 event of a request to api.example.com. */
const gatewayEvent = (method: string, path: string, routeKey: string, extra: Record<string, unknown> = {}) => ({
  version: '2.0',
  routeKey,
  rawPath: path,
  rawQueryString: '',
  headers: { host: 'api.example.com', 'x-forwarded-proto': 'https' },
  requestContext: { domainName: 'api.example.com', http: { method, path } },
  isBase64Encoded: false,
  ...extra,
});

describe('the system bundle', () => {
  it('serves the reference page renderer from the file shipped next to it (no node_modules in Lambda), gzipped', () => {
    const event = gatewayEvent('GET', '/docs/assets/api-reference.js', 'GET /docs/assets/{file}', {
      headers: { host: 'api.example.com', 'x-forwarded-proto': 'https', 'accept-encoding': 'gzip' },
      pathParameters: { file: 'api-reference.js' },
    });
    const code =
      `const { handler } = await import(BUNDLE); ` +
      `const r = await handler(${JSON.stringify(event)}, { getRemainingTimeInMillis: () => 15000 }); ` +
      `const { gunzipSync } = await import('node:zlib'); ` +
      `process.stdout.write(JSON.stringify({ status: r.statusCode, encoding: r.headers['content-encoding'], base64Length: r.body.length, ` +
      `sha: (await import('node:crypto')).createHash('sha256').update(gunzipSync(Buffer.from(r.body, 'base64'))).digest('hex') }));`;
    const out = inFreshProcess(RENDERER_ASSET.function, code);
    const answer = JSON.parse(out.slice(out.indexOf('{"status"')));
    const source = readFileSync(fileURLToPath(new URL(`../../node_modules/${RENDERER_ASSET.package}/${RENDERER_ASSET.file}`, import.meta.url)));
    expect(answer).toMatchObject({ status: 200, encoding: 'gzip', sha: createHash('sha256').update(source).digest('hex') });
    // Under Lambda's 6 MB limit of a synchronous answer.
    expect(answer.base64Length).toBeLessThan(6_000_000);
  });

  it('serves the OpenAPI document rendered at build time (the one the contracts give), and the 404 and 405 of the routes it names, carrying no other contract', () => {
    const requests = [
      gatewayEvent('GET', OPENAPI_PATH, `GET ${OPENAPI_PATH}`),
      gatewayEvent('DELETE', '/api/v2/members', '$default'),
      gatewayEvent('GET', '/api/v2/no-such-thing', '$default'),
    ];
    const code =
      `const { handler } = await import(BUNDLE); const answers = []; ` +
      `for (const event of ${JSON.stringify(requests)}) { const r = await handler(event, { getRemainingTimeInMillis: () => 15000 }); ` +
      `answers.push({ status: r.statusCode, headers: r.headers, body: JSON.parse(r.body) }); } ` +
      `process.stdout.write('ANSWERS=' + JSON.stringify(answers));`;
    const out = inFreshProcess(OPENAPI_FILE.function, code);
    const [document, other, unknown] = JSON.parse(out.slice(out.lastIndexOf('ANSWERS=') + 'ANSWERS='.length));
    expect(document.status).toBe(200);
    expect(document.headers).toMatchObject({ 'content-type': 'application/json', 'cache-control': 'no-store' });
    expect(document.body).toEqual(buildOpenApiDocument('https://api.example.com'));
    const allowed = matchRoute('DELETE', '/api/v2/members');
    expect(allowed.kind).toBe('method_not_allowed');
    expect(other).toMatchObject({
      status: 405,
      headers: { allow: (allowed as { allow: string[] }).allow.join(', ') },
      body: { error: { code: 'METHOD_NOT_ALLOWED' } },
    });
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    // The document is a file beside the bundle, so no area's contract is inside it but the system's own.
    const contracts = Object.keys(bundles[OPENAPI_FILE.function]!.inputs).filter((p) => /^shared\/[\w-]+\/contract\.ts$/.test(p));
    expect(contracts).toEqual(['shared/system/contract.ts']);
  });
});

describe('zod in a bundle', () => {
  let bundled: { failures: unknown; jsonSchema: unknown };
  let real: { failures: unknown; jsonSchema: unknown };

  /** The probe's answers from a module, in a process of its own (`node` with extra flags). */
  const probeIn = (url: string, flags: string[] = []) => {
    const code = `const m = await import(${JSON.stringify(url)}); process.stdout.write(JSON.stringify({ failures: m.failures(), jsonSchema: m.jsonSchema() }));`;
    return JSON.parse(execFileSync(process.execPath, [...flags, '--input-type=module', '-e', code], { encoding: 'utf8' }));
  };

  beforeAll(() => {
    // Fresh processes, as in Lambda: zod keeps its configuration (the locale, custom messages) on
    // globalThis, and this test process has loaded modules that install the platform's messages.
    bundled = probeIn(pathToFileURL(bundles[PROBE]!.file).href);
    real = probeIn(new URL('./zod-probe.ts', import.meta.url).href, ['--import', 'tsx']);
  });

  it('gives the same issues and English messages', () => {
    expect(bundled.failures).toEqual(real.failures);
    expect(JSON.stringify(bundled.failures)).toContain('Invalid input: expected string, received undefined');
  });

  it('gives the same JSON Schema', () => {
    expect(bundled.jsonSchema).toEqual(real.jsonSchema);
  });
});

/** The folder of the asset CDK builds for one function (its bundling, commandHooks included). */
function cdkAssetDir(name: string): string {
  const app = new App({ postCliContext: { [BUNDLING_STACKS_CONTEXT]: ['**'] } });
  const stack = new Stack(app, 'BundleParity');
  const table = new dynamodb.TableV2(stack, 'Table', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
  const mail = new Mail(stack, 'Mail', { fromAddress: 'no-reply@example.com' });
  new PlatformFunction(stack, 'Fn', { name, description: 'bundle parity', table, mail, access: { table: 'readWrite' }, invocation: { kind: 'synchronous' } });
  const assembly = app.synth();
  const template = assembly.getStackArtifact(stack.artifactId).template as { Resources: Record<string, { Type: string; Properties: any }> };
  const [fn] = Object.values(template.Resources).filter((r) => r.Type === 'AWS::Lambda::Function');
  const s3Key = fn!.Properties.Code.S3Key as string;
  const manifest = JSON.parse(readFileSync(join(assembly.directory, `${stack.artifactId}.assets.json`), 'utf8'));
  return join(assembly.directory, manifest.files[s3Key.replace(/\.zip$/, '')].source.path as string);
}

describe('CDK bundling', () => {
  // The largest function, and the MCP server, whose bundle depends on REPLACED_MODULES reaching CDK's esbuild.
  const parity = () => [functionBundles().sort(([, a], [, b]) => b.bytes - a.bytes)[0]![0], 'mcp'];
  it('ships the bundle built here, byte for byte (largest function, MCP server)', () => {
    for (const name of new Set(parity())) {
      const dir = cdkAssetDir(name);
      expect(
        readFileSync(join(dir, 'index.mjs')).equals(readFileSync(bundles[name]!.file)),
        `${name}: CDK's index.mjs differs from the esbuild JS API build`,
      ).toBe(true);
    }
  });

  it('ships the files SHIPPED_FILES declares next to the bundle, byte for byte', () => {
    for (const [name, files] of Object.entries(SHIPPED_FILES)) {
      const dir = cdkAssetDir(name);
      for (const file of files) {
        expect(readFileSync(join(dir, file.to)).equals(readFileSync(join(bundles[name]!.file, '..', file.to))), `${name}: ${file.to}`).toBe(true);
      }
    }
  });
});

describe("the MCP SDK's validator in the bundles", () => {
  it('validates JSON Schema as the SDK expects of its default validator (valid data back, a message when invalid)', async () => {
    const { DefaultJsonSchemaValidator } = await import('../../infra/build/bundling/shims/mcp-server-node');
    const check = new DefaultJsonSchemaValidator().getValidator<{ email: string }>({
      type: 'object',
      properties: { email: { type: 'string', format: 'email' } },
      required: ['email'],
    });
    expect(check({ email: 'ada@example.com' })).toMatchObject({ valid: true, data: { email: 'ada@example.com' } });
    const refused = check({ email: 42 });
    expect(refused.valid).toBe(false);
    expect(refused.errorMessage).toMatch(/email/);
  });
});
