import { readdirSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- the ESLint configuration is plain JavaScript, without types
import * as config from '../../eslint.config.js';

const BOUNDARY_MATRIX = (config as { BOUNDARY_MATRIX: Record<string, readonly string[]> }).BOUNDARY_MATRIX;
const BOUNDARY_ELEMENTS = (config as { BOUNDARY_ELEMENTS: ReadonlyArray<{ type: string }> })
  .BOUNDARY_ELEMENTS;

/**
 * The folder boundaries of `eslint.config.js`, checked on source text linted as if it lived at a path in
 * the tree (nothing is written there): every pair of elements of the matrix, both ways, so that a change
 * of the matrix that lets a layer import one above it, or one feature another, fails here. Only the
 * boundary rules run, without type information: fast.
 */
const root = new URL('../..', import.meta.url).pathname;
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({
    cwd: root,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => ruleId === 'boundaries/element-types' || ruleId === 'no-restricted-imports',
  });
});

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'fatal'}: ${message.message}`);
}

const firstFile = (folder: string) =>
  `${folder}/${
    readdirSync(`${root}${folder}`)
      .filter((name) => name.endsWith('.ts'))
      .sort()[0]
  }`;

/** Where a probe of each element is linted from, and a real file of it to import. */
const PLACES: Record<string, { probe: string; target: string }> = {
  app: { probe: 'src/probe.ts', target: 'src/bot.ts' },
  services: { probe: 'src/services.ts', target: 'src/services.ts' },
  dev: { probe: 'src/dev/probe.ts', target: 'src/dev/net.ts' },
  feature: { probe: 'src/features/alerts/probe.ts', target: 'src/features/alerts/model.ts' },
  commands: { probe: 'commands/probe.ts', target: 'commands/me.ts' },
};
for (const element of BOUNDARY_ELEMENTS) {
  if (PLACES[element.type] !== undefined) continue;
  PLACES[element.type] = { probe: `src/${element.type}/probe.ts`, target: firstFile(`src/${element.type}`) };
}

function importOf(probe: string, target: string): string {
  const path = relative(dirname(probe), target);
  return `import '${path.startsWith('.') ? path : `./${path}`}';\n`;
}

describe('folder boundaries', () => {
  it('names a place for every element of the matrix', () => {
    expect(Object.keys(PLACES).sort()).toEqual(Object.keys(BOUNDARY_MATRIX).sort());
  });

  for (const [from, allowed] of Object.entries(BOUNDARY_MATRIX)) {
    it(`lets ${from} import exactly what the matrix names`, async () => {
      const { probe } = PLACES[from]!;
      for (const [to, { target }] of Object.entries(PLACES)) {
        if (to === from) continue;
        const messages = await refusals(probe, importOf(probe, target));
        expect(messages.length === 0, `${from} -> ${to}: ${messages.join('; ')}`).toBe(allowed.includes(to));
      }
    });
  }

  it('is a hierarchy: no element reaches itself through what it may import', () => {
    const matrix = BOUNDARY_MATRIX;
    for (const start of Object.keys(matrix)) {
      const seen = new Set<string>();
      const queue = [...(matrix[start] ?? [])];
      while (queue.length > 0) {
        const next = queue.shift()!;
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(...(matrix[next] ?? []));
      }
      expect(seen.has(start), `${start} can reach itself`).toBe(false);
    }
  });

  it('keeps each feature to itself: another feature is reached only through a shared layer', async () => {
    const probe = 'src/features/alerts/probe.ts';
    expect(await refusals(probe, importOf(probe, 'src/features/alerts/store.ts'))).toEqual([]);
    for (const other of [
      'src/features/kpd/render.ts',
      'src/features/roles/rules.ts',
      'src/features/turf/kind.ts',
    ]) {
      const messages = await refusals(probe, importOf(probe, other));
      expect(messages, other).toHaveLength(1);
      expect(messages[0]).toMatch(/^boundaries\/element-types: /);
    }
  });

  it('keeps commands from importing each other: what two share lives in a feature or a shared layer', async () => {
    const probe = 'commands/probe.ts';
    const commands = readdirSync(`${root}commands`).filter((name) => name.endsWith('.ts'));
    expect(commands.length).toBeGreaterThan(10);
    for (const command of commands) {
      const messages = await refusals(probe, `import './${command}';\n`);
      expect(messages, command).toHaveLength(1);
      expect(messages[0]).toMatch(/^no-restricted-imports: .*imports no other command/);
    }
    // Of /subscribe's parts, the other commands read only its list of kinds (to describe a subscription).
    expect(await refusals(probe, "import './subscribe/kinds.ts';\n")).toEqual([]);
    expect(await refusals(probe, "import './subscribe/turf.ts';\n")).toHaveLength(1);
    expect(await refusals(probe, "import '../src/features/maps/official.ts';\n")).toEqual([]);
    expect(await refusals(probe, "import '../src/announcements/manage.ts';\n")).toEqual([]);
    expect(await refusals(probe, "import Keyv from 'keyv';\n")).toHaveLength(1);

    const half = 'commands/subscribe/probe.ts';
    expect(await refusals(half, "import './kind.ts';\n")).toEqual([]);
    const messages = await refusals(half, "import '../track.ts';\n");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^no-restricted-imports: .*imports no command/);
  });

  it('finds no command importing another in the tree', async () => {
    const results = await eslint.lintFiles(['commands/**/*.ts']);
    const refused = results.flatMap((result) =>
      result.messages
        .filter((message) => message.ruleId === 'no-restricted-imports')
        .map((message) => `${relative(root, result.filePath)}: ${message.message}`),
    );
    expect(refused).toEqual([]);
  });

  it('leaves Keyv to the store', async () => {
    expect(await refusals('src/api/probe.ts', "import Keyv from 'keyv';\n")).toHaveLength(1);
    expect(await refusals('src/store/probe.ts', "import Keyv from 'keyv';\n")).toEqual([]);
  });
});
