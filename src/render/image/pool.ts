import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { unrefSleep, type Clock } from '../../core/clock.ts';
import { isCompiled } from '../../core/package-root.ts';
import type { DrawnPng } from './draw.ts';
import type { RenderReply, RenderRequest } from './protocol.ts';

/** One SVG to draw, and the font files its text needs (all shipped fonts when absent). */
export interface RenderJob {
  svg: string;
  fontFiles?: readonly string[];
}

export interface RenderPoolOptions {
  /** Worker threads at most; started as work comes. */
  size: number;
  /** Jobs waiting for a thread at most; one more is refused at once ({@link RenderBusyError}). */
  queueLimit: number;
  /** A job running longer than this in its thread is given up and the thread replaced. */
  timeoutMs: number;
  /** Measures the timeout; tests pass a manual clock. */
  sleep?: Clock['sleep'];
  /** The worker's module; the shipped `worker.ts` (or compiled `worker.js`) by default. */
  entry?: WorkerEntry;
}

/** A worker's module, or the CommonJS script that loads it. */
export type WorkerEntry = { url: URL } | { script: string };

export class RenderBusyError extends Error {
  override readonly name = 'RenderBusyError';
}
export class RenderTimeoutError extends Error {
  override readonly name = 'RenderTimeoutError';
}
export class RenderFailedError extends Error {
  override readonly name = 'RenderFailedError';
}

/** The pool's default size: one thread a core (2 on the bot's machine), at most 4. */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * How a module of this folder starts a worker from `file`'s name without extension: compiled (under
 * `dist/`, plain node) the `.js` beside it; from the sources (tsx, vitest) a small script that registers
 * tsx's require hook in the new thread and then loads the `.ts` file through it (Node 20 hands a worker
 * neither its parent's loaders nor `--import` ones). tsx is a development dependency, present wherever
 * the sources run.
 */
export function workerEntry(moduleUrl: string, file: string): WorkerEntry {
  if (isCompiled(moduleUrl)) return { url: new URL(`./${file}.js`, moduleUrl) };
  const source = fileURLToPath(new URL(`./${file}.ts`, moduleUrl));
  const tsx = createRequire(moduleUrl).resolve('tsx/cjs/api');
  return { script: `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(source)});` };
}

interface Task {
  id: number;
  job: RenderJob;
  resolve: (drawn: DrawnPng) => void;
  reject: (error: Error) => void;
  /** Ends the task's timeout once it is answered. */
  timer?: AbortController;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task?: Task | undefined;
  gone: boolean;
}

/**
 * A few worker threads that draw SVG into PNG, so that the event loop never waits on resvg: a bounded
 * queue in front (a job beyond it is refused), a timeout per job (the thread is terminated and replaced),
 * and a thread that dies or throws is replaced by the next job. Threads are started as jobs come, keep
 * the process alive only while they draw, and stay until {@link RenderPool.close}.
 */
export class RenderPool {
  readonly #options: Required<Omit<RenderPoolOptions, 'entry'>> & { entry: WorkerEntry };
  #slots: Slot[] = [];
  #queue: Task[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: RenderPoolOptions) {
    const { size, queueLimit, timeoutMs } = options;
    if (!Number.isInteger(size) || size < 1) throw new RangeError('a render pool has at least one thread');
    if (!Number.isInteger(queueLimit) || queueLimit < 0) throw new RangeError('queueLimit must be a count');
    if (!(timeoutMs > 0)) throw new RangeError('timeoutMs must be positive');
    this.#options = {
      sleep: unrefSleep,
      entry: workerEntry(import.meta.url, 'worker'),
      ...options,
    };
  }

  /** The PNG of `job`; rejects when the queue is full, the job times out or the worker fails. */
  run(job: RenderJob): Promise<DrawnPng> {
    if (this.#closed) return Promise.reject(new RenderFailedError('the render pool is closed'));
    if (this.#queue.length >= this.#options.queueLimit)
      return Promise.reject(new RenderBusyError(`${this.#queue.length} renders already wait`));
    return new Promise<DrawnPng>((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, job, resolve, reject });
      this.#pump();
    });
  }

  /** Threads running (started or starting) and jobs waiting: for benchmarks and tests. */
  get stats(): { threads: number; waiting: number; busy: number } {
    const busy = this.#slots.filter((slot) => slot.task !== undefined).length;
    return { threads: this.#slots.length, waiting: this.#queue.length, busy };
  }

  /** Stops every thread; jobs waiting or running are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const task of this.#queue.splice(0)) task.reject(new RenderFailedError('the render pool closed'));
    const slots = this.#slots.splice(0);
    for (const slot of slots) this.#retire(slot, new RenderFailedError('the render pool closed'));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #pump(): void {
    for (const slot of this.#slots) {
      if (!slot.ready || slot.task !== undefined || slot.gone) continue;
      const task = this.#queue.shift();
      if (task === undefined) return;
      this.#dispatch(slot, task);
    }
    const starting = this.#slots.filter((slot) => !slot.ready).length;
    let wanted = this.#queue.length - starting;
    while (wanted > 0 && this.#slots.length < this.#options.size && !this.#closed) {
      this.#spawn();
      wanted -= 1;
    }
  }

  #spawn(): void {
    const entry = this.#options.entry;
    const worker = 'url' in entry ? new Worker(entry.url) : new Worker(entry.script, { eval: true });
    const slot: Slot = { worker, ready: false, gone: false };
    this.#slots.push(slot);
    worker.unref();
    worker.on('message', (reply: RenderReply) => this.#answer(slot, reply));
    worker.on('error', (error: Error) => this.#fail(slot, error));
    worker.on('exit', (code) => this.#fail(slot, new RenderFailedError(`render worker exited (${code})`)));
  }

  #dispatch(slot: Slot, task: Task): void {
    slot.task = task;
    slot.worker.ref();
    const request: RenderRequest = { id: task.id, svg: task.job.svg };
    if (task.job.fontFiles !== undefined) request.fontFiles = [...task.job.fontFiles];
    slot.worker.postMessage(request);
    const timer = new AbortController();
    task.timer = timer;
    this.#options.sleep(this.#options.timeoutMs, timer.signal).then(
      () => {
        if (slot.task === task)
          this.#fail(slot, new RenderTimeoutError(`render took over ${this.#options.timeoutMs} ms`));
      },
      () => undefined,
    );
  }

  #answer(slot: Slot, reply: RenderReply): void {
    if (slot.gone) return;
    if (reply.kind === 'ready') {
      slot.ready = true;
      this.#pump();
      return;
    }
    const task = slot.task;
    if (task === undefined || task.id !== reply.id) return;
    this.#settle(slot);
    if (reply.kind === 'drawn') {
      task.resolve({
        png: Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength),
        width: reply.width,
        height: reply.height,
      });
    } else {
      task.reject(new RenderFailedError(reply.message));
    }
    this.#pump();
  }

  /** The slot's task is over: its timeout ends and the thread no longer keeps the process alive. */
  #settle(slot: Slot): void {
    slot.task?.timer?.abort();
    slot.task = undefined;
    slot.worker.unref();
  }

  /**
   * The thread failed (an error it did not catch, an exit, a timeout): its job is refused and the thread
   * terminated; the next job starts a new one. A thread that fails before it is ready takes the oldest
   * waiting job with it, so a worker that cannot start never loops on restarts.
   */
  #fail(slot: Slot, error: Error): void {
    if (slot.gone) return;
    this.#slots = this.#slots.filter((kept) => kept !== slot);
    const orphan = slot.ready || slot.task !== undefined ? undefined : this.#queue.shift();
    this.#retire(slot, error);
    orphan?.reject(error);
    void slot.worker.terminate();
    this.#pump();
  }

  #retire(slot: Slot, error: Error): void {
    slot.gone = true;
    const task = slot.task;
    this.#settle(slot);
    task?.reject(error);
  }
}
