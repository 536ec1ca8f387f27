import { createHash } from 'node:crypto';
import type { RedisConnection } from '../store/backends.ts';
import { allowedFor, type Claim, type Priority, type TakeOutcome, type WindowStore } from './window.ts';

/**
 * The windows in Redis, shared by every process using it: one sorted set per window, members are request
 * ids scored by their time. A take is one Lua script (atomic): drop what has left each window, refuse with
 * the time room comes back if any window is full for the priority, else add the request to all of them.
 * Times come from the caller's clock as arguments (Redis's TIME is never used), so a test's manual clock
 * drives it like any other.
 */
const TAKE = `
local now = ARGV[1]
local member = ARGV[2]
local refusals = {}
for i = 1, #KEYS do
  local base = 3 + (i - 1) * 3
  local allowed = tonumber(ARGV[base])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[base + 1])
  local used = redis.call('ZCARD', KEYS[i])
  if used >= allowed then
    local blocking = redis.call('ZRANGE', KEYS[i], used - allowed, used - allowed, 'WITHSCORES')
    refusals[#refusals + 1] = i - 1
    refusals[#refusals + 1] = blocking[2]
  end
end
if #refusals > 0 then return refusals end
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], now, member)
  redis.call('PEXPIRE', KEYS[i], ARGV[3 + (i - 1) * 3 + 2])
end
return refusals
`;

const RECORD = `
local at = ARGV[1]
local count = tonumber(ARGV[2])
for i = 1, #KEYS do
  local base = 2 + count + (i - 1) * 2
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[base + 1])
  for j = 1, count do redis.call('ZADD', KEYS[i], at, ARGV[2 + j]) end
  redis.call('PEXPIRE', KEYS[i], ARGV[base + 2])
end
return 1
`;

interface Script {
  readonly source: string;
  readonly sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const TAKE_SCRIPT = script(TAKE);
const RECORD_SCRIPT = script(RECORD);

/** How long Redis keeps a window after its last write: past the window, so clocks a little apart are safe. */
function ttlOf(claim: { readonly windowMs: number }): string {
  return String(Math.ceil(2 * claim.windowMs + 60_000));
}

export class RedisWindows implements WindowStore {
  readonly kind = 'redis';
  readonly #connection: RedisConnection;

  constructor(connection: RedisConnection) {
    this.#connection = connection;
  }

  async take(
    claims: readonly Claim[],
    member: string,
    now: number,
    priority: Priority,
  ): Promise<TakeOutcome> {
    const args = [String(now), member];
    for (const claim of claims) {
      args.push(String(allowedFor(claim, priority)), String(now - claim.windowMs), ttlOf(claim));
    }
    const reply = await this.#run(
      TAKE_SCRIPT,
      claims.map((claim) => claim.key),
      args,
    );
    if (!Array.isArray(reply)) throw new TypeError('unexpected reply from the take script');
    if (reply.length === 0) return { granted: true };
    const refusals: Array<{ index: number; freeAt: number }> = [];
    for (let i = 0; i + 1 < reply.length; i += 2) {
      const index = Number(reply[i]);
      const claim = claims[index];
      const score = Number(reply[i + 1]);
      if (!claim || !Number.isFinite(score)) throw new TypeError('unexpected reply from the take script');
      refusals.push({ index, freeAt: score + claim.windowMs });
    }
    return { granted: false, refusals };
  }

  async record(claims: readonly Claim[], members: readonly string[], at: number): Promise<void> {
    if (claims.length === 0 || members.length === 0) return;
    const args = [String(at), String(members.length), ...members];
    for (const claim of claims) args.push(String(at - claim.windowMs), ttlOf(claim));
    await this.#run(
      RECORD_SCRIPT,
      claims.map((claim) => claim.key),
      args,
    );
  }

  async recent(claim: Claim, now: number): Promise<number[]> {
    const reply = await this.#connection.send([
      'ZRANGE',
      claim.key,
      `(${now - claim.windowMs}`,
      '+inf',
      'BYSCORE',
      'WITHSCORES',
    ]);
    if (!Array.isArray(reply)) throw new TypeError('unexpected reply to ZRANGE');
    const times: number[] = [];
    for (let i = 1; i < reply.length; i += 2) times.push(Number(reply[i]));
    return times;
  }

  /**
   * Adds requests counted elsewhere (by this process while Redis was down) with their own times. Members are
   * unique request ids, so writing one back twice counts it once.
   */
  async restore(key: string, windowMs: number, entries: ReadonlyArray<{ at: number; member: string }>) {
    if (entries.length === 0) return;
    const pairs = entries.flatMap((entry) => [String(entry.at), entry.member]);
    await this.#connection.send(['ZADD', key, ...pairs]);
    await this.#connection.send(['PEXPIRE', key, ttlOf({ windowMs })]);
  }

  /** Answers when Redis does (the fallback's probe). */
  async ping(): Promise<void> {
    await this.#connection.send(['PING']);
  }

  get ready(): boolean {
    return this.#connection.ready;
  }

  close(): Promise<void> {
    this.#connection.close();
    return Promise.resolve();
  }

  /** EVALSHA, loading the script with EVAL the first time a server lacks it. */
  async #run(code: Script, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.#connection.send(['EVALSHA', code.sha, ...tail]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.#connection.send(['EVAL', code.source, ...tail]);
    }
  }
}
