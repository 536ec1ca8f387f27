import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * What the Docker image and `npm run build` ship, read from the Dockerfile, .dockerignore,
 * tsconfig.build.json and package.json (no Docker engine runs here): the build compiles every production
 * module and nothing else, the runtime stage copies only what runs, and the image starts the compiled
 * entry with plain node.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const posix = (path: string) => path.split(sep).join('/');

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

/** The Dockerfile's instructions by stage: comments dropped, `\` continuations joined. */
function dockerStages(text: string): Instruction[][] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push(pending + line);
    pending = '';
  }
  const stages: Instruction[][] = [];
  for (const line of logical) {
    const space = line.search(/\s/);
    const instruction = { keyword: line.slice(0, space).toUpperCase(), args: line.slice(space).trim() };
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

/** A COPY's sources and its `--from` stage (undefined: the build context). */
function copySources(args: string): { from: string | undefined; sources: string[] } {
  const words = args.split(/\s+/);
  const from = words.find((word) => word.startsWith('--from='))?.slice('--from='.length);
  const paths = words.filter((word) => !word.startsWith('--'));
  return { from, sources: paths.slice(0, -1) };
}

const stages = dockerStages(read('Dockerfile'));
const buildStage = stages[0] ?? [];
const runtime = stages.at(-1) ?? [];
const of = (stage: Instruction[], keyword: string) => stage.filter((i) => i.keyword === keyword);

const configPath = join(ROOT, 'tsconfig.build.json');
const parsedConfig = ts.parseJsonConfigFileContent(
  ts.readConfigFile(configPath, (path) => ts.sys.readFile(path)).config,
  ts.sys,
  dirname(configPath),
  undefined,
  configPath,
);
const built = parsedConfig.fileNames.map((file) => posix(relative(ROOT, file))).sort();
/** Where `npm run build` writes the compiled form of a source file, relative to the package root. */
function compiledPath(source: string): string {
  const outputs = ts.getOutputFileNames(parsedConfig, join(ROOT, source), false);
  const js = outputs.find((file) => file.endsWith('.js'));
  if (js === undefined) throw new Error(`${source} is not compiled`);
  return posix(relative(ROOT, js));
}

const pkg = JSON.parse(read('package.json')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

function typescriptFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => posix(join(dir, file)));
}

/** The packages a module loads at run time: value imports and re-exports, and literal `import()`. */
function runtimePackages(file: string): string[] {
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && node.importClause?.phaseModifier !== ts.SyntaxKind.TypeKeyword) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers
    .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
    .filter((specifier) => !builtinModules.includes(specifier))
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );
}

describe('npm run build', () => {
  it('compiles every module of src except src/dev, and commands/', () => {
    const production = [
      ...typescriptFiles('src').filter((file) => !file.startsWith('src/dev/')),
      ...typescriptFiles('commands'),
    ].sort();
    expect(built).toEqual(production);
    expect(built).toContain('src/main.ts');
    expect(built).toContain('src/discord/deploy.ts');
  });

  it('writes a tree that mirrors the sources one folder deeper, with .js imports', () => {
    expect(parsedConfig.options.noEmit).not.toBe(true);
    expect(parsedConfig.options.rewriteRelativeImportExtensions).toBe(true);
    // NodeNext emits ES modules because package.json (shipped in the image) says so.
    expect(parsedConfig.options.module).toBe(ts.ModuleKind.NodeNext);
    expect((JSON.parse(read('package.json')) as { type?: string }).type).toBe('module');
    // src/core/package-root.ts finds locales/ and assets/ from a compiled module on this layout.
    expect(compiledPath('src/main.ts')).toBe('dist/src/main.js');
    expect(compiledPath('commands/player.ts')).toBe('dist/commands/player.js');
  });

  it('is what npm start and npm run deploy run, with plain node, built only when stale', () => {
    // scripts/dist.js compiles tsconfig.build.json beside dist/ and swaps it in (test/processes/start.test.ts).
    expect(pkg.scripts.build).toBe('node scripts/build.js');
    expect(pkg.scripts.start).toBe(`node scripts/run.js ${compiledPath('src/main.ts')}`);
    expect(pkg.scripts.deploy).toBe(`node scripts/run.js ${compiledPath('src/discord/deploy.ts')}`);
    // No clean build before every start: it deleted dist/ under the bots already running from it.
    expect(pkg.scripts.prestart).toBeUndefined();
    expect(pkg.scripts.predeploy).toBeUndefined();
    expect(pkg.scripts.prebuild).toBeUndefined();
  });

  it('needs only production dependencies at run time; tsx is for development', () => {
    expect(pkg.dependencies.tsx).toBeUndefined();
    expect(pkg.devDependencies.tsx).toBeDefined();
    const missing = built.flatMap((file) =>
      runtimePackages(file)
        .filter((name) => pkg.dependencies[name] === undefined)
        .map((name) => `${file}: ${name}`),
    );
    expect(missing).toEqual([]);
  });
});

describe('Dockerfile', () => {
  it('builds in a stage with the dev dependencies, then prunes them', () => {
    expect(stages).toHaveLength(2);
    const runs = of(buildStage, 'RUN').map((i) => i.args);
    const step = (prefix: string) => runs.findIndex((run) => run.startsWith(prefix));
    expect(step('npm ci')).toBeGreaterThanOrEqual(0);
    const build = 'npx tsc -p tsconfig.build.json';
    expect(step(build)).toBeGreaterThan(step('npm ci'));
    expect(step('npm prune --omit=dev')).toBeGreaterThan(step(build));
    // Kept by the prune as an optional peer of i18next, the compiler is removed: the image never builds.
    expect(runs[step('npm prune --omit=dev')]).toContain('rm -rf node_modules/typescript ');
  });

  it('gives the build every file it compiles and the configuration it reads', () => {
    const copied = of(buildStage, 'COPY').flatMap((i) => copySources(i.args).sources);
    expect(copied).toEqual(expect.arrayContaining(['tsconfig.json', 'tsconfig.build.json', 'package.json']));
    const uncovered = built.filter((file) => !copied.some((source) => file.startsWith(`${source}/`)));
    expect(uncovered).toEqual([]);
  });

  it('ships only what runs: compiled code, production modules, locales, fonts, package.json', () => {
    const copies = of(runtime, 'COPY').map((i) => copySources(i.args));
    expect(of(runtime, 'ADD')).toEqual([]);
    const fromBuild = copies.filter((c) => c.from === 'build').flatMap((c) => c.sources);
    const fromContext = copies.filter((c) => c.from === undefined).flatMap((c) => c.sources);
    expect(copies.every((c) => c.from === undefined || c.from === 'build')).toBe(true);
    expect(fromBuild.sort()).toEqual(['/app/dist', '/app/node_modules']);
    expect(fromContext.sort()).toEqual(['assets', 'locales', 'package.json']);
    expect(of(buildStage, 'WORKDIR').map((i) => i.args)).toEqual(['/app']);
    expect(of(runtime, 'WORKDIR').map((i) => i.args)).toEqual(['/app']);
  });

  it('runs the compiled entry with plain node, on the same Node as the build', () => {
    const base = (stage: Instruction[]) => stage[0]?.args.split(/\s+/)[0];
    expect(base(runtime)).toBe(base(buildStage));
    expect(of(runtime, 'ENTRYPOINT')).toEqual([]);
    const cmd = of(runtime, 'CMD');
    expect(cmd).toHaveLength(1);
    expect(JSON.parse(cmd[0]?.args ?? '')).toEqual(['node', compiledPath('src/main.ts')]);
    expect(runtime.filter((i) => i.args.includes('tsx'))).toEqual([]);
  });

  it('keeps the health check on HTTP_PORT', () => {
    const health = of(runtime, 'HEALTHCHECK');
    expect(health).toHaveLength(1);
    expect(health[0]?.args).toContain('process.env.HTTP_PORT');
    expect(health[0]?.args).toContain('/healthz');
    expect(of(runtime, 'ENV').some((i) => /\bHTTP_PORT=\d+/.test(i.args))).toBe(true);
  });
});

describe('.dockerignore', () => {
  it('keeps development tools, tests, local builds and secrets out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    for (const entry of ['src/dev', 'test', 'bench', 'dist', 'node_modules', '.env', 'secrets', 'data']) {
      expect(ignored).toContain(entry);
    }
  });
});
