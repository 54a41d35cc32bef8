import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The rules of the house (docs/architecture.md), by role: what each folder may import. Imports run
 * one way, bin -> infra -> functions -> shared/mcp -> shared/http -> shared/<area> -> shared/platform,
 * and a file's role (repository, entities, contract) says what it may touch.
 */

const ROOT = resolve(import.meta.dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

const toTarget = (file: string, s: string) => (s.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), s)) : s);
const SPECIFIER = /(?:from\s+|import\s*\(\s*|import\s+)['"`]([^'"`$]+)['"`]/g;

/** Every module a file imports (static, re-export or dynamic), as a root-relative path or a package name. */
function importsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  return [...source.matchAll(SPECIFIER)].map((m) => toTarget(file, m[1]!));
}

const offenders = (files: string[], forbidden: (target: string) => boolean, imports = importsOf) =>
  files.flatMap((f) =>
    imports(f)
      .filter(forbidden)
      .map((t) => `${f} -> ${t}`),
  );

/** The names a door (an area's index.ts) lets out, each with the module inside the area it comes from. */
const doorCache = new Map<string, Map<string, string>>();
function doorOf(area: string): Map<string, string> {
  if (!doorCache.has(area)) {
    const source = readFileSync(join(ROOT, 'shared', area, 'index.ts'), 'utf8');
    const names = new Map<string, string>();
    for (const m of source.matchAll(/export (?:type )?\{([^}]*)\} from '\.\/([^']+)'/g))
      for (const spec of m[1]!.split(',')) {
        const name = spec
          .trim()
          .split(/\s+as\s+/)
          .pop();
        if (name) names.set(name, `shared/${area}/${m[2]}`);
      }
    doorCache.set(area, names);
  }
  return doorCache.get(area)!;
}

const STATEMENT = /(?:import|export)\s+(?:type\s+)?(?:\*\s+as\s+([\w$]+)|\{([^}]*)\})\s+from\s+['"]([^'"]+)['"]/g;

/**
 * What a file takes, with a door seen through: an import of `shared/<area>` counts as an import of
 * the modules inside the area its names come from (a namespace import: the members it uses).
 */
/** The names an import statement takes from its module: listed ones, or a namespace's members as the file uses them. */
function namesTaken(source: string, m: RegExpMatchArray): string[] {
  return m[1]
    ? [...source.matchAll(new RegExp(`(?<![\\w$.])${m[1]}\\.([\\w$]+)`, 'g'))].map((a) => a[1]!)
    : m[2]!.split(',').map(
        (n) =>
          n
            .replace(/^\s*type\s+/, '')
            .trim()
            .split(/\s+as\s+/)[0]!,
      );
}

function modulesOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  const doorImports = [...source.matchAll(STATEMENT)].flatMap((m) => {
    const target = toTarget(file, m[3]!);
    const area = areaOf(target);
    if (!area || target !== `shared/${area}`) return [];
    return namesTaken(source, m)
      .filter(Boolean)
      .map((n) => doorOf(area).get(n) ?? `${target} (no ${n})`);
  });
  return [...importsOf(file).filter((t) => !(areaOf(t) && t === `shared/${areaOf(t)}`)), ...new Set(doorImports)];
}

const under =
  (...dirs: string[]) =>
  (t: string) =>
    dirs.some((d) => t === d || t.startsWith(`${d}/`));

/** The folders of shared/ that are not areas: the layers around them. */
const LAYERS = ['platform', 'http', 'mcp', 'client', 'console'];
const AREAS = readdirSync(join(ROOT, 'shared')).filter((n) => statSync(join(ROOT, 'shared', n)).isDirectory() && !LAYERS.includes(n));
const areaOf = (path: string): string | undefined => {
  const [top, folder] = path.split('/');
  return top === 'shared' && folder && AREAS.includes(folder) ? folder : undefined;
};
const areaFiles = AREAS.flatMap((a) => filesUnder(`shared/${a}`));
const isRepository = (f: string) => /(^|-)repository\.ts$/.test(basename(f));
const isEntities = (f: string) => areaOf(f) !== undefined && basename(f) === 'entities.ts';
const isContract = (f: string) => areaOf(f) !== undefined && basename(f) === 'contract.ts';
const isDoor = (f: string) => areaOf(f) !== undefined && f === `shared/${areaOf(f)}/index.ts`;
const shipped = () => [...filesUnder('shared'), ...filesUnder('functions')];

describe('the house: what each folder may import', () => {
  it('finds the imports it checks (the scan is not vacuous)', () => {
    expect(importsOf('shared/http/area.ts')).toContain('shared/platform/contract/endpoint');
    expect(importsOf('functions/members/handler.ts')).toContain('shared/members');
    expect(modulesOf('functions/members/handler.ts')).toEqual(expect.arrayContaining(['shared/members/contract', 'shared/members/service']));
    expect(importsOf('infra/local/adapters.ts')).toContain('shared/platform/adapters/provided');
    expect(AREAS).toEqual(expect.arrayContaining(['members', 'orders', 'program', 'webhooks', 'wallet', 'exports', 'team']));
    expect(areaFiles.length).toBeGreaterThan(100);
  });

  it('shared/ holds only areas and the five named layers; every area declares its endpoints in contract.ts', () => {
    const loose = readdirSync(join(ROOT, 'shared')).filter((n) => !statSync(join(ROOT, 'shared', n)).isDirectory());
    expect(loose).toEqual([]);
    expect(AREAS.filter((a) => !filesUnder(`shared/${a}`).includes(`shared/${a}/contract.ts`))).toEqual([]);
  });

  it('nothing shipped imports infra/ (the CDK app, the local runtime, the build) or bin/', () => {
    expect(offenders(shipped(), (t) => /^(infra|bin)(\/|$)/.test(t))).toEqual([]);
  });

  it('functions/ import only shared/ (never another function)', () => {
    expect(offenders(filesUnder('functions'), (t) => /^functions(\/|$)/.test(t))).toEqual([]);
  });

  it('shared/platform is the floor: it imports no area and no layer above it', () => {
    const above = (t: string) => areaOf(t) !== undefined || under('shared/http', 'shared/mcp', 'shared/console', 'shared/client')(t);
    expect(offenders(filesUnder('shared/platform'), above)).toEqual([]);
  });

  it('areas reach each other only through their door, index.ts: nothing outside an area imports a file inside it (tests may: they mirror paths)', () => {
    const outsiders = [...shipped(), ...filesUnder('infra'), ...filesUnder('bin')];
    const deep = (f: string) => (t: string) => {
      const area = areaOf(t);
      return area !== undefined && area !== areaOf(f) && t !== `shared/${area}`;
    };
    expect(outsiders.flatMap((f) => offenders([f], deep(f)))).toEqual([]);
    expect(importsOf('shared/http/examples/world.ts')).toContain('shared/objects');
  });

  it('inside an area, files import each other directly, never through their own door', () => {
    expect(areaFiles.flatMap((f) => offenders([f], (t) => t === `shared/${areaOf(f)}`))).toEqual([]);
  });

  it('every area has a door that names, one by one, what it lets out of its own files (no export *, no code of its own)', () => {
    const NAMED = /^export (type )?\{[^}]*\} from '\.\/[^'.][^']*'$/;
    for (const area of AREAS) {
      const source = readFileSync(join(ROOT, 'shared', area, 'index.ts'), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      const statements = source
        .split(';')
        .map((st) => st.trim().replace(/\s+/g, ' '))
        .filter(Boolean);
      expect(statements.length, area).toBeGreaterThan(0);
      expect(
        statements.filter((st) => !NAMED.test(st)),
        area,
      ).toEqual([]);
    }
  });

  it('a door lets out only what outsiders use (shipped code, infra, bin or tests)', () => {
    const used = new Set<string>();
    for (const f of [...shipped(), ...filesUnder('infra'), ...filesUnder('bin'), ...filesUnder('test')]) {
      const source = readFileSync(join(ROOT, f), 'utf8');
      for (const m of source.matchAll(STATEMENT)) {
        const target = toTarget(f, m[3]!);
        const area = areaOf(target);
        if (!area || target !== `shared/${area}` || areaOf(f) === area) continue;
        for (const n of namesTaken(source, m)) used.add(`${area}.${n}`);
      }
    }
    const unused = AREAS.flatMap((a) => [...doorOf(a).keys()].map((n) => `${a}.${n}`)).filter((n) => !used.has(n));
    expect(unused).toEqual([]);
    expect(used).toContain('members.membersArea');
  });

  it('areas import neither the HTTP layer, nor MCP, nor the console (those sit above them)', () => {
    expect(offenders(areaFiles, under('shared/http', 'shared/mcp', 'shared/console', 'shared/client'))).toEqual([]);
  });

  it('the HTTP layer imports no MCP (but the MCP endpoint’s declaration, for the route table) and no console', () => {
    const mcpServer = (t: string) => under('shared/mcp')(t) && t !== 'shared/mcp/contract';
    expect(offenders(filesUnder('shared/http'), (t) => mcpServer(t) || under('shared/console')(t))).toEqual([]);
    expect(importsOf('shared/mcp/contract.ts').filter((t) => t.startsWith('shared/') && !t.startsWith('shared/platform/'))).toEqual([]);
  });

  it('only repositories and the data platform talk to DynamoDB', () => {
    const dynamo = (t: string) => /^@aws-sdk\/(client-dynamodb|lib-dynamodb|util-dynamodb|client-dynamodb-streams)$/.test(t);
    const talking = shipped().filter((f) => importsOf(f).some(dynamo));
    expect(talking.filter((f) => !isRepository(f) && !f.startsWith('shared/platform/data/'))).toEqual([]);
    expect(talking).toContain('shared/platform/data/queries.ts');
  });

  it('DynamoDB expressions are written only in repositories and the data platform', () => {
    const syntax =
      /\b(UpdateExpression|ConditionExpression|KeyConditionExpression|FilterExpression|ExpressionAttribute\w*|attribute_not_exists|attribute_exists)\b/;
    const found = shipped().filter((f) => syntax.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(found.filter((f) => !isRepository(f) && !f.startsWith('shared/platform/data/'))).toEqual([]);
    expect(found).toContain('shared/objects/repository.ts');
  });

  it('only repositories reach the store through shared/platform/data; other area files take only the language of a unit of work', () => {
    // What a service may take from the data platform: types (they never run) and helpers that neither
    // read nor write the table. It plans its change as steps (TransactStep) and hands them to its
    // repository; it may retry a unit on a stale read (withOptimisticRetry, StaleRead), queue behind
    // earlier work on one key (inKeyOrder), seal the idempotent answer into its steps (sealSteps),
    // bound what it stores (refuseOversized, MAX_TRANSACTION_ITEMS) and refuse a cursor it never
    // issued (refuseCursor). Store calls (transactWrite, getItem, keys, counters) stay in repositories.
    const UNIT_OF_WORK = ['withOptimisticRetry', 'StaleRead', 'inKeyOrder', 'sealSteps', 'refuseOversized', 'MAX_TRANSACTION_ITEMS', 'refuseCursor'];
    const storeCalls = (f: string) => {
      const source = readFileSync(join(ROOT, f), 'utf8');
      return [...source.matchAll(STATEMENT)]
        .filter((m) => under('shared/platform/data')(toTarget(f, m[3]!)) && !/^(import|export)\s+type\b/.test(m[0]))
        .flatMap((m) =>
          m[1]
            ? [`* as ${m[1]}`]
            : m[2]!
                .split(',')
                .filter((n) => !/^\s*type\s/.test(n))
                .map((n) => n.trim().split(/\s+as\s+/)[0]!),
        )
        .filter((n) => n && !UNIT_OF_WORK.includes(n));
    };
    const reaching = areaFiles.filter((f) => !isRepository(f) && !isEntities(f) && storeCalls(f).length > 0);
    // Every area commits through its repository (`import { transactWrite } from './repository'`).
    expect(reaching.map((f) => `${f}: ${storeCalls(f).join(', ')}`)).toEqual([]);
    expect(storeCalls('shared/members/repository.ts')).toContain('getItem');
  });

  it('services take their stores as arguments, not as default parameters (the handler, the composition root, passes them)', () => {
    const DEFAULT_STORE = /\b\w+(?:\s*:\s*[\w<>'", |&]+)?\s*=\s*table[A-Z]\w*Store\b/g;
    const found = areaFiles.flatMap((f) => [...readFileSync(join(ROOT, f), 'utf8').matchAll(DEFAULT_STORE)].map(() => f));
    expect(found).toEqual([]);
    // The pattern still finds one (so the rule is not blind): a store given as a default.
    expect('store: LedgerStore = tableLedgerStore'.match(DEFAULT_STORE)).toHaveLength(1);
    expect("store: OrdersTable & Partial<Pick<OrdersStore, 'voidCoupons'>> = tableOrdersStore".match(DEFAULT_STORE)).toHaveLength(1);
  });

  it('repositories take nothing from services: they import entities, other repositories and the platform', () => {
    const allowed = (t: string) => !t.startsWith('shared/') || t.startsWith('shared/platform/') || isEntities(`${t}.ts`) || isRepository(`${t}.ts`);
    const repositories = shipped().filter(isRepository);
    expect(repositories.length).toBeGreaterThan(20);
    expect(offenders(repositories, (t) => !allowed(t), modulesOf)).toEqual([]);
  });

  it('entities import only entities, the error table, ids, config, the scope and role lists, the entity declaration and zod', () => {
    const allowed = (t: string) =>
      isEntities(`${t}.ts`) ||
      under('shared/platform/errors', 'shared/platform/config')(t) ||
      ['shared/platform/ids', 'shared/platform/contract/scopes', 'shared/platform/contract/roles', 'shared/platform/data/entity', 'zod'].includes(t);
    const entities = areaFiles.filter(isEntities);
    expect(entities.length).toBeGreaterThan(15);
    expect(offenders(entities, (t) => !allowed(t), modulesOf)).toEqual([]);
    expect(modulesOf('shared/orders/entities.ts')).toContain('shared/program/entities');
  });

  it('a stored shape is declared once, in its area’s entities.ts (nothing keeps a copy or re-exports it)', () => {
    const declared = (f: string) => [...readFileSync(join(ROOT, f), 'utf8').matchAll(/^export (?:interface|type|const) (\w+)/gm)].map((m) => m[1]!);
    const stored = new Set(areaFiles.filter(isEntities).flatMap(declared));
    const outside = shipped().filter((f) => !isEntities(f));
    const redeclared = outside.flatMap((f) =>
      declared(f)
        .filter((name) => stored.has(name))
        .map((name) => `${f}: ${name}`),
    );
    // A door lets its own area's stored shapes out (`export type { MemberRecord } from './entities'`): that is no copy.
    const reexporting = outside
      .filter((f) => !isDoor(f))
      .filter((f) => /^export (?:type )?(?:\{[^}]*\}|\*) from ['"][^'"]*entities['"]/m.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(stored).toContain('MemberRecord');
    expect(redeclared).toEqual([]);
    expect(reexporting).toEqual([]);
  });

  it('contracts declare endpoints without the data platform, adapters or consumers', () => {
    const contracts = areaFiles.filter(isContract);
    expect(offenders(contracts, under('shared/platform/data', 'shared/platform/adapters', 'shared/platform/consumers'))).toEqual([]);
    expect(importsOf('shared/system/contract.ts')).toContain('shared/platform/contract/reference');
  });

  it('services import no contract (a contract sits above the services it declares)', () => {
    const services = areaFiles.filter((f) => !isContract(f) && !isDoor(f));
    expect(offenders(services, (t) => isContract(`${t}.ts`), modulesOf)).toEqual([]);
  });

  it('the error table and the events registry are leaves: they import nothing of the platform', () => {
    expect(offenders(filesUnder('shared/platform/errors'), (t) => t.startsWith('shared/'))).toEqual([]);
    expect(importsOf('shared/platform/events/registry.ts').filter((t) => t.startsWith('shared/'))).toEqual([]);
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
    expect(offenders(files, (t) => !allowed(t))).toEqual([]);
  });

  it('OutboxEvent is declared once, with the events', () => {
    const declaring = shipped().filter((f) => /^export (interface|type) OutboxEvent\b/m.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(declaring).toEqual(['shared/platform/events/registry.ts']);
  });
});

/** The project's own modules a file imports, resolved to files. */
function edgesOf(file: string): string[] {
  return importsOf(file).flatMap((t) => {
    if (!/^(shared|functions|infra|bin)\//.test(t)) return [];
    const found = [`${t}.ts`, `${t}.tsx`, join(t, 'index.ts'), t].find((p) => {
      try {
        return statSync(join(ROOT, p)).isFile();
      } catch {
        return false;
      }
    });
    return found ? [found] : [];
  });
}

/** The strongly connected groups of a graph with more than one node: its cycles (Tarjan). */
function cyclesOf(nodes: string[], next: (n: string) => string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      group.push(w);
      if (w === v) break;
    }
    if (group.length > 1) found.push(group.sort());
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return found;
}

describe('no import circles', () => {
  const files = [...filesUnder('shared'), ...filesUnder('functions'), ...filesUnder('infra'), ...filesUnder('bin')];
  const graph = new Map(files.map((f) => [f, edgesOf(f)]));

  it('finds circles where there are some (the check is not vacuous)', () => {
    const toy = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cyclesOf([...toy.keys()], (n) => toy.get(n) ?? [])).toEqual([['a', 'b', 'c']]);
    expect(graph.get('shared/http/area.ts')).toContain('shared/platform/contract/endpoint.ts');
  });

  it('no file reaches itself through its imports (dynamic imports included)', () => {
    expect(cyclesOf(files, (f) => graph.get(f) ?? [])).toEqual([]);
  });

  it('areas form no folder circles: area folders call each other one way', () => {
    const folderEdges = new Map<string, Set<string>>(AREAS.map((a) => [a, new Set()]));
    for (const f of areaFiles)
      for (const t of graph.get(f) ?? []) {
        const to = areaOf(t);
        if (to && to !== areaOf(f)) folderEdges.get(areaOf(f)!)!.add(to);
      }
    // auth, api-keys and audit called each other both ways until who is calling (Principal, the roles)
    // and the bearer tokens moved to shared/platform and resolving a bearer to shared/http.
    expect(cyclesOf(AREAS, (a) => [...folderEdges.get(a)!])).toEqual([]);
    expect(folderEdges.get('api-keys')).toContain('auth');
  });
});
