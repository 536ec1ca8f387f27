import { randomInt } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { PriceAlertsTable } from '../../db/migrations/alerts-owner.ts';
import type { AlertStatus, Direction } from './crossing.ts';

/** Why an alert stopped: the user blocks DMs from the bot, or a channel's Discord error. */
export const ALERT_DISABLE_REASONS = [
  'dmBlocked',
  'unknownChannel',
  'missingAccess',
  'missingPermissions',
  'failed',
] as const;
export type AlertDisableReason = (typeof ALERT_DISABLE_REASONS)[number];

export interface PriceAlert {
  readonly id: string;
  /** The server it was made in; undefined: a DM alert whose server the bot has left. */
  readonly guildId: string | undefined;
  readonly userId: string;
  /** Undefined: to the user's DMs. */
  readonly channelId: string | undefined;
  readonly skinIndex: number;
  readonly skinName: string;
  readonly direction: Direction;
  readonly threshold: number;
  readonly locale: string;
  readonly status: AlertStatus;
  readonly firedCount: number;
  readonly deliveredCount: number;
  readonly firedPrice: number | undefined;
  readonly firedAt: number | undefined;
  /** When the crossing now waiting for its second check was first seen. */
  readonly pendingAt: number | undefined;
  readonly intentCount: number | undefined;
  readonly intentAt: number | undefined;
  readonly attempts: number;
  readonly disabledReason: AlertDisableReason | undefined;
  readonly disabledAt: number | undefined;
  readonly createdAt: number;
}

export type NewAlert = Pick<
  PriceAlert,
  'userId' | 'channelId' | 'skinIndex' | 'skinName' | 'direction' | 'threshold' | 'locale'
> & { readonly guildId: string };

export type AddAlertResult =
  | { readonly status: 'created'; readonly alert: PriceAlert }
  | { readonly status: 'exists'; readonly alert: PriceAlert }
  /** The user's DM alerts are at the user's limit. */
  | { readonly status: 'userLimit' }
  /** The server's channel alerts are at the server's limit. */
  | { readonly status: 'guildLimit' };

const ID_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const ID_LENGTH = 6;

export function freshId(): string {
  return Array.from({ length: ID_LENGTH }, () => ID_ALPHABET[randomInt(ID_ALPHABET.length)]).join('');
}

export type Row = Selectable<PriceAlertsTable>;

function reasonOf(value: string | null): AlertDisableReason | undefined {
  return (ALERT_DISABLE_REASONS as readonly string[]).includes(value ?? '')
    ? (value as AlertDisableReason)
    : undefined;
}

export function fromRow(row: Row): PriceAlert {
  const opt = (value: number | string | null) => (value === null ? undefined : Number(value));
  return {
    id: row.id,
    guildId: row.guild_id ?? undefined,
    userId: row.user_id,
    channelId: row.channel_id ?? undefined,
    skinIndex: row.skin_index,
    skinName: row.skin_name,
    direction: row.direction === 'above' ? 'above' : 'below',
    threshold: row.threshold,
    locale: row.locale,
    status:
      row.status === 'fired' || row.status === 'pending' || row.status === 'disabled' ? row.status : 'armed',
    firedCount: row.fired_count,
    deliveredCount: row.delivered_count,
    firedPrice: opt(row.fired_price),
    firedAt: opt(row.fired_at),
    pendingAt: opt(row.pending_at),
    intentCount: opt(row.intent_count),
    intentAt: opt(row.intent_at),
    attempts: row.attempts,
    disabledReason: reasonOf(row.disabled_reason),
    disabledAt: opt(row.disabled_at),
    createdAt: row.created_at,
  };
}
