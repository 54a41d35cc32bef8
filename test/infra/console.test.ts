import { beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleSync, CONSOLE_ASSETS_PATH, CONSOLE_PATH, consoleContentSecurityPolicy } from '../../infra/build/console';
import { HTTP_API_LOGICAL_ID } from '../../infra/app/constructs/api';
import {
  CONSOLE_BUCKET_LOGICAL_ID,
  CONSOLE_DISTRIBUTION_LOGICAL_ID,
  CONSOLE_PATHS_FUNCTION,
  FORWARDED_HOST_FUNCTION,
} from '../../infra/app/constructs/console-hosting';
import { synthesizedApp } from '../support/synthesized-app';

/**
 * The one origin in AWS: a CloudFront distribution in front of a private bucket (origin access
 * control) for the console and of the HTTP API for everything else, as `cdk synth` makes it.
 */

let resources: Record<string, any>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

beforeAll(() => {
  resources = synthesizedApp().resources;
});

/** A CloudFront Function's code run as CloudFront runs it: `handler(event)` on a viewer request. */
function runEdgeFunction(code: string, uri: string, host = 'd111.cloudfront.net') {
  const handler = new Function(`${code}\nreturn handler;`)();
  return handler({ request: { uri, headers: { host: { value: host } } } });
}

describe('the distribution', () => {
  it('sends every path to the HTTP API, uncached, with the viewer headers and cookies, over https only', () => {
    const dist = resources[CONSOLE_DISTRIBUTION_LOGICAL_ID];
    expect(dist.Type).toBe('AWS::CloudFront::Distribution');
    const config = dist.Properties.DistributionConfig;
    const api = config.Origins.find((o: { CustomOriginConfig?: unknown }) => o.CustomOriginConfig);
    expect(JSON.stringify(api.DomainName)).toContain(HTTP_API_LOGICAL_ID);
    expect(api.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    const def = config.DefaultCacheBehavior;
    expect(def.TargetOriginId).toBe(api.Id);
    expect(def).toMatchObject({ CachePolicyId: CACHING_DISABLED, OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST, ViewerProtocolPolicy: 'redirect-to-https' });
    expect(def.AllowedMethods.sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    expect(def.FunctionAssociations).toHaveLength(1);
  });

  it('answers /console and /console/* from the private bucket through origin access control, compressed, with the CSP', () => {
    const config = resources[CONSOLE_DISTRIBUTION_LOGICAL_ID].Properties.DistributionConfig;
    const bucketOrigin = config.Origins.find((o: { S3OriginConfig?: unknown }) => o.S3OriginConfig);
    expect(JSON.stringify(bucketOrigin.DomainName)).toContain(CONSOLE_BUCKET_LOGICAL_ID);
    expect(bucketOrigin.OriginAccessControlId).toBeDefined();
    expect(bucketOrigin.S3OriginConfig.OriginAccessIdentity).toBe('');
    const behaviors = config.CacheBehaviors.map((b: { PathPattern: string }) => b.PathPattern).sort();
    expect(behaviors).toEqual(['/console', '/console/*']);
    for (const b of config.CacheBehaviors) {
      expect(b).toMatchObject({ TargetOriginId: bucketOrigin.Id, Compress: true, ViewerProtocolPolicy: 'redirect-to-https' });
      expect(b.FunctionAssociations).toHaveLength(1);
    }
    const [[, oac]] = ofType('AWS::CloudFront::OriginAccessControl') as [[string, any]];
    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    const [[, headers]] = ofType('AWS::CloudFront::ResponseHeadersPolicy') as [[string, any]];
    const security = headers.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    // S3 of the region is the one other address the page may call (import files PUT to their presigned links).
    expect(security.ContentSecurityPolicy).toEqual({
      ContentSecurityPolicy: {
        'Fn::Join': [
          '',
          [
            consoleContentSecurityPolicy('https://*.s3.REGION').split('REGION')[0],
            { Ref: 'AWS::Region' },
            consoleContentSecurityPolicy('REGION.amazonaws.com').split('REGION')[1],
          ],
        ],
      },
      Override: true,
    });
    expect(security.FrameOptions.FrameOption).toBe('DENY');
    expect(security.StrictTransportSecurity.AccessControlMaxAgeSec).toBe(365 * 24 * 3600);
  });

  it('keeps its pinned logical id (its id is the address everyone uses)', () => {
    expect([CONSOLE_DISTRIBUTION_LOGICAL_ID, CONSOLE_BUCKET_LOGICAL_ID]).toEqual(['ConsoleDistribution', 'ConsoleFiles']);
  });
});

describe('the console bucket', () => {
  it('is private, encrypted, TLS only, and readable by this distribution alone', () => {
    const bucket = resources[CONSOLE_BUCKET_LOGICAL_ID];
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
    const policy = ofType('AWS::S3::BucketPolicy').find(([, p]) => JSON.stringify(p.Properties.Bucket).includes(CONSOLE_BUCKET_LOGICAL_ID))![1];
    const statements = policy.Properties.PolicyDocument.Statement;
    expect(statements.some((s: any) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false')).toBe(true);
    const reads = statements.filter((s: any) => s.Effect === 'Allow');
    expect(reads).toHaveLength(1);
    expect(reads[0].Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
    expect(reads[0].Action).toBe('s3:GetObject');
    expect(JSON.stringify(reads[0].Condition)).toContain(CONSOLE_DISTRIBUTION_LOGICAL_ID);
  });

  it('gets the build at deployment: hashed assets cached for a year, the page always checked again, the old page purged', () => {
    const deployments = ofType('Custom::CDKBucketDeployment').map(([, d]) => d.Properties);
    expect(deployments).toHaveLength(2);
    const cache = deployments.map((d) => d.SystemMetadata?.['cache-control']).sort();
    expect(cache).toEqual(['no-cache', 'public, max-age=31536000, immutable']);
    const page = deployments.find((d) => d.SystemMetadata['cache-control'] === 'no-cache')!;
    expect(page.DistributionPaths).toEqual(['/console', '/console/*']);
    expect(deployments.every((d) => d.Prune === false)).toBe(true);
  });
});

describe('the edge functions', () => {
  it('answer every console address that is not an asset with the page', () => {
    expect(runEdgeFunction(CONSOLE_PATHS_FUNCTION, '/console').uri).toBe('/console/index.html');
    expect(runEdgeFunction(CONSOLE_PATHS_FUNCTION, '/console/api-keys').uri).toBe('/console/index.html');
    expect(runEdgeFunction(CONSOLE_PATHS_FUNCTION, '/console/assets/app-AB12.js').uri).toBe('/console/assets/app-AB12.js');
    // The addresses of details: the browser routes them once the page is there.
    for (const deep of [
      '/console/members/mbr_01J9Z',
      '/console/program/campaigns/new',
      '/console/object-types/repair_job',
      '/console/webhooks/whe_1/deliveries',
    ]) {
      expect(runEdgeFunction(CONSOLE_PATHS_FUNCTION, deep).uri, deep).toBe('/console/index.html');
    }
  });

  it("hand the API the viewer's host as X-Forwarded-Host (API Gateway gets its own as Host)", () => {
    const request = runEdgeFunction(FORWARDED_HOST_FUNCTION, '/api/v2/members', 'loyalty.example.com');
    expect(request.headers['x-forwarded-host']).toEqual({ value: 'loyalty.example.com' });
  });
});

describe('the console build', () => {
  const built = buildConsoleSync();
  const page = built.page.body.toString('utf8');
  const assets = [...built.files.keys()].filter((p) => p !== CONSOLE_PATH);

  it('loads the entry the metafile names, its stylesheet, and preloads the chunks the entry imports', () => {
    expect(built.entry).toMatch(/^\/console\/assets\/app-[A-Z0-9]+\.js$/);
    expect(page).toContain(`<script type="module" src="${built.entry}"></script>`);
    expect(page).toMatch(/<link rel="stylesheet" href="\/console\/assets\/app-[A-Z0-9]+\.css">/);
    const preloaded = [...page.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]!);
    expect(preloaded.length).toBeGreaterThan(0);
    for (const p of preloaded) expect(built.files.has(p), p).toBe(true);
    // Nothing inline: the CSP allows scripts and styles from this origin only.
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });

  it('puts each screen in a chunk of its own, named by its hash under the assets path, immutable, and passed by the edge function as itself', () => {
    for (const screen of [
      'overview',
      'members',
      'member-detail',
      'program',
      'object-types',
      'webhooks',
      'exports',
      'api-keys',
      'wallet',
      'audit-log',
      'team',
      'accept',
      'not-found',
    ]) {
      expect(
        assets.filter((p) => new RegExp(`^${CONSOLE_ASSETS_PATH}${screen}-[A-Z0-9]+\\.js$`).test(p)),
        screen,
      ).toHaveLength(1);
    }
    for (const p of assets) {
      expect(p).toMatch(/^\/console\/assets\/[a-z-]+-[A-Z0-9]{8}\.(js|css)$/);
      expect(built.files.get(p)!.immutable, p).toBe(true);
      expect(runEdgeFunction(CONSOLE_PATHS_FUNCTION, p).uri, p).toBe(p);
    }
    // The entry holds the router and the sign-in form, not the screens: a member's erasure is in its chunk only.
    const text = (p: string) => built.files.get(p)!.body.toString('utf8');
    expect(text(built.entry)).toContain('Sign in to the console');
    expect(assets.filter((p) => text(p).includes('Erase this member')).map((p) => p.replace(/-[A-Z0-9]+\.js$/, ''))).toEqual([
      `${CONSOLE_ASSETS_PATH}member-detail`,
    ]);
  });
});
