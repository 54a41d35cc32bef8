import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configDir } from './settings';

/** An admin session of one base URL, as `loyalty login` stored it. */
export interface StoredSession {
  token: string;
  email: string;
  expiresAt: string;
}

const file = () => join(configDir(), 'sessions.json');

async function readAll(): Promise<Record<string, StoredSession>> {
  try {
    return JSON.parse(await readFile(file(), 'utf8')) as Record<string, StoredSession>;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw e;
  }
}

/** Written whole to a temporary file first, owner-only (0600 in a 0700 folder): the file holds bearer tokens. */
async function writeAll(all: Record<string, StoredSession>): Promise<void> {
  const dir = configDir();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file()}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file());
}

export async function storedSession(baseUrl: string): Promise<StoredSession | undefined> {
  const s = (await readAll())[baseUrl];
  return s && Date.parse(s.expiresAt) > Date.now() ? s : undefined;
}

export async function storeSession(baseUrl: string, session: StoredSession): Promise<string> {
  await writeAll({ ...(await readAll()), [baseUrl]: session });
  return file();
}

export async function forgetSession(baseUrl: string): Promise<boolean> {
  const all = await readAll();
  if (!all[baseUrl]) return false;
  delete all[baseUrl];
  await writeAll(all);
  return true;
}
