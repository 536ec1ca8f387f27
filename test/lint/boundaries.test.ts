import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The folder boundaries of `eslint.config.js`, checked on source text linted as if it lived at a path in
 * the tree (nothing is written there). Only the boundary rule runs, without type information: fast.
 */
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({
    cwd: new URL('../..', import.meta.url).pathname,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
  });
});

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'fatal'}: ${message.message}`);
}

describe('folder boundaries', () => {
  it('stops a renderer from importing Discord, the domain, commands or the development tools', async () => {
    for (const source of [
      '../discord/command.ts',
      '../announcements/model.ts',
      '../kpd/events.ts',
      '../secrets/mask.ts',
      '../../commands/me.ts',
      '../dev/sandbox/index.ts',
    ]) {
      const messages = await restricted('src/render/probe.ts', `import '${source}';\n`);
      expect(messages, source).toHaveLength(1);
      expect(messages[0], source).toMatch(/^no-restricted-imports: .*lower layers/);
    }
    expect(
      await restricted('src/render/probe.ts', "import './common.ts';\nimport '../core/time.ts';\n"),
    ).toEqual([]);
  });

  it('holds for the store, the API client and the configuration too', async () => {
    for (const file of ['src/store/probe.ts', 'src/api/probe.ts', 'src/config/probe.ts']) {
      expect(await restricted(file, "import '../announcements/index.ts';\n"), file).toHaveLength(1);
    }
  });

  it('keeps domain code off the command layer, and production code off src/dev', async () => {
    expect(await restricted('src/announcements/probe.ts', "import '../discord/command.ts';\n")).toHaveLength(
      1,
    );
    expect(
      await restricted('src/kpd/probe.ts', "import type { X } from '../discord/command.ts';\n"),
    ).toHaveLength(1);
    expect(await restricted('src/bot.ts', "import './dev/demo/stack.ts';\n")).toHaveLength(1);
    expect(await restricted('commands/probe.ts', "import '../src/dev/sandbox/index.ts';\n")).toHaveLength(1);
    // The commands and the composition root use Discord's command layer and the domain freely.
    expect(await restricted('commands/probe.ts', "import '../src/discord/command.ts';\n")).toEqual([]);
    expect(await restricted('src/dev/demo/probe.ts', "import '../sandbox/index.ts';\n")).toEqual([]);
  });
});
