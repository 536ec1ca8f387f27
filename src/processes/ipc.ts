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

/**
 * `/me forget` in one shard process must drop the token wherever it is kept: DMs reach shard 0, a
 * server's command its own shard. The shard that was asked tells the manager
 * `{ killfeed: 'forget-token', userId }`, and the manager relays it to every shard process, the asking
 * one included. Only the user id travels, never a token.
 */
const FORGET = 'forget-token';

export interface ForgetMessage {
  readonly killfeed: typeof FORGET;
  readonly userId: string;
}

const SNOWFLAKE = /^\d{17,20}$/;

export function isForget(message: unknown): message is ForgetMessage {
  return (
    isRecord(message) &&
    message.killfeed === FORGET &&
    typeof message.userId === 'string' &&
    SNOWFLAKE.test(message.userId)
  );
}

export interface ForgetSharing {
  /** Tells every other shard process of this manager that `userId` asked to be forgotten. */
  announce(userId: string): void;
  stop(): void;
}

/**
 * In a shard process: `drop` is called for every forget the manager relays; `announce` sends this
 * process's own. Without a channel (not forked) announcing does nothing: there is no other shard.
 */
export function shareForgets(drop: (userId: string) => void, channel: ChildChannel = process): ForgetSharing {
  const send = channel.send?.bind(channel);
  if (send === undefined) return { announce: () => undefined, stop: () => undefined };
  const listener = (message: unknown) => {
    if (isForget(message)) drop(message.userId);
  };
  channel.on('message', listener);
  return {
    announce(userId) {
      if (channel.connected === false || !SNOWFLAKE.test(userId)) return;
      const message: ForgetMessage = { killfeed: FORGET, userId };
      try {
        send(message, () => undefined);
      } catch {
        // The manager is gone: so are the other shard processes it ran.
      }
    },
    stop: () => channel.off('message', listener),
  };
}

/**
 * In the manager: relays each forget `from` announces to every shard `all()` returns. Returns a
 * function that stops relaying.
 */
export function relayForgets(from: ShardChannel, all: () => Iterable<ShardChannel>): () => void {
  const listener = (message: unknown) => {
    if (!isForget(message)) return;
    const relayed: ForgetMessage = { killfeed: FORGET, userId: message.userId };
    for (const shard of all()) void shard.send(relayed).catch(() => undefined);
  };
  from.on('message', listener);
  return () => from.off('message', listener);
}
