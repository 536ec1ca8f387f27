// `npm start` and `npm run deploy`: `node scripts/run.js dist/src/main.js` runs a compiled entry, building
// dist/ first only when it is missing or older than the sources (see dist.js). Nothing is deleted or
// rebuilt under a running process, and a start with a fresh dist/ costs no compilation.
import process from 'node:process';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';
import { claim, ensureBuilt } from './dist.js';

const entry = process.argv[2];
if (entry === undefined || !entry.startsWith('dist/')) {
  process.stderr.write('usage: node scripts/run.js dist/<entry>.js [arguments…]\n');
  process.exit(2);
}
const root = fileURLToPath(new URL('..', import.meta.url));
await ensureBuilt(root, (line) => process.stderr.write(`start: ${line}\n`));
// The entry sees its own arguments, as under `node dist/<entry>.js`.
const real = claim(root, entry);
process.argv.splice(1, 2, real);
await import(pathToFileURL(real).href);
