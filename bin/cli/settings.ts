import { homedir } from 'node:os';
import { join } from 'node:path';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

/** The options every command takes (program-level). */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  json?: boolean;
}

export const baseUrlOf = (o: GlobalOptions): string => (o.baseUrl ?? process.env.LOYALTY_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');

/** Where `loyalty login` keeps sessions: `$LOYALTY_CONFIG_DIR`, else `$XDG_CONFIG_HOME/loyalty`, else `~/.config/loyalty`. */
export const configDir = (): string => process.env.LOYALTY_CONFIG_DIR ?? join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'loyalty');
