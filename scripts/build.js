// `npm run build`: compiles the bot into a new build folder and puts it in place of dist/ atomically
// (see dist.js), so that a bot running from the previous build is never disturbed.
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { build } from './dist.js';

const root = fileURLToPath(new URL('..', import.meta.url));
await build(root, (line) => process.stderr.write(`build: ${line}\n`));
