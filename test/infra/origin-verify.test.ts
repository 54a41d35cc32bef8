import { beforeAll, describe, expect, it } from 'vitest';
import { HTTP_API_LOGICAL_ID } from '../../infra/app/constructs/api';
import { CONSOLE_DISTRIBUTION_LOGICAL_ID } from '../../infra/app/constructs/console-hosting';
import { buildApp, ORIGIN_VERIFY_SECRET_LOGICAL_ID } from '../../infra/app/stack';
import { config } from '../../shared/platform/config';
import { AREAS } from '../../shared/http/declarations';
import { synthesizedApp } from '../support/synthesized-app';
import { platformTemplates } from './templates';

/**
 * Only our CloudFront distribution may name the viewer's host to the API (X-Forwarded-Host, which
 * the Origin check and links are made of): it adds a secret header that the area functions compare,
 * one generated secret (resolved into the distribution at deploy time, read by the functions at run
 * time). With an origin domain for the API, API
 * Gateway's default endpoint is disabled, so nothing reaches the API but through the distribution.
 */

const HEADER = config.http.originVerifyHeader;
/** The dynamic reference CloudFormation resolves at deploy time to the secret's value. */
const referencesTheSecret = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.includes('{{resolve:secretsmanager:') && text.includes(':SecretString:::}}');
};

let resources: Record<string, any>;
beforeAll(() => {
  resources = synthesizedApp().resources;
});

const apiOrigin = (res: Record<string, any>) =>
  res[CONSOLE_DISTRIBUTION_LOGICAL_ID].Properties.DistributionConfig.Origins.find((o: { CustomOriginConfig?: unknown }) => o.CustomOriginConfig);

describe('the origin header of the distribution', () => {
  it('is a generated secret, pinned, its value in no template', () => {
    const secret = resources[ORIGIN_VERIFY_SECRET_LOGICAL_ID];
    expect(secret.Type).toBe('AWS::SecretsManager::Secret');
    expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    expect(secret.Properties.SecretString).toBeUndefined();
  });

  it('is added by CloudFront to every request it sends the API, from the secret', () => {
    const custom = apiOrigin(resources).OriginCustomHeaders;
    expect(custom).toHaveLength(1);
    expect(custom[0].HeaderName).toBe(HEADER);
    expect(referencesTheSecret(custom[0].HeaderValue)).toBe(true);
    expect(JSON.stringify(custom[0].HeaderValue)).toContain(ORIGIN_VERIFY_SECRET_LOGICAL_ID);
    // Only the API origin: the bucket needs no such header.
    const bucket = resources[CONSOLE_DISTRIBUTION_LOGICAL_ID].Properties.DistributionConfig.Origins.find((o: { S3OriginConfig?: unknown }) => o.S3OriginConfig);
    expect(bucket.OriginCustomHeaders).toBeUndefined();
  });

  it('is what every area function compares: the same secret, read at run time by its ARN (ORIGIN_VERIFY_SECRET_ARN)', () => {
    const { templates } = synthesizedApp();
    const areaFunctions = Object.values(resources).filter(
      (r) => r.Type === 'AWS::Lambda::Function' && AREAS.includes(r.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME),
    );
    expect(areaFunctions).toHaveLength(AREAS.length);
    for (const fn of areaFunctions) {
      expect(fn.Properties.Environment.Variables.ORIGIN_VERIFY_SECRET_ARN).toEqual({ Ref: ORIGIN_VERIFY_SECRET_LOGICAL_ID });
      // Never its value (test/infra/secrets.test.ts checks every function and every secret).
      expect(referencesTheSecret(fn.Properties.Environment.Variables)).toBe(false);
    }
    // The ARN reaches the nested stack from the root, where the pinned secret is.
    const root = JSON.stringify(templates.root.Resources);
    expect(root).toContain(`"Ref":"${ORIGIN_VERIFY_SECRET_LOGICAL_ID}"`);
  });

  it('without an origin domain the default endpoint stays: it is where the distribution reaches the API', () => {
    expect(resources[HTTP_API_LOGICAL_ID].Properties.DisableExecuteApiEndpoint).toBe(false);
    expect(JSON.stringify(apiOrigin(resources).DomainName)).toContain(HTTP_API_LOGICAL_ID);
  });
});

describe('with an origin domain for the API', () => {
  const DOMAIN = 'api-origin.example.com';
  const CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/00000000-0000-0000-0000-000000000000';
  let merged: Record<string, any>;
  beforeAll(() => {
    const { app, stack } = buildApp({
      context: { 'aws:cdk:bundling-stacks': [], apiOriginDomain: DOMAIN, apiOriginCertificateArn: CERTIFICATE },
    });
    app.synth();
    merged = platformTemplates(stack).merged.Resources as Record<string, any>;
  });
  const ofType = (type: string) => Object.values(merged).filter((r) => r.Type === type);

  it("disables API Gateway's default endpoint: the API answers only through the distribution", () => {
    expect(merged[HTTP_API_LOGICAL_ID].Properties.DisableExecuteApiEndpoint).toBe(true);
  });

  it('maps the domain to the stage, and the distribution reaches the API on it, still with the secret header', () => {
    const [domain] = ofType('AWS::ApiGatewayV2::DomainName');
    expect(domain.Properties).toMatchObject({ DomainName: DOMAIN, DomainNameConfigurations: [{ CertificateArn: CERTIFICATE, EndpointType: 'REGIONAL' }] });
    const [mapping] = ofType('AWS::ApiGatewayV2::ApiMapping');
    expect(JSON.stringify(mapping.Properties.ApiId)).toContain(HTTP_API_LOGICAL_ID);
    const origin = apiOrigin(merged);
    expect(JSON.stringify(origin.DomainName)).toContain('RegionalDomainName');
    expect(JSON.stringify(origin.DomainName)).not.toContain(HTTP_API_LOGICAL_ID);
    expect(origin.OriginCustomHeaders[0].HeaderName).toBe(HEADER);
  });

  it('takes both context values or neither', () => {
    expect(() => buildApp({ context: { 'aws:cdk:bundling-stacks': [], apiOriginDomain: DOMAIN } })).toThrow(/both/);
  });
});
