import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createApiKey } from '../../shared/api-keys';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { register } from '../../shared/auth';

export interface DemoCredentials {
  workspaceId: string;
  email: string;
  password: string;
  apiKey: string;
}

/**
 * On the first start (fresh table) creates a demo workspace, its owner and an all-scopes API key,
 * through the same domain services the API uses, and remembers them in DATA_DIR/demo.json so later
 * starts can print them again.
 */
export async function ensureDemoWorkspace(dataDir: string, tableIsNew: boolean): Promise<DemoCredentials | undefined> {
  const file = join(dataDir, 'demo.json');
  if (!tableIsNew) return existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as DemoCredentials) : undefined;
  const email = 'admin@demo.loyalty.local';
  const password = randomBytes(12).toString('base64url');
  // Not a request: the seed's audit entries name this request id.
  const requestId = 'local-demo-seed';
  const { workspace, user } = await register({ workspaceName: 'Demo Workspace', email, password, name: 'Demo Admin' }, { requestId });
  const key = await createApiKey(
    { kind: 'session', workspaceId: workspace.id, userId: user.id, role: 'owner', tokenHash: '', expiresAt: 0 },
    { name: 'Demo key (all scopes)', scopes: [...SCOPES] },
    { actor: { type: 'user', id: user.id }, requestId },
  );
  const demo: DemoCredentials = { workspaceId: workspace.id, email, password, apiKey: key.key };
  await writeFile(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}
