import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { COMMANDS } from '../../../../bin/cli/catalog';
import { buildProgram } from '../../../../bin/cli/main';
import { headerOf } from '../../../../bin/cli/output';

/** A command's full help as printed (with the text added after it). */
function helpOf(cmd: Command): string {
  let text = '';
  cmd.configureOutput({ writeOut: (s) => void (text += s), writeErr: (s) => void (text += s) });
  cmd.outputHelp();
  return text;
}

const leaves = (cmd: Command): Command[] => (cmd.commands.length ? cmd.commands.flatMap(leaves) : [cmd]);

describe('loyalty help', () => {
  it('every command shows examples and the global options', async () => {
    const missing: string[] = [];
    for (const name of Object.keys(COMMANDS)) {
      const program = await buildProgram(['node', 'loyalty', name]);
      for (const leaf of leaves(program.commands.find((c) => c.name() === name)!)) {
        const help = helpOf(leaf);
        if (!help.includes('Examples:\n  $ loyalty ')) missing.push(`${name} ${leaf.name()}: examples`);
        if (!/Global Options:[\s\S]*--base-url[\s\S]*--api-key/.test(help)) missing.push(`${name} ${leaf.name()}: global options`);
      }
    }
    expect(missing).toEqual([]);
  }, 60_000);

  it('the top-level help lists every command without loading its module', async () => {
    const program = await buildProgram(['node', 'loyalty', '--help']);
    const help = helpOf(program).replace(/\s+/g, ' ');
    for (const [name, { description }] of Object.entries(COMMANDS)) {
      expect(help).toContain(` ${name} `);
      expect(help).toContain(description);
    }
    expect(program.commands.every((c) => c.commands.length === 0)).toBe(true);
  });

  it('table headers are words', () => {
    expect(headerOf('externalOrderId')).toBe('EXTERNAL ORDER ID');
    expect(headerOf('id')).toBe('ID');
  });
});
