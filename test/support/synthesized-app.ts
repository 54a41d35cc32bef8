import type { App } from 'aws-cdk-lib';
import { buildApp, type LoyaltyPlatformStack } from '../../infra/app/stack';
import { platformTemplates, type PlatformTemplates } from '../infra/templates';

export interface SynthesizedApp {
  app: App;
  stack: LoyaltyPlatformStack;
  /** The cloud assembly (`app.synth()`, which runs the cdk-nag validation plugins). */
  assemblyDir: string;
  /** The root's and each nested stack's template. */
  templates: PlatformTemplates;
  /** Every resource of every stack, as one template (`PlatformTemplates.merged`): a copy of its own for each caller. */
  resources: Record<string, any>;
}

let synthesized: (Omit<SynthesizedApp, 'resources'> & { resources: Record<string, unknown> }) | undefined;

/**
 * The app as `cdk synth` builds it, without bundling the functions, synthesized once per worker:
 * the infra project runs its files in one module graph per worker (`isolate: false`), so every
 * file that only reads the template shares this one synthesis. A test that changes an app builds
 * its own with `buildApp()`.
 */
export function synthesizedApp(): SynthesizedApp {
  if (!synthesized) {
    const { app, stack } = buildApp({ context: { 'aws:cdk:bundling-stacks': [] } });
    const assemblyDir = app.synth().directory;
    const templates = platformTemplates(stack);
    synthesized = { app, stack, assemblyDir, templates, resources: templates.merged.Resources as Record<string, unknown> };
  }
  return { ...synthesized, resources: structuredClone(synthesized.resources) };
}
