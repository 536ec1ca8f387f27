import type { Row } from './model.ts';

/** The run's table, plain text with aligned columns (it reads the same in a terminal and in a note). */
const HEADERS = [
  'fault',
  'answered in time (≤ 3 s)',
  'final reply',
  'posted once',
  'lost',
  'duplicated',
  'max loop delay (ms)',
  'peak RSS (MB)',
  'roles left behind',
  'notes',
] as const;

function cells(row: Row): string[] {
  const dash = '—';
  const commands = row.commands;
  const posts = row.announcements;
  const delay = row.delay;
  const notes = [...(row.error === undefined ? [] : [`ERROR: ${row.error}`]), ...row.notes];
  if (commands && commands.wentWrong > 0) notes.unshift(`${commands.wentWrong} "Something went wrong"`);
  if (commands && commands.errors > 0) notes.unshift(`${commands.errors} error replies`);
  return [
    row.name,
    commands ? `${commands.inTime}/${commands.total}` : dash,
    commands ? `${commands.replied}/${commands.total}` : dash,
    posts ? `${posts.once}/${posts.expected}` : dash,
    posts ? String(posts.lost) : dash,
    posts ? String(posts.duplicated) : dash,
    delay ? `${delay.exact ? '' : '≥ '}${Math.round(delay.maxMs)}` : dash,
    row.peakRssMb === undefined || row.peakRssMb === 0 ? dash : String(Math.round(row.peakRssMb)),
    row.rolesLeftBehind === undefined ? dash : String(row.rolesLeftBehind),
    notes.join('; ') || dash,
  ];
}

export function formatTable(rows: readonly Row[]): string {
  const body = rows.map(cells);
  const widths = HEADERS.map((header, i) =>
    Math.max([...header].length, ...body.map((cells) => [...(cells[i] ?? '')].length)),
  );
  const line = (values: readonly string[]) =>
    `| ${values.map((value, i) => value + ' '.repeat((widths[i] ?? 0) - [...value].length)).join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  return [line(HEADERS), rule, ...body.map(line)].join('\n');
}
