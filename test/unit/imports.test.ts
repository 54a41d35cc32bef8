import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every module a file imports (static, re-export or dynamic), as a root-relative path or a package name. */
function importsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"`]([^'"`$]+)['"`]/g)].map((m) => m[1]!);
  return specs.map((s) => (s.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), s)) : s));
}

const offenders = (dir: string, forbidden: (target: string) => boolean) =>
  filesUnder(dir).flatMap((f) => importsOf(f).filter(forbidden).map((t) => `${f} -> ${t}`));

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
    const syntax = /\b(UpdateExpression|ConditionExpression|KeyConditionExpression|FilterExpression|ExpressionAttribute\w*|attribute_not_exists|attribute_exists)\b/;
    const found = filesUnder('shared/domain').filter((f) => syntax.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
    expect(syntax.test(readFileSync(join(ROOT, 'shared/data/repositories/objects.ts'), 'utf8'))).toBe(true);
  });
});
