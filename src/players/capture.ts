import type { PlayerProfile } from '../api/schemas/index.ts';
import { OncePerPeriod } from '../core/once-per.ts';
import type { Services } from '../services.ts';
import { HOUR_MS, SnapshotStore } from './snapshots.ts';
import { statsOf } from './stats.ts';

/** Players whose hour is known to hold a point already, remembered to save a write; oldest forgotten first. */
const REMEMBERED_PLAYERS = 10_000;

/**
 * Keeps a snapshot of every player profile the tier client reads from upstream, whatever read it (a
 * command, the background refresh): no request of its own. Returns what stops it.
 */
export function captureSnapshots(services: Pick<Services, 'api' | 'db' | 'clock' | 'log'>): () => void {
  const snapshots = new SnapshotStore(services.db);
  const captured = new OncePerPeriod<number>(REMEMBERED_PLAYERS);
  const log = services.log.child({ subsystem: 'snapshots' });
  return services.api.observe('player', (profile: PlayerProfile) => {
    const at = services.clock.now();
    if (!captured.mark(profile.player_id, Math.floor(at / HOUR_MS))) return;
    const snapshot = {
      playerId: profile.player_id,
      playerName: profile.player_name,
      at,
      stats: statsOf(profile),
    };
    snapshots.capture(snapshot).catch((error: unknown) => {
      captured.forget(profile.player_id);
      log.warn({ err: error }, 'could not keep a player snapshot');
    });
  });
}
