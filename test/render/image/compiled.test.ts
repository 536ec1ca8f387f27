import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const IMPORT = /from '(\.{1,2}\/[^']+\.ts)'/g;

/**
 * The modules `entries` import, transitively, compiled the way `npm run build` compiles them (each file
 * to JavaScript beside the others under `dist/`, `.ts` specifiers rewritten to `.js`), into `out`.
 */
function compile(entries: string[], out: string): void {
  const seen = new Set<string>();
  const stack = entries.map((entry) => join(ROOT, entry));
  while (stack.length > 0 && seen.size < 100) {
    const file = stack.pop() ?? '';
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(IMPORT)) stack.push(resolve(dirname(file), specifier ?? ''));
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2023,
        rewriteRelativeImportExtensions: true,
        verbatimModuleSyntax: true,
      },
      fileName: file,
    });
    const target = join(out, 'dist', relative(ROOT, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
}

const temp = mkdtempSync(join(tmpdir(), 'killfeed-compiled-render-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('the render worker compiled, as production runs it', () => {
  it('starts from dist/ with plain node (no tsx) and draws text with the shipped fonts', async () => {
    compile(['src/render/image/pool.ts', 'src/render/image/worker.ts'], temp);
    // The package root of a compiled module holds assets/ and node_modules/, as a checkout does.
    symlinkSync(join(ROOT, 'assets'), join(temp, 'assets'));
    symlinkSync(join(ROOT, 'node_modules'), join(temp, 'node_modules'));
    writeFileSync(join(temp, 'package.json'), JSON.stringify({ type: 'module' }));
    const compiled = pathToFileURL(join(temp, 'dist/src/render/image/pool.js')).href;
    const { RenderPool, workerEntry } = (await import(
      compiled
    )) as typeof import('../../../src/render/image/pool.ts');
    const entry = workerEntry(compiled, 'worker');
    expect(entry).toEqual({ url: new URL('./worker.js', compiled) });
    const pool = new RenderPool({ size: 1, queueLimit: 1, timeoutMs: 60_000, entry });
    try {
      const svg = (text: string) =>
        `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30"><text x="4" y="22" font-family="DejaVu Sans" font-size="18">${text}</text></svg>`;
      const drawn = await pool.run({ svg: svg('Killfeed') });
      const blank = await pool.run({ svg: svg('') });
      expect([drawn.width, drawn.height]).toEqual([120, 30]);
      // The text was drawn: a font was found from dist/'s own location.
      expect(drawn.png.equals(blank.png)).toBe(false);
    } finally {
      await pool.close();
    }
  });
});
