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

export function snowflakeTime(id: string): number {
  return Number((BigInt(id) >> 22n) + discordEpoch);
}

export function randomToken(bytes = 48): string {
  return randomBytes(bytes).toString('base64url');
}
