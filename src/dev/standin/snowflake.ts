import { randomBytes } from 'node:crypto';

const discordEpoch = 1_420_070_400_000n;
let lastTimestamp = 0n;
let increment = 0n;

/** A Discord snowflake for now, unique and increasing within the process. */
export function nextSnowflake(): string {
  const now = BigInt(Date.now()) - discordEpoch;
  if (now > lastTimestamp) {
    lastTimestamp = now;
    increment = 0n;
  } else if (increment < 4095n) {
    increment += 1n;
  } else {
    lastTimestamp += 1n;
    increment = 0n;
  }
  return ((lastTimestamp << 22n) | increment).toString();
}

/**
 * The `n`th id (n = 0, 1, ...) of a server that Discord's sharding gives to shard `shard` of `count`
 * (`(id >> 22) % count`): ids made by time fall mostly on one shard, so tests that spread servers over
 * shards choose them with this.
 */
export function guildIdOnShard(shard: number, count: number, n: number): string {
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(shard) || shard < 0 || shard >= count) {
    throw new RangeError(`no shard ${shard} of ${count}`);
  }
  const base = 1_300_000_000_000n - (1_300_000_000_000n % BigInt(count));
  return ((base + BigInt(n) * BigInt(count) + BigInt(shard)) << 22n).toString();
}

export function snowflakeTime(id: string): number {
  return Number((BigInt(id) >> 22n) + discordEpoch);
}

export function randomToken(bytes = 48): string {
  return randomBytes(bytes).toString('base64url');
}
