import { unrefSleep } from '../core/clock.ts';

/**
 * The manager asks its shard processes for their metrics over the IPC channel that discord.js's
 * ShardingManager opens to each child: a request `{ killfeed: 'metrics?', id }`, answered by
 * `{ killfeed: 'metrics', id, snapshot }` (or `error`). discord.js's own messages (`_ready`, `_eval`...)
 * have no `killfeed` field, so the two never mix; a shard that does not answer in time is left out.
 */
const REQUEST = 'metrics?';
const REPLY = 'metrics';

export interface MetricsRequest {
  readonly killfeed: typeof REQUEST;
  readonly id: number;
}

export interface MetricsReply {
  readonly killfeed: typeof REPLY;
  readonly id: number;
  readonly snapshot?: unknown;
  readonly error?: string;
}

/** What a process can say about its metrics: a snapshot, in whatever form the merging side reads. */
export interface MetricsSource {
  snapshot(): Promise<unknown>;
}

/** The child's end: this process (forked with an IPC channel), or a test's stand-in for it. */
export interface ChildChannel {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
  send?(message: unknown, callback?: (error: Error | null) => void): boolean;
  readonly connected?: boolean;
}

/** The manager's end: discord.js's `Shard` (`send` resolves once written, `message` events). */
export interface ShardChannel {
  send(message: unknown): Promise<unknown>;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isRequest(message: unknown): message is MetricsRequest {
  return isRecord(message) && message.killfeed === REQUEST && typeof message.id === 'number';
}

function isReply(message: unknown, id: number): message is MetricsReply {
  return isRecord(message) && message.killfeed === REPLY && message.id === id;
}

/**
 * In a shard process: answers the manager's metrics requests from `source`. Returns a function that
 * stops answering. Without a channel (the process was not forked) it does nothing.
 */
export function answerMetricsRequests(source: MetricsSource, channel: ChildChannel = process): () => void {
  const send = channel.send?.bind(channel);
  if (send === undefined) return () => undefined;
  const reply = (message: MetricsReply) => {
    if (channel.connected === false) return;
    try {
      send(message, () => undefined);
    } catch {
      // The manager went away between the request and the reply: nobody is left to answer.
    }
  };
  const listener = (message: unknown) => {
    if (!isRequest(message)) return;
    const { id } = message;
    source.snapshot().then(
      (snapshot) => reply({ killfeed: REPLY, id, snapshot }),
      (error: unknown) =>
        reply({ killfeed: REPLY, id, error: error instanceof Error ? error.message : String(error) }),
    );
  };
  channel.on('message', listener);
  return () => channel.off('message', listener);
}

let nextRequestId = 1;

/**
 * In the manager: one shard process's metrics snapshot, or `undefined` when it cannot answer within
 * `timeoutMs` (dead, respawning, busy) or answers with an error.
 */
export async function requestMetrics(shard: ShardChannel, timeoutMs: number): Promise<unknown> {
  const id = nextRequestId++;
  const timeout = new AbortController();
  let listener: ((message: unknown) => void) | undefined;
  const answered = new Promise<unknown>((resolve) => {
    listener = (message: unknown) => {
      if (isReply(message, id)) resolve(message.error === undefined ? message.snapshot : undefined);
    };
    shard.on('message', listener);
  });
  const expired = unrefSleep(timeoutMs, timeout.signal).then(
    () => undefined,
    () => undefined,
  );
  try {
    const request: MetricsRequest = { killfeed: REQUEST, id };
    const sent = shard.send(request).then(
      () => answered,
      () => undefined,
    );
    return await Promise.race([sent, expired]);
  } finally {
    timeout.abort();
    if (listener) shard.off('message', listener);
  }
}
