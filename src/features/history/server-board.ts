import type { APIEmbed } from 'discord.js';
import type { HistoryStat } from '../../players/stats.ts';
import type { Translator } from '../../i18n/index.ts';
import { fit, MAX_PAGE_ROWS, num, pageRow, text, type Pager, type Row } from '../../render/common.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';
import { statLabel, statText } from './render.ts';

const NAME_MAX = 64;

export interface LeaderboardRow {
  readonly rank: number;
  readonly userId: string;
  readonly playerName: string;
  readonly value: number;
}

export interface ServerLeaderboardView {
  readonly guildName: string;
  readonly stat: HistoryStat;
  readonly rows: readonly LeaderboardRow[];
  readonly page: number;
  readonly pages: number;
  readonly total: number;
  /** The caller's own row, shown under the page when it is not on it. */
  readonly own: LeaderboardRow | undefined;
  readonly pager: Pager;
}

function leaderboardLine(t: Translator, stat: HistoryStat, row: LeaderboardRow): string {
  return t.t('server:leaderboard.line', {
    rank: num(t, row.rank),
    name: text(row.playerName, NAME_MAX),
    user: `<@${row.userId}>`,
    value: statText(t, stat, row.value),
  });
}

/** `/server leaderboard`: the server's linked members by a stat of their latest snapshots (no request). */
export function renderServerLeaderboard(t: Translator, view: ServerLeaderboardView): ReplyPayload {
  const rows = view.rows.slice(0, MAX_PAGE_ROWS);
  const lines = rows.map((row) => leaderboardLine(t, view.stat, row));
  const onPage = view.own !== undefined && rows.some((row) => row.userId === view.own?.userId);
  if (view.own && !onPage) lines.push('…', leaderboardLine(t, view.stat, view.own));
  const embed: APIEmbed = {
    color: Colors.brand,
    title: t.t('server:leaderboard.title', {
      server: text(view.guildName, 100),
      stat: statLabel(t, view.stat),
    }),
    description: lines.length === 0 ? t.t('server:leaderboard.none') : lines.join('\n'),
    footer: { text: t.t('server:leaderboard.footer', { count: view.total }) },
  };
  const components: Row[] = [];
  const row = pageRow(t, {
    pager: view.pager,
    page: view.page,
    totalPages: view.pages,
    hasNext: view.page < view.pages,
  });
  if (row) components.push(row);
  // Mentions name members; they never ping (the reply allows no mentions).
  return { embeds: [fit(embed)], components };
}
