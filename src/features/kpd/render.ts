import type { KpdCall } from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import { KPD_CALLS_PER_PAGE, newestFirst, pageOf } from './calls.ts';
import { parseTime } from '../../core/time.ts';
import {
  field,
  fit,
  num,
  pageRow,
  pastTimestamp,
  text,
  type Pager,
  type PastTimes,
} from '../../render/common.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';

/**
 * Replies of `/kpd`: the latest hacker reports of the guild's linked key, paged, and the outcome of
 * linking or unlinking a key. Every reply is ephemeral: reports are for the guild's moderators only.
 * The call's game server host, port and internal token are never shown.
 */
const CONTEXTS = [0, 1, 2, 3];
const STATUSES = [1, 2, 3];
const RATINGS = [0, 1, 2];

/** The spec's label (3.1) in the reader's language; for a value the spec does not list, the service's own label. */
function label(
  t: Translator,
  kind: 'context' | 'status' | 'rating',
  value: number | undefined,
  serviceLabel: string | undefined,
): string {
  const known = kind === 'context' ? CONTEXTS : kind === 'status' ? STATUSES : RATINGS;
  if (value !== undefined && known.includes(value)) return t.t(`kpd:labels.${kind}.${value}`);
  if (serviceLabel) return text(serviceLabel, 40);
  return t.t('kpd:labels.unknown', { value: value ?? '?' });
}

export function contextLabel(t: Translator, call: Pick<KpdCall, 'kdf_type' | 'kdf_type_label'>): string {
  return label(t, 'context', call.kdf_type, call.kdf_type_label);
}

export function statusLabel(t: Translator, call: Pick<KpdCall, 'status' | 'status_label'>): string {
  return label(t, 'status', call.status, call.status_label);
}

export function verdictLabel(t: Translator, call: Pick<KpdCall, 'rating' | 'rating_label'>): string {
  return label(t, 'rating', call.rating, call.rating_label);
}

function reportedName(t: Translator, call: KpdCall): string {
  const name = call.called_name;
  if (!name || (name === 'guest' && !call.called_id)) return t.t('kpd:calls.guest');
  return `**${text(name, 64)}**`;
}

/** One call as an embed field (also used by the moderators' channel feed). */
export function callField(t: Translator, call: KpdCall, past?: PastTimes) {
  const lines = [
    t.t('kpd:calls.reporter', {
      name: call.caller_name ? `**${text(call.caller_name, 64)}**` : t.t('common:unknown'),
      rating: num(t, call.caller_job_rating),
      positive: num(t, call.caller_job_rating_positive),
    }),
    t.t('kpd:calls.reported', {
      name: reportedName(t, call),
      score: num(t, call.called_score),
    }),
    t.t('kpd:calls.verdict', {
      verdict: verdictLabel(t, call),
      officer:
        call.officer_id && call.officer_name ? text(call.officer_name, 64) : t.t('kpd:calls.noOfficer'),
    }),
    t.t('kpd:calls.time', {
      when: pastTimestamp(call.date, 'f', past),
      ago: pastTimestamp(call.date, 'R', past),
    }),
  ];
  if (call.status !== undefined && call.status > 1 && call.status_date) {
    lines.push(t.t('kpd:calls.statusChanged', { when: pastTimestamp(call.status_date, 'R', past) }));
  }
  return field(
    t.t('kpd:calls.fieldName', { id: call.id, context: contextLabel(t, call), status: statusLabel(t, call) }),
    lines.join('\n'),
    false,
  );
}

function statusColor(call: KpdCall | undefined): number {
  if (call?.rating === 1) return Colors.danger;
  if (call?.status === 1) return Colors.warning;
  return Colors.info;
}

export interface KpdCallsView {
  readonly calls: readonly KpdCall[];
  readonly page: number;
  readonly now: number;
  readonly pager: Pager;
  /** Now, for the times of past events (one after it is shown as now and reported). */
  readonly past?: PastTimes | undefined;
}

export function renderKpdCalls(t: Translator, view: KpdCallsView): ReplyPayload {
  const sorted = newestFirst(view.calls);
  const { page, totalPages, items } = pageOf(sorted, view.page, KPD_CALLS_PER_PAGE);
  const embed = fit({
    color: statusColor(items[0]),
    title: t.t('kpd:calls.title'),
    ...(items.length === 0 ? { description: t.t('kpd:calls.none') } : {}),
    fields: items.map((call) => callField(t, call, view.past)),
    footer: { text: t.t('kpd:calls.footer', { count: sorted.length, n: t.n(sorted.length) }) },
  });
  const row =
    totalPages > 1
      ? pageRow(t, {
          pager: view.pager,
          page,
          totalPages,
          hasNext: page < totalPages,
        })
      : undefined;
  return { ephemeral: true, embeds: [embed], components: row ? [row] : [] };
}

export interface KpdLinkedView {
  /** `kr_` and four characters at most (see `keyPrefix`). */
  readonly prefix: string;
  readonly visibleCalls: number;
}

export function renderKpdLinked(t: Translator, view: KpdLinkedView): ReplyPayload {
  return {
    ephemeral: true,
    embeds: [
      fit({
        color: Colors.success,
        title: t.t('kpd:link.linkedTitle'),
        description: t.t('kpd:link.linked', {
          prefix: `\`${view.prefix.replace(/`/g, '')}\``,
          n: view.visibleCalls,
        }),
      }),
    ],
  };
}

export function renderKpdUnlinked(t: Translator, removed: boolean): ReplyPayload {
  return {
    ephemeral: true,
    embeds: [
      fit({
        color: removed ? Colors.success : Colors.neutral,
        title: t.t('kpd:unlink.title'),
        description: t.t(removed ? 'kpd:unlink.removed' : 'kpd:unlink.none'),
      }),
    ],
  };
}

/** `/subscribe kpd`: a new call, posted in the moderators' channel (not ephemeral: the channel is theirs). */
export function renderKpdNewCall(t: Translator, call: KpdCall, past?: PastTimes): ReplyPayload {
  const at = call.date ? parseTime(call.date) : Number.NaN;
  return {
    embeds: [
      fit({
        color: statusColor(call),
        title: t.t('kpd:feed.newTitle'),
        fields: [callField(t, call, past)],
        ...(Number.isFinite(at) ? { timestamp: new Date(at).toISOString() } : {}),
      }),
    ],
  };
}

/** `/subscribe kpd`: a call whose status or verdict changed, with what it was before. */
export function renderKpdCallChanged(
  t: Translator,
  call: KpdCall,
  previous: { readonly status?: number | undefined; readonly rating?: number | undefined },
  past?: PastTimes,
): ReplyPayload {
  const lines: string[] = [];
  if (previous.status !== call.status) {
    lines.push(
      t.t('kpd:feed.status', {
        from: previous.status === undefined ? '—' : statusLabel(t, { status: previous.status }),
        to: statusLabel(t, call),
      }),
    );
  }
  if (previous.rating !== call.rating) {
    lines.push(
      t.t('kpd:feed.verdict', {
        from: previous.rating === undefined ? '—' : verdictLabel(t, { rating: previous.rating }),
        to: verdictLabel(t, call),
      }),
    );
  }
  return {
    embeds: [
      fit({
        color: statusColor(call),
        title: t.t('kpd:feed.changedTitle', { id: call.id }),
        ...(lines.length > 0 ? { description: lines.join('\n') } : {}),
        fields: [callField(t, call, past)],
      }),
    ],
  };
}
