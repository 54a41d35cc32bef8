import type { Command } from 'commander';
import { examples } from './help';

/**
 * Examples for each command's help, by command path (the commands that declare none where they
 * are registered). Applied to whatever commands this invocation loaded.
 */
const EXAMPLES: Record<string, string[]> = {
  login: ['loyalty login --email you@example.com', 'printf %s "$PASSWORD" | loyalty login --email you@example.com --password-stdin'],
  logout: ['loyalty logout'],
  'keys create': ['loyalty keys create --name reporting --preset read-only', 'loyalty keys create --name crm --scopes members:read,members:write'],
  'keys list': ['loyalty keys list', 'loyalty keys list --json'],
  'keys revoke': ['loyalty keys revoke key_01...', 'loyalty keys revoke key_01... --yes'],
  'objects apply': ['loyalty objects apply types.yaml --dry-run', 'loyalty objects apply types.yaml'],
  'orders create': [
    'loyalty orders create --member mbr_01... --total 59.90 --currency EUR --item MUG-BLK:2:29.95',
    'loyalty orders create --member mbr_01... --total 10 --currency EUR --external-id WEB-1',
  ],
  'rewards list': ['loyalty rewards list', 'loyalty rewards list --status active --json'],
  'rewards create': [
    'loyalty rewards create --name "5 € off" --points 500 --amount 5.00 --currency EUR --stock 200 --status active',
    'loyalty rewards create --name "Free shipping" --points 250 --free-shipping',
  ],
  'rewards redeem': ['loyalty rewards redeem rwd_01... --member mbr_01...'],
  'orders list': ['loyalty orders list', 'loyalty orders list --member mbr_01...'],
  'orders refund': ['loyalty orders refund WEB-1 --amount 30.00', 'loyalty orders refund WEB-1'],
  'events list': ['loyalty events list', 'loyalty events list --json'],
  'webhooks list': ['loyalty webhooks list'],
  'webhooks test': ['loyalty webhooks test whe_01...'],
  'webhooks deliveries': ['loyalty webhooks deliveries whe_01...', 'loyalty webhooks deliveries whe_01... --follow'],
  'webhooks listen': [
    'loyalty webhooks listen --forward-to http://127.0.0.1:4000/hooks',
    'loyalty webhooks listen --forward-to http://127.0.0.1:4000/hooks --events order.created,member.created',
  ],
  'exports start': ['loyalty exports start --entity members --format csv --wait --output members.csv'],
  'exports get': ['loyalty exports get exp_01...'],
  'exports download': ['loyalty exports download exp_01... --output members.csv'],
  'import start': ['loyalty import start balances.csv --kind balances --preview-only', 'loyalty import start members.csv --kind members --yes'],
  'import apply': ['loyalty import apply imp_01...'],
  'import status': ['loyalty import status imp_01...', 'loyalty import status imp_01... --follow'],
  'import undo': ['loyalty import undo imp_01...', 'loyalty import undo imp_01... --yes'],
};

const pathOf = (cmd: Command): string => {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
};

/** Adds the examples above to every loaded command that has some. */
export function addExamples(program: Command): void {
  const visit = (cmd: Command) => {
    const lines = EXAMPLES[pathOf(cmd)];
    if (lines) examples(cmd, ...lines);
    cmd.commands.forEach(visit);
  };
  program.commands.forEach(visit);
}
