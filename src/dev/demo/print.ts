import type { APIEmbed } from 'discord.js';
import type { MessageRecord } from '../standin/index.ts';

/** A message as readable text for a terminal: content, embeds, fields, buttons and menus, attachments. */
export function printMessage(message: MessageRecord, indent = '  '): string {
  const lines: string[] = [];
  const flags = message.flags & 64 ? ' (only you can see this)' : '';
  if (message.content) lines.push(...message.content.split('\n').map((line) => `${line}${flags}`));
  for (const embed of message.embeds) lines.push(...printEmbed(embed), ...(flags ? [flags.trim()] : []));
  for (const row of message.components) {
    const parts = ('components' in row ? row.components : []) as unknown as Array<Record<string, unknown>>;
    const shown = parts.map((part) => {
      if (part.type === 2)
        return `[${typeof part.label === 'string' ? part.label : ''}${part.disabled ? ' (off)' : ''}]`;
      if (part.type === 3) {
        const options = (part.options as Array<{ label: string; default?: boolean }> | undefined) ?? [];
        return `⟨menu: ${options.map((o) => (o.default ? `*${o.label}*` : o.label)).join(' | ')}⟩`;
      }
      return `⟨component ${String(part.type)}⟩`;
    });
    if (shown.length > 0) lines.push(shown.join(' '));
  }
  for (const file of message.attachments) lines.push(`📎 ${file.filename} (${file.size} bytes)`);
  return lines.map((line) => `${indent}${readableTimestamps(line)}`).join('\n');
}

/** The reader's now for `:R` times: the demo's clock, which its game steps move ahead of real time. */
let readerNow: () => number = () => Date.now();

export function setPrintClock(now: () => number): void {
  readerNow = now;
}

/** `<t:1700000000:f>` as a terminal can show it: `[2023-11-14 22:13 UTC]`; `:R` as `[3 d ago]`. */
function readableTimestamps(line: string): string {
  return line.replace(/<t:(\d+):([tTdDfFR])>/g, (_, seconds: string, style: string) => {
    const ms = Number(seconds) * 1000;
    if (style === 'R') return `[${relative(ms - readerNow())}]`;
    const iso = new Date(ms).toISOString();
    return `[${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC]`;
  });
}

function relative(deltaMs: number): string {
  const minutes = Math.round(Math.abs(deltaMs) / 60_000);
  const text =
    minutes < 60
      ? `${minutes} min`
      : minutes < 48 * 60
        ? `${Math.round(minutes / 60)} h`
        : `${Math.round(minutes / 1440)} d`;
  return deltaMs < 0 ? `${text} ago` : `in ${text}`;
}
function printEmbed(embed: APIEmbed): string[] {
  const lines: string[] = [];
  if (embed.author?.name) lines.push(embed.author.name);
  if (embed.title) lines.push(`▌ ${embed.title}`);
  if (embed.description) lines.push(...embed.description.split('\n').map((line) => `│ ${line}`));
  const fields = embed.fields ?? [];
  for (let i = 0; i < fields.length;) {
    const field = fields[i];
    if (!field) break;
    if (field.inline) {
      const row = [];
      while (i < fields.length && fields[i]?.inline && row.length < 3) {
        const inline = fields[i];
        if (inline) row.push(`${inline.name}: ${inline.value.replaceAll('\n', ' ')}`);
        i += 1;
      }
      lines.push(`│ ${row.join('   ·   ')}`);
    } else {
      lines.push(`│ ${field.name}`);
      lines.push(...field.value.split('\n').map((line) => `│   ${line}`));
      i += 1;
    }
  }
  if (embed.image?.url) lines.push(`│ 🖼  ${embed.image.url}`);
  if (embed.footer?.text) lines.push(`└ ${embed.footer.text}`);
  return lines;
}
