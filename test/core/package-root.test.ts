import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isCompiled, packageRoot } from '../../src/core/package-root.ts';
import { COMMANDS_DIR } from '../../src/discord/loader.ts';
import { LOCALES_DIR } from '../../src/i18n/index.ts';
import { chartFontFiles } from '../../src/render/chart/font.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('packageRoot', () => {
  it('climbs from a source module under src/', () => {
    expect(packageRoot('file:///srv/killfeed/src/i18n/index.ts', 2).href).toBe('file:///srv/killfeed/');
    expect(packageRoot('file:///srv/killfeed/src/render/chart/font.ts', 3).href).toBe(
      'file:///srv/killfeed/',
    );
  });

  it('climbs one folder more from its compiled form under dist/', () => {
    expect(packageRoot('file:///app/dist/src/i18n/index.js', 2).href).toBe('file:///app/');
    expect(packageRoot('file:///app/dist/src/render/chart/font.js', 3).href).toBe('file:///app/');
    // A folder named dist higher up changes nothing: only the module's own extension counts.
    expect(packageRoot('file:///dist/repo/src/i18n/index.ts', 2).href).toBe('file:///dist/repo/');
  });

  it('tells compiled modules from sources by their extension', () => {
    expect(isCompiled('file:///app/dist/src/main.js')).toBe(true);
    expect(isCompiled('file:///app/src/main.ts')).toBe(false);
  });

  it('refuses a depth that is not a positive whole number', () => {
    for (const depth of [0, -1, 1.5, Number.NaN]) {
      expect(() => packageRoot('file:///app/src/main.ts', depth)).toThrow(RangeError);
    }
  });
});

describe('the files the bot reads at run time, from its sources', () => {
  it('finds locales/, the chart fonts and commands/ at the package root', () => {
    expect(LOCALES_DIR).toBe(`${ROOT}locales/`);
    expect(existsSync(`${LOCALES_DIR}en-US/common.json`)).toBe(true);
    expect(chartFontFiles()).toEqual([
      `${ROOT}assets/fonts/DejaVuSansCore.ttf`,
      `${ROOT}assets/fonts/DejaVuSansCore-Bold.ttf`,
    ]);
    for (const file of chartFontFiles()) expect(existsSync(file)).toBe(true);
    expect(COMMANDS_DIR).toBe(`${ROOT}commands/`);
  });
});
