/** `npm run docs:tables`: writes the generated reference tables into their docs pages. */
import { readFileSync, writeFileSync } from 'node:fs';
import { GENERATED_BLOCKS, withBlock } from '../infra/build/docs/tables';

const root = new URL('../', import.meta.url);
for (const { file, name, render } of GENERATED_BLOCKS) {
  const path = new URL(file, root);
  const before = readFileSync(path, 'utf8');
  const after = withBlock(before, name, render());
  if (after !== before) writeFileSync(path, after);
  console.log(`${file} (${name}): ${after === before ? 'up to date' : 'written'}`);
}
