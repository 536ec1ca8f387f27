import type { ClanRostersTable } from './migrations/clan-log.ts';

/**
 * The tables of the domain records, as Kysely sees them. Times are epoch milliseconds (`bigint` columns,
 * read back as numbers); JSON documents are text. Snowflakes are text. Every table a guild owns has the
 * guild id first in an index, so that a guild's rows are found without reading anyone else's.
 */
export interface SubscriptionsTable {
  readonly id: string;
  readonly guild_id: string;
  readonly channel_id: string;
  readonly kind: string;
  /** JSON: the kind's options. */
  readonly options: string;
  readonly locale: string;
  readonly created_by: string;
  readonly created_at: number;
  readonly since: number;
  readonly status: 'active' | 'disabled';
  readonly disabled_reason: string | null;
  readonly disabled_code: number | null;
  readonly disabled_at: number | null;
  /** What makes it unique in its guild (kind, channel, filter); unique per guild. */
  readonly identity: string;
  /** Its place among the guild's subscriptions; unique per guild, which is what holds the limit. */
  readonly slot: number;
}

export interface CursorsTable {
  readonly filter_key: string;
  readonly after_id: number;
  readonly at: number;
}

/** Events stored and not yet delivered everywhere: the outbox of the fan-out. */
export interface InboxTable {
  readonly event_key: string;
  /** JSON: the whole event. */
  readonly event: string;
  readonly at: number;
  readonly attempts: number;
}

export interface EventsDoneTable {
  readonly event_key: string;
  readonly done_at: number;
  readonly expires_at: number;
}

export interface QuarantineTable {
  readonly event_key: string;
  readonly event: string;
  readonly reason: string;
  readonly at: number;
  readonly expires_at: number;
}

export interface DeliveriesTable {
  readonly subscription_id: string;
  readonly event_key: string;
  readonly outcome: string;
  readonly message_id: string | null;
  readonly at: number;
  readonly expires_at: number;
}

export interface DeliveryIntentsTable {
  readonly subscription_id: string;
  readonly event_key: string;
  readonly at: number;
  readonly expires_at: number;
}

export interface AnnouncementRefsTable {
  readonly subscription_id: string;
  readonly ref: string;
  readonly message_id: string;
  readonly channel_id: string;
  readonly event_key: string;
  readonly at: number;
  readonly expires_at: number;
}

/** One row, `id = 'state'`. */
export interface TurfStateTable {
  readonly id: string;
  readonly version: number;
  readonly day: number | null;
  /** JSON: map id to owner. */
  readonly owners: string;
}

export interface AccountLinksTable {
  readonly user_id: string;
  readonly player_name: string;
  readonly linked_at: number;
  /** The player verified (unique: one account, one user); null for links made before ids were kept. */
  readonly player_id: number | null;
  /** Set when a refresh found a different player under the linked name: no roles until verified again. */
  readonly suspended_at: number | null;
  /** Set when no player had the name at the last refresh: the link gives no roles by numbers. */
  readonly missing_at: number | null;
}

export interface KpdKeysTable {
  readonly guild_id: string;
  /** JSON: the sealed secret (version, key id, iv, tag, ciphertext); never the key itself. */
  readonly sealed: string;
  readonly key_id: string;
  readonly linked_by: string;
  readonly linked_at: number;
}

export interface KpdFeedStateTable {
  readonly guild_id: string;
  readonly at: number;
  /** JSON: call id to [status, verdict]. */
  readonly calls: string;
}

/** Guilds the bot left: their data is removed once the grace period has passed. */
export interface GuildDeparturesTable {
  readonly guild_id: string;
  readonly left_at: number;
}

export interface CountersTable {
  readonly name: string;
  readonly value: number;
}

export interface MetaTable {
  readonly key: string;
  readonly value: string;
}

export interface PlayerSnapshotsTable {
  readonly player_id: number;
  readonly bucket: 'hour' | 'day';
  readonly at: number;
  readonly taken_at: number;
  readonly player_name: string;
  /** JSON: SnapshotStats (src/players/stats.ts). */
  readonly stats: string;
}

export interface PlayersTable {
  readonly player_id: number;
  /** The name in lower case: how names are looked up. */
  readonly name_key: string;
  readonly player_name: string;
  readonly taken_at: number;
  readonly stats: string;
}

export interface FollowedPlayersTable {
  readonly name_key: string;
  readonly player_name: string;
  readonly player_id: number | null;
  readonly refreshed_at: number | null;
  readonly gap_ms: number | null;
  readonly seen: string | null;
  readonly last_match_id: string | null;
}

export interface GuildMembersTable {
  readonly guild_id: string;
  readonly user_id: string;
  readonly seen_at: number;
}

export interface RoleRulesTable {
  readonly id: string;
  readonly guild_id: string;
  readonly kind: string;
  readonly params: string;
  readonly role_ids: string;
  readonly status: 'active' | 'disabled';
  readonly disabled_reason: string | null;
  readonly disabled_at: number | null;
  readonly created_by: string;
  readonly created_at: number;
}

export interface RoleGrantsTable {
  readonly guild_id: string;
  readonly user_id: string;
  readonly role_id: string;
  readonly rule_id: string;
  readonly granted_at: number;
  /**
   * `adding`: written before the role is given, `granted`: Discord confirmed it, `removing`: written
   * before it is taken back. Only `granted` rows are settled; the others the next sync settles.
   */
  readonly state: GrantState;
}

export type GrantState = 'adding' | 'granted' | 'removing';

/** One turf reminder's post of one turf day (`src/features/reminders/runs.ts`). */
export interface ReminderRunsTable {
  readonly subscription_id: string;
  readonly guild_id: string;
  readonly day: number;
  /** `queued`: the reminder is in the outbox; `missed`: the day ended before it could be. */
  readonly status: 'queued' | 'missed';
  readonly at: number;
}

export interface Tables {
  subscriptions: SubscriptionsTable;
  cursors: CursorsTable;
  inbox: InboxTable;
  events_done: EventsDoneTable;
  quarantine: QuarantineTable;
  deliveries: DeliveriesTable;
  delivery_intents: DeliveryIntentsTable;
  announcement_refs: AnnouncementRefsTable;
  turf_state: TurfStateTable;
  account_links: AccountLinksTable;
  kpd_keys: KpdKeysTable;
  kpd_feed_state: KpdFeedStateTable;
  guild_departures: GuildDeparturesTable;
  meta: MetaTable;
  counters: CountersTable;
  player_snapshots: PlayerSnapshotsTable;
  players: PlayersTable;
  followed_players: FollowedPlayersTable;
  guild_members: GuildMembersTable;
  role_rules: RoleRulesTable;
  role_grants: RoleGrantsTable;
  clan_rosters: ClanRostersTable;
  reminder_runs: ReminderRunsTable;
}
