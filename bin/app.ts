/**
 * CDK app entry (cdk.json: `npx tsx bin/app.ts`). Deploy with `npx cdk deploy`;
 * options: `-c mailFrom=no-reply@example.com`, `-c publicBaseUrl=https://loyalty.example.com`.
 */
import { buildApp } from '../infra/app/stack';

buildApp().app.synth();
