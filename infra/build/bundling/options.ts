import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { OPENAPI_FILE } from '../../../shared/http/openapi-file';
import { RENDERER_ASSET } from '../../../shared/http/reference-assets';

/**
 * How every Lambda function is bundled: one definition read by CDK (`PlatformFunction`, through
 * its `bundling` props) and by the tools that build the same bundles with esbuild's JS API (the
 * cold-start benchmark, the bundle-budget test), so they measure what ships.
 *
 * No aws-cdk-lib import here: the benchmark loads this file.
 */

/** Project root (where package.json lives). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Largest accepted size of one function bundle (`index.mjs`, without its source map). */
export const BUNDLE_BUDGET_KIB = 600;

/**
 * The one function allowed a larger bundle, with its measured size and reason: the MCP server, whose
 * floor (the MCP SDK, the AWS SDK, zod and the HTTP chain, with no tool) is over the budget by itself
 * (docs/decisions/0086-the-api-document-built-ahead-one-bundle-over-budget.md). Every other function keeps
 * `BUNDLE_BUDGET_KIB`; no list, so a second exception is a change of this declaration's type.
 */
export const BUNDLE_BUDGET_EXCEPTION = {
  function: 'mcp',
  // 934 KiB with campaigns; 805 with the SDK's smaller JSON Schema validator (REPLACED_MODULES); 864 with the
  // program engine, campaign triggers, stored-size bounds and request budgets; 829 since the tool registry reads only
  // the contracts of the areas its tools call, not the whole route table; 844 with the Secrets Manager client (the
  // page cursor key and the origin header's value are read at run time, no longer from the environment); 845 with one
  // declaration per stored type (decision 0073); 875.5 with what an order earns on (amounts, basis, exclusions,
  // caps, line bonuses), bonuses that follow their order, corrections, the simulation's trace and the explain tool;
  // 878.6 with the order's member and tier read together, campaign points back to pending and the month roll-ups;
  // 881.4 with the ledger's redemption entries, the reward errors and events, and a reward's coupon in the coupons area;
  // 884.2 with the permissions and roles the HTTP chain checks (each permission with its description); 885.9 with the
  // audit entries' field-by-field changes of a campaign and the manual points changes audited from the tools too;
  // 888.5 with goodwill earns kept out of the tier, the rewards' checkout terms and the members' bulk removal; 890.2
  // with two-factor sign-in in the credential check (the enrolment-only session, its error and the user's stored shape);
  // 916.3 with the rewards tools (the catalog's and the redemptions' services, schemas and the contract their scopes come from);
  // 917.5 with the tier, activity and campaign counters a points change moves (decision 0098); 918.5 with the
  // redemptions voided when their code expires unused (the rewards' due work and the redemption's index of due voids).
  kib: 919,
  reason:
    'The MCP SDK (about 210 KiB minified with its smaller JSON Schema validator), the AWS SDK (about 210 KiB), zod ' +
    '(about 105 KiB) and the HTTP chain take the bundle to 733 KiB with no tool at all, so no split of the tools ' +
    '(per area, lazily loaded, or into the area functions) brings the function that speaks MCP under 600 KiB. ' +
    'Its module load is about 260 ms of CPU more than the median function (511 against 250), once per container, inside an ' +
    'agent turn of seconds (docs/performance.md, "The API document built ahead").',
} as const;

export const bundleBudgetKib = (name: string): number => (name === BUNDLE_BUDGET_EXCEPTION.function ? BUNDLE_BUDGET_EXCEPTION.kib : BUNDLE_BUDGET_KIB);

/** A file shipped next to a function's bundle (read at run time) rather than inside it. */
export type ShippedFile = {
  /** Destination, relative to the bundle's folder (where `index.mjs` is). */
  readonly to: string;
  /** Largest accepted size. */
  readonly kib: number;
  readonly reason: string;
} & (
  | {
      /** A file copied as it is, relative to the project root. */
      readonly from: string;
    }
  | {
      /** A script, relative to the project root, run with tsx and the destination's path: it writes the file. */
      readonly renderedBy: string;
    }
);

/** The command that writes a rendered shipped file to `target` (the CDK bundling and `buildBundles` run the same). */
export const renderCommand = (file: { readonly renderedBy: string }, root: string, target: string): string[] => [
  `${root}/node_modules/.bin/tsx`,
  `${root}/${file.renderedBy}`,
  target,
];

/**
 * Files shipped next to a function's bundle, per function, each with its reason and budget. They
 * cost nothing at cold start (read on first use only), unlike the same bytes inside `index.mjs`.
 */
export const SHIPPED_FILES: Readonly<Record<string, readonly ShippedFile[]>> = {
  [RENDERER_ASSET.function]: [
    {
      from: `node_modules/${RENDERER_ASSET.package}/${RENDERER_ASSET.file}`,
      to: RENDERER_ASSET.shippedAs,
      kib: 6000,
      reason:
        "The API reference page's renderer (Scalar's standalone browser bundle, JS and CSS in one file, about 4.7 MiB). " +
        'Served to browsers, never loaded by the function itself; inside index.mjs it would be parsed at every cold start.',
    },
    {
      renderedBy: 'bin/openapi-document.ts',
      to: OPENAPI_FILE.shippedAs,
      kib: 1000,
      reason:
        "The API's OpenAPI document (about 520 KiB), rendered from every area's contract, schemas and examples when the " +
        'function is bundled. Built at run time, it took every contract into the bundle (about 190 KiB, over the budget); ' +
        'read from this file on the first request that needs it (the document itself, or a 404 for the routes it names).',
    },
  ],
};

/**
 * ESM bundles have no `require`; CommonJS dependencies bundled into them (parts of the AWS SDK,
 * middy plugins) call it. Defined once at the top of every bundle.
 */
export const BUNDLE_BANNER = "import { createRequire as __loyaltyCreateRequire } from 'node:module'; const require = __loyaltyCreateRequire(import.meta.url);";

/**
 * Modules left out of every bundle (esbuild `external`). Each one is reached only through a
 * dynamic `import()` that never runs in Lambda, so leaving it out costs nothing at run time (the
 * bundle-budget test fails if a bundle imports one statically):
 * - the rest of the AWS SDK's default credential chain (about 110 KiB per bundle). The chain tries
 *   the environment first, and Lambda always sets `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and
 *   `AWS_SESSION_TOKEN`, so the other sources (SSO, ini profiles, credential_process, web
 *   identity, container and instance metadata) and what they pull in (the STS, SSO and sign-in
 *   clients, the XML and query protocols) are never loaded. Without credentials in the
 *   environment, a call would fail with `Cannot find package '@aws-sdk/credential-provider-ini'`
 *   instead of "Could not load credentials from any providers".
 *
 * - Powertools Tracer (`@aws-lambda-powertools/tracer`) and the X-Ray SDK under it (about 120 KiB
 *   per bundle, which would push most functions over `BUNDLE_BUDGET_KIB`): imported on the first
 *   invocation only when tracing is on (shared/platform/observability/tracing.ts), from the Powertools
 *   Lambda layer; without the layer tracing stays off and the function runs as before.
 *
 * Event streams (`@smithy/core/event-streams`, about 20 KiB) were left out too until the S3 client
 * came in with the exports: it imports them statically, so they are bundled now.
 */
export const LEFT_OUT_MODULES: readonly string[] = [
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-web-identity',
  '@aws-sdk/credential-provider-http',
  '@smithy/credential-provider-imds',
  '@aws-lambda-powertools/tracer',
];

/**
 * Modules replaced in every bundle (esbuild `alias`), each by a file of ours, relative to the project
 * root:
 * - the MCP server SDK's Node shim, whose only job besides `process` is to name the default JSON
 *   Schema validator: Ajv there (about 150 KiB minified in the MCP bundle), the SDK's own
 *   `@cfworker/json-schema` validator in ours (shims/mcp-server-node.ts). Tests and the local
 *   runtime run the package as published.
 */
export const REPLACED_MODULES: Readonly<Record<string, string>> = {
  '@modelcontextprotocol/server/_shims': './infra/build/bundling/shims/mcp-server-node.ts',
};

/**
 * The esbuild settings of every function. `PlatformFunction` maps each one to the CDK `bundling`
 * prop of the same meaning; `esbuildOptions()` to esbuild's JS API.
 */
export const BUNDLING = {
  format: 'esm',
  target: 'node24',
  platform: 'node',
  mainFields: ['module', 'main'],
  banner: BUNDLE_BANNER,
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  // The AWS SDK is bundled too (it is not in this list): production runs the exact SDK version
  // the tests ran against, instead of whatever version the managed runtime ships that week.
  external: LEFT_OUT_MODULES,
  alias: REPLACED_MODULES,
} as const;

/**
 * esbuild JS API options that produce the same `index.mjs` as CDK's bundling of one function.
 * `entryPoints` maps an output folder name to an entry file; each bundle is written to
 * `<outdir>/<name>/index.mjs` (with `index.mjs.map`), as in a CDK asset folder.
 */
export function esbuildOptions(entryPoints: Record<string, string>, outdir: string): BuildOptions {
  return {
    entryPoints: Object.fromEntries(Object.entries(entryPoints).map(([name, entry]) => [`${name}/index`, entry])),
    outdir,
    outExtension: { '.js': '.mjs' },
    absWorkingDir: ROOT, // CDK runs esbuild in the project root
    bundle: true,
    format: BUNDLING.format,
    target: BUNDLING.target,
    platform: BUNDLING.platform,
    mainFields: [...BUNDLING.mainFields],
    banner: { js: BUNDLING.banner },
    minify: BUNDLING.minify,
    sourcemap: BUNDLING.sourceMap,
    sourcesContent: BUNDLING.sourcesContent,
    external: [...BUNDLING.external],
    alias: { ...BUNDLING.alias },
    logLevel: 'warning',
  };
}
