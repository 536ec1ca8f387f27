// The compiled bot in dist/, built without ever touching files a running process uses.
//
// `dist` is a symbolic link to a folder of one build, `dist-<id>/` beside it. A build compiles into a new
// folder of its own, writes a stamp there, and then renames a new link over `dist`: one rename, atomic on
// Linux, so a process starting at that moment sees the old build or the new one, whole. A process that runs
// an older build keeps it: Node follows the link once, and every module the process loads later (a shard
// it spawns, a command file) comes from the same folder, which is removed only once no process registered
// in it is alive. Builds of one checkout take turns through a lock file; one that waited finds the build
// its neighbour finished fresh and uses it.
//
// Plain JavaScript run by node: production never needs tsx, and `npm start` must work before anything
// is compiled. `src/core/package-root.ts` finds `locales/` and `assets/` three folders above a compiled
// module, so the build folders sit beside `dist`, at the package root.
import process from 'node:process';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** What a build compiles from: a change to any of them makes dist/ stale. `src/dev` is never built. */
export const SOURCES = ['src', 'commands', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];
const SKIPPED = new Set(['src/dev']);
export const STAMP = '.build-stamp.json';
const IN_USE = '.in-use';
const LOCK = '.dist.lock';
/** A build folder, named by its start time (base 36), its builder's pid and a random part. */
const BUILD = /^dist-(?:old-)?([0-9a-z]+)-\d+-[0-9a-f]+$/;
/** Files and folders a walk looks at, at most: a checkout has a few hundred. */
const WALK_LIMIT = 100_000;
const LOCK_WAIT_MS = 180_000;
const LOCK_POLL_MS = 200;

/** The newest modification time (ms) among `entries` of `root`, files and folders, walked recursively. */
export function newestSourceTime(root, entries = SOURCES) {
  let newest = 0;
  let seen = 0;
  const stack = entries.map((entry) => entry);
  while (stack.length > 0) {
    const relative = stack.pop();
    if (SKIPPED.has(relative)) continue;
    if (++seen > WALK_LIMIT) throw new Error(`more than ${WALK_LIMIT} source files under ${root}`);
    let stat;
    try {
      stat = lstatSync(join(root, relative));
    } catch (error) {
      if (error.code === 'ENOENT') continue;
      throw error;
    }
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) {
      for (const name of readdirSync(join(root, relative))) stack.push(`${relative}/${name}`);
    }
  }
  return newest;
}

/** The stamp of the build `dist` points to, or undefined when there is none (or no dist at all). */
export function readStamp(root) {
  try {
    const stamp = JSON.parse(readFileSync(join(root, 'dist', STAMP), 'utf8'));
    return typeof stamp?.sources === 'number' && Number.isFinite(stamp.sources) ? stamp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `dist` must be built: 'missing' (no build, or one without a stamp: an interrupted or foreign
 * one), 'stale' (a source changed after the sources the build compiled), or 'fresh'.
 */
export function decide(stamp, newestSource) {
  if (stamp === undefined) return 'missing';
  return newestSource > stamp.sources ? 'stale' : 'fresh';
}

export function freshness(root) {
  return decide(readStamp(root), newestSourceTime(root));
}

function alive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Takes the build lock of `root`, waiting while a live process holds it; a dead holder's lock is taken over. */
async function lock(root, log) {
  const path = join(root, LOCK);
  const deadline = Date.now() + LOCK_WAIT_MS;
  let said = false;
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let content;
    try {
      content = readFileSync(path, 'utf8');
    } catch {
      continue; // released meanwhile
    }
    const holder = Number(content);
    // An empty file is a lock being written this instant: only a named, dead holder is taken over.
    if ((content !== '' && !alive(holder)) || Date.now() > deadline) {
      rmSync(path, { force: true });
      continue;
    }
    if (!said) log(`waiting for the build of process ${holder} to finish`);
    said = true;
    await sleep(LOCK_POLL_MS);
  }
}

function compile(root, out) {
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', out], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`tsc exited with ${result.status ?? result.signal}`);
}

/** Puts `folder` (a name beside `dist`) in place of `dist` with one rename. */
function swap(root, folder) {
  const link = join(root, 'dist');
  const next = join(root, `${folder}.link`);
  symlinkSync(folder, next);
  try {
    renameSync(next, link);
  } catch (error) {
    if (!['EISDIR', 'ENOTEMPTY', 'EEXIST', 'ENOTDIR'].includes(error.code)) throw error;
    // A plain dist/ folder (an image build, or a checkout from before the link): moved aside whole.
    renameSync(link, join(root, folder.replace(/^dist-/, 'dist-old-')));
    renameSync(next, link);
  }
}

function current(root) {
  try {
    return readlinkSync(join(root, 'dist'));
  } catch {
    return undefined;
  }
}

/**
 * Removes the build folders nobody can be running: not the current one, not the one before it (a process
 * started by plain `node dist/…` registers nowhere), and none with a live process registered in it.
 */
export function prune(root) {
  const now = current(root);
  const builds = readdirSync(root)
    .map((name) => ({ name, match: BUILD.exec(name) }))
    .filter(({ name, match }) => match !== null && name !== now)
    .map(({ name, match }) => ({ name, time: Number.parseInt(match[1], 36) }))
    .sort((a, b) => b.time - a.time);
  for (const { name } of builds.slice(1)) {
    let pids = [];
    try {
      pids = readdirSync(join(root, name, IN_USE)).map(Number);
    } catch {
      // nobody registered
    }
    if (pids.some(alive)) continue;
    rmSync(join(root, name), { recursive: true, force: true });
  }
  for (const name of readdirSync(root)) {
    if (/^dist-.*\.link$/.test(name)) rmSync(join(root, name), { force: true });
  }
}

/** Compiles a new build and puts it in place; the caller holds the lock. */
function buildLocked(root, log) {
  const sources = newestSourceTime(root);
  const folder = `dist-${Date.now().toString(36)}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const out = join(root, folder);
  log(`compiling into ${folder}`);
  try {
    compile(root, out);
    writeFileSync(join(out, STAMP), JSON.stringify({ sources, builtAt: Date.now() }));
    swap(root, folder);
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
  prune(root);
}

/** `npm run build`: always compiles (a clean build: a deleted command never lingers), then swaps it in. */
export async function build(root, log = () => undefined) {
  const release = await lock(root, log);
  try {
    buildLocked(root, log);
  } finally {
    release();
  }
}

/**
 * Builds only when dist/ is missing or older than the sources. A process that waited for another's build
 * checks again and uses that build when it is fresh.
 */
export async function ensureBuilt(root, log = () => undefined) {
  if (freshness(root) === 'fresh') return false;
  const release = await lock(root, log);
  try {
    const state = freshness(root);
    if (state === 'fresh') return false;
    log(state === 'missing' ? 'dist/ is missing: building it' : 'the sources changed: building dist/ again');
    buildLocked(root, log);
    return true;
  } finally {
    release();
  }
}

/**
 * Records this process as running the build `dist` points to, and returns the entry's real path in it,
 * so that the process loads every module from that one build and the build outlives any rebuild.
 */
export function claim(root, entry) {
  const real = realpathSync(join(root, entry));
  const folder = realpathSync(join(root, 'dist'));
  const marks = join(folder, IN_USE);
  mkdirSync(marks, { recursive: true });
  const mark = join(marks, String(process.pid));
  writeFileSync(mark, '');
  process.once('exit', () => {
    try {
      unlinkSync(mark);
    } catch {
      // the build was removed by hand
    }
  });
  return real;
}
