import type { AnswerSource } from '../api/fallback.ts';
import type { Translator } from '../i18n/index.ts';
import type { ReplyPayload } from './payload.ts';
import { DiscordLimits, truncate } from './text.ts';

/**
 * The reply with a note of where its data came from, when a call of it was answered by the game tier
 * instead of the developer API (no key, or the key refused): added to the last embed's footer, or as a
 * last line of a reply without embeds. A reply answered by the developer API alone is left as it is.
 */
export function withSourceNote(
  payload: ReplyPayload,
  t: Translator,
  sources: ReadonlySet<AnswerSource>,
): ReplyPayload {
  if (!sources.has('game')) return payload;
  const note = t.t('common:source.game');
  const embeds = payload.embeds ?? [];
  const last = embeds.at(-1);
  if (!last) {
    const content = payload.content ? `${payload.content}\n-# ${note}` : `-# ${note}`;
    return { ...payload, content: truncate(content, DiscordLimits.content) };
  }
  const footer = last.footer?.text ? `${last.footer.text} · ${note}` : note;
  const marked = { ...last, footer: { ...last.footer, text: truncate(footer, DiscordLimits.footer) } };
  return { ...payload, embeds: [...embeds.slice(0, -1), marked] };
}
