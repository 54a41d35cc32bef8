import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../../shared/http/openapi';
import { METHODS, resolvePointer } from '../../../support/openapi';

type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;

/** Formats whose values have a length bound of their own. */
const BOUNDED_FORMATS = new Set(['date', 'date-time', 'time', 'uuid', 'int32', 'int64']);

/** An anchored pattern whose every quantifier is bounded (`{m,n}`, `?`), so the length is bounded too. */
export function patternIsBounded(pattern: string): boolean {
  if (!pattern.startsWith('^') || !pattern.endsWith('$')) return false;
  const body = pattern.replace(/\\./g, 'x').replace(/\[[^\]]*\]/g, 'x');
  return !/[*+]|\{\d+,\}/.test(body);
}

/** Every request-side string without a length bound and array without maxItems, as pointers into the document. */
function unbounded(): string[] {
  const found = new Set<string>();
  const seen = new Set<object>();
  const walk = (schema: Json | undefined, at: string): void => {
    if (!schema || typeof schema !== 'object') return;
    if (typeof schema.$ref === 'string') {
      const target = resolvePointer(doc, schema.$ref) as Json;
      if (seen.has(target)) return;
      seen.add(target);
      walk(target, schema.$ref);
      return;
    }
    const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    if (types.includes('string') && schema.maxLength === undefined && schema.enum === undefined && schema.const === undefined) {
      const byFormat = BOUNDED_FORMATS.has(schema.format);
      const byPattern = typeof schema.pattern === 'string' && patternIsBounded(schema.pattern);
      if (!byFormat && !byPattern) found.add(`${at} (string)`);
    }
    if (types.includes('array') && schema.maxItems === undefined) found.add(`${at} (array)`);
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const)
      for (const [i, s] of ((schema[key] ?? []) as Json[]).entries()) walk(s, `${at}/${key}/${i}`);
    for (const key of ['items', 'additionalProperties', 'propertyNames', 'not'] as const)
      if (typeof schema[key] === 'object') walk(schema[key], `${at}/${key}`);
    for (const [name, s] of Object.entries((schema.properties ?? {}) as Json)) walk(s, `${at}/properties/${name}`);
  };
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const method of METHODS.filter((m) => item[m])) {
      const op = item[method];
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        const param = (typeof p.$ref === 'string' ? resolvePointer(doc, p.$ref) : p) as Json;
        walk(param.schema, `${at} ${param.in} ${param.name}`);
      }
      for (const [media, content] of Object.entries((op.requestBody?.content ?? {}) as Json)) walk(content.schema, `${at} body ${media}`);
    }
  }
  return [...found].sort();
}

describe('OpenAPI request bounds', () => {
  it('every request string has a length bound and every request array a maxItems', () => {
    expect(unbounded()).toEqual([]);
  });

  it('the bounded-pattern check', () => {
    expect(patternIsBounded('^[a-z0-9_-]{1,64}$')).toBe(true);
    expect(patternIsBounded('^[A-Za-z][A-Za-z0-9_]{0,63}$')).toBe(true);
    expect(patternIsBounded('^[a-z]+$')).toBe(false);
    expect(patternIsBounded('^a{2,}$')).toBe(false);
    expect(patternIsBounded('[a-z]{1,3}')).toBe(false);
    expect(patternIsBounded('^\\+?[0-9 ()-]{5,32}$')).toBe(true);
  });
});
