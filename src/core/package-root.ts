/**
 * Where the package's own files are (`locales/`, `assets/`), found from the module that needs them, so
 * that neither the working directory nor the way the bot runs matters. A module runs either from its
 * source (`src/i18n/index.ts`, under tsx or vitest) or compiled by `npm run build`, which mirrors the
 * source tree one folder deeper (`dist/src/i18n/index.js`); its own extension says which.
 */

/** Whether the module at `moduleUrl` is the compiled JavaScript under `dist/` rather than its source. */
export function isCompiled(moduleUrl: string): boolean {
  return moduleUrl.endsWith('.js');
}

/**
 * The package root as a directory URL (ending in `/`), from a module whose source sits `depth` folders
 * below it: 2 for `src/i18n/index.ts`, 3 for `src/render/chart/font.ts`.
 */
export function packageRoot(moduleUrl: string, depth: number): URL {
  if (!Number.isInteger(depth) || depth < 1) throw new RangeError('depth must be a positive whole number');
  return new URL('../'.repeat(isCompiled(moduleUrl) ? depth + 1 : depth), moduleUrl);
}
