import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

const toTarget = (file: string, s: string) => (s.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), s)) : s);

/** Every module a file imports (static, re-export or dynamic), as a root-relative path or a package name. */
function importsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"`]([^'"`$]+)['"`]/g)].map((m) => m[1]!);
  return specs.map((s) => toTarget(file, s));
}

/** The modules a file imports for their values (every import but `import type { ... } from`). */
function valueImportsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8').replace(/^import type [^;]*;$/gms, '');
  const specs = [...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"`]([^'"`$]+)['"`]/g)].map((m) => m[1]!);
  return specs.map((s) => toTarget(file, s));
}

const offenders = (dir: string, forbidden: (target: string) => boolean, of = importsOf) =>
  filesUnder(dir).flatMap((f) =>
    of(f)
      .filter(forbidden)
      .map((t) => `${f} -> ${t}`),
  );

const under =
  (...dirs: string[]) =>
  (t: string) =>
    dirs.some((d) => t === d || t.startsWith(`${d}/`));

describe('imports run downward', () => {
  it('finds the imports it checks (the scan is not vacuous)', () => {
    expect(importsOf('shared/http/area.ts')).toContain('shared/contracts/endpoint');
    expect(importsOf('functions/members/handler.ts')).toContain('shared/contracts/members');
    expect(importsOf('infra/local/adapters.ts')).toContain('shared/adapters/provided');
    expect(filesUnder('shared').length).toBeGreaterThan(100);
  });

  it('nothing under shared/ imports infra/ or functions/', () => {
    expect(offenders('shared', (t) => /^(infra|functions)(\/|$)/.test(t))).toEqual([]);
  });

  it('functions/ import only shared/ (never infra/ or another function)', () => {
    expect(offenders('functions', (t) => /^(infra|functions|bin)(\/|$)/.test(t))).toEqual([]);
  });

  it('domain code reaches adapters, HTTP and AWS SDKs only through ports', () => {
    expect(offenders('shared/domain', (t) => /^shared\/(adapters|http)(\/|$)/.test(t) || t.startsWith('@aws-sdk/'))).toEqual([]);
  });

  it('only shared/data (and the local runtime) talks to DynamoDB', () => {
    const dynamo = (t: string) => /^@aws-sdk\/(client-dynamodb|lib-dynamodb|util-dynamodb|client-dynamodb-streams)$/.test(t);
    const outside = [...offenders('shared', dynamo), ...offenders('functions', dynamo)].filter((o) => !o.startsWith('shared/data/'));
    expect(outside).toEqual([]);
  });

  it('domain code writes no DynamoDB expression (they live in the repositories of shared/data)', () => {
    const syntax =
      /\b(UpdateExpression|ConditionExpression|KeyConditionExpression|FilterExpression|ExpressionAttribute\w*|attribute_not_exists|attribute_exists)\b/;
    const found = filesUnder('shared/domain').filter((f) => syntax.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
    expect(syntax.test(readFileSync(join(ROOT, 'shared/data/repositories/objects.ts'), 'utf8'))).toBe(true);
  });

  it('shared/data takes nothing from shared/domain at run time (error constructors live in shared/errors)', () => {
    expect(offenders('shared/data', under('shared/domain'), valueImportsOf)).toEqual([]);
    expect(importsOf('shared/data/table.ts')).toContain('shared/errors');
  });

  it('shared/data takes nothing from shared/domain, not even a type (the stored shapes it names live in shared/records)', () => {
    expect(offenders('shared/data', under('shared/domain'))).toEqual([]);
    expect(importsOf('shared/data/repositories/members.ts')).toContain('shared/records/members');
  });

  it('shared/records imports only itself, the error table, ids, config and zod (it sits below the data layer and the domain)', () => {
    const allowed = (t: string) => under('shared/records', 'shared/errors', 'shared/config')(t) || t === 'shared/ids' || t === 'zod';
    expect(offenders('shared/records', (t) => !allowed(t))).toEqual([]);
    expect(importsOf('shared/records/orders.ts')).toContain('shared/records/program');
  });

  it('a stored shape is declared once, in shared/records (the domain imports it, it keeps no copy or re-export)', () => {
    const declared = (f: string) => [...readFileSync(join(ROOT, f), 'utf8').matchAll(/^export (?:interface|type|const) (\w+)/gm)].map((m) => m[1]!);
    const records = new Set(filesUnder('shared/records').flatMap(declared));
    const outside = [...filesUnder('shared'), ...filesUnder('functions')].filter((f) => !f.startsWith('shared/records/'));
    const redeclared = outside.flatMap((f) =>
      declared(f)
        .filter((name) => records.has(name))
        .map((name) => `${f}: ${name}`),
    );
    const reexporting = outside.filter((f) => /^export (?:type )?(?:\{[^}]*\}|\*) from ['"][^'"]*records\//m.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(records).toContain('MemberRecord');
    expect(redeclared).toEqual([]);
    expect(reexporting).toEqual([]);
  });

  it('shared/data reaches no layer above it (domain services, HTTP, contracts, adapters, consumers, events, MCP)', () => {
    const above = under('shared/http', 'shared/contracts', 'shared/adapters', 'shared/consumers', 'shared/events', 'shared/mcp');
    expect(offenders('shared/data', above)).toEqual([]);
  });

  it('contracts declare endpoints without the HTTP layer, the data layer, adapters or MCP', () => {
    expect(offenders('shared/contracts', under('shared/http', 'shared/data', 'shared/adapters', 'shared/consumers', 'shared/mcp'))).toEqual([]);
    expect(importsOf('shared/contracts/system.ts')).toContain('shared/contracts/reference');
  });

  it('domain code imports no contract, MCP or queue consumer (those sit above it)', () => {
    expect(offenders('shared/domain', under('shared/contracts', 'shared/mcp', 'shared/consumers'))).toEqual([]);
  });

  it('the error table and the events registry are leaves: they import nothing of the platform', () => {
    expect(offenders('shared/errors', (t) => t.startsWith('shared/'))).toEqual([]);
    expect(importsOf('shared/events/registry.ts').filter((t) => t.startsWith('shared/'))).toEqual([]);
  });

  it('events reach neither domain services nor the HTTP layer nor adapters', () => {
    expect(offenders('shared/events', under('shared/domain', 'shared/http', 'shared/adapters', 'shared/mcp'))).toEqual([]);
  });

  it('the console is a pure client: it imports itself, the typed client, Preact, its router and openapi-fetch, nothing else of the platform', () => {
    const files = filesUnder('shared/console');
    expect(files.filter((f) => f.endsWith('.tsx')).length).toBeGreaterThan(3);
    const allowed = (t: string) =>
      t.startsWith('shared/console/') ||
      t === 'shared/client/schema' ||
      t === 'preact' ||
      t.startsWith('preact/') ||
      t.startsWith('preact-iso/') ||
      t === 'openapi-fetch';
    expect(offenders('shared/console', (t) => !allowed(t))).toEqual([]);
  });

  it('OutboxEvent is declared once, with the events', () => {
    const declaring = [...filesUnder('shared'), ...filesUnder('functions')].filter((f) =>
      /^export (interface|type) OutboxEvent\b/m.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(declaring).toEqual(['shared/events/registry.ts']);
  });
});
