import type { SubscribeKind } from './kind.ts';
import { subscribeClanLog } from './clan-log.ts';
import { subscribeKpd } from './kpd.ts';
import { subscribeMaps } from './maps.ts';
import { subscribeTurf } from './turf.ts';

/** The command halves of `ANNOUNCEMENT_KINDS`, in the same order: one `/subscribe` subcommand each. */
export const SUBSCRIBE_KINDS: readonly SubscribeKind[] = [
  subscribeMaps,
  subscribeTurf,
  subscribeKpd,
  subscribeClanLog,
];

export function subscribeKindNamed(name: string): SubscribeKind | undefined {
  return SUBSCRIBE_KINDS.find((entry) => entry.kind.name === name);
}
