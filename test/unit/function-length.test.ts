import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from '@babel/parser';
import { describe, expect, it } from 'vitest';

/**
 * Small functions: no function, method, constructor, accessor or arrow function of the product
 * (bin, infra, functions, shared) has a body over MAX_LINES lines, counted from its opening to its
 * closing brace (an arrow function with an expression body: the expression). Parsed with Babel's
 * TypeScript parser, so braces inside strings, templates and types never confuse the count.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const MAX_LINES = 80;
const PRODUCT_DIRS = ['bin', 'infra', 'functions', 'shared'];

function tsFilesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFilesUnder(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

interface Node {
  type: string;
  loc?: { start: { line: number }; end: { line: number } };
  body?: unknown;
  key?: { type: string; name?: string; value?: unknown };
  id?: { name?: string } | null;
  kind?: string;
  [k: string]: unknown;
}

const FUNCTION_TYPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassMethod',
  'ClassPrivateMethod',
  'ObjectMethod',
  'TSDeclareMethod',
]);

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';

/** The name a reader finds a function by: its own, its key, or what it is assigned to. */
function nameOf(node: Node, parent: Node | undefined): string {
  if (node.id?.name) return node.id.name;
  if (node.key) return node.key.type === 'Identifier' ? node.key.name! : String(node.key.value ?? '<computed>');
  if (parent?.type === 'VariableDeclarator' && isNode(parent.id)) return (parent.id as { name?: string }).name ?? '<anonymous>';
  if ((parent?.type === 'ObjectProperty' || parent?.type === 'ClassProperty') && parent.key) {
    return parent.key.type === 'Identifier' ? parent.key.name! : String(parent.key.value ?? '<computed>');
  }
  return '<anonymous>';
}

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** Every function of a TypeScript source whose body spans more than `max` lines. */
export function longFunctions(file: string, source: string, max = MAX_LINES): LongFunction[] {
  const ast = parse(source, { sourceType: 'module', plugins: ['typescript', 'decorators-legacy'], errorRecovery: false }) as unknown as Node;
  const found: LongFunction[] = [];
  const visit = (node: Node, parent: Node | undefined) => {
    if (FUNCTION_TYPES.has(node.type) && isNode(node.body) && node.body.loc) {
      const lines = node.body.loc.end.line - node.body.loc.start.line + 1;
      if (lines > max) found.push({ file, name: nameOf(node, parent), line: node.loc!.start.line, lines });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments') continue;
      if (Array.isArray(value)) for (const v of value) if (isNode(v)) visit(v, node);
      if (isNode(value)) visit(value, node);
    }
  };
  visit(ast, undefined);
  return found;
}

describe('function length', () => {
  it('measures bodies with a real parser: braces in strings, templates and types do not count', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = '}{' + \`\${'{'}\`;`).join('\n');
    const src = [
      `export function short(): { a: number } {\n${body(77)}\n  return { a: 1 };\n}`,
      `export const arrow = async () => {\n${body(78)}\n  return 1;\n};`,
      `class C {\n  constructor() {\n${body(80)}\n  }\n  get g() { return 1; }\n}`,
      `const o = { method() {\n${body(10)}\n  }, nested: (x: number) => {\n${body(81)}\n  } };`,
    ].join('\n');
    expect(longFunctions('x.ts', src).map(({ name, lines }) => `${name} ${lines}`)).toEqual(['arrow 81', 'constructor 82', 'nested 83']);
  });

  it(`no product function is over ${MAX_LINES} lines`, () => {
    const files = PRODUCT_DIRS.flatMap(tsFilesUnder);
    expect(files.length).toBeGreaterThan(200);
    const long = files.flatMap((f) => longFunctions(f, readFileSync(join(ROOT, f), 'utf8'))).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(long, `split these (at most ${MAX_LINES} lines each)`).toEqual([]);
  }, 60_000);
});
