import type { Database } from '../db/index.ts';
import { FollowedPlayers } from './followed.ts';
import { GuildMembers } from './members.ts';
import { SnapshotStore } from './snapshots.ts';

/** The shared player layer's records, opened once at the composition root. */
export interface PlayerRecords {
  /** Every profile read, kept as points over time. */
  readonly snapshots: SnapshotStore;
  /** The players the background refreshes (linked and tracked). */
  readonly followed: FollowedPlayers;
  /** Who of a server's members the bot has seen there. */
  readonly members: GuildMembers;
}

declare module '../services.ts' {
  interface Records {
    readonly players: PlayerRecords;
  }
}

export function openPlayerRecords(db: Database): PlayerRecords {
  return {
    snapshots: new SnapshotStore(db),
    followed: new FollowedPlayers(db),
    members: new GuildMembers(db),
  };
}
