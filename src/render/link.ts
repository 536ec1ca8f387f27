import type { Translator } from '../i18n/index.ts';
import { fit, text, timestamp } from './common.ts';
import { Colors, type ReplyPayload } from './payload.ts';

/** A link under way, as the replies show it (the store's record has this shape). */
export interface PendingLinkView {
  readonly playerName: string;
  readonly code: string;
  readonly expiresAt: number;
}

/** Replies of `/link` and `/unlink`; all ephemeral (they concern one user's account). */
export function renderLinkStarted(t: Translator, pending: PendingLinkView, maxChecks: number): ReplyPayload {
  return {
    ephemeral: true,
    embeds: [
      fit({
        color: Colors.info,
        title: t.t('link:started.title', { name: text(pending.playerName, 100) }),
        description: t.t('link:started.description', {
          name: text(pending.playerName, 100),
          code: `\`${pending.code}\``,
          expires: timestamp(pending.expiresAt, 'R'),
          checks: maxChecks,
        }),
      }),
    ],
  };
}

export function renderLinkVerified(t: Translator, playerName: string): ReplyPayload {
  return {
    ephemeral: true,
    embeds: [
      fit({
        color: Colors.success,
        title: t.t('link:verified.title'),
        description: t.t('link:verified.description', { name: text(playerName, 100) }),
      }),
    ],
  };
}

export function renderLinkNotFound(
  t: Translator,
  pending: PendingLinkView,
  checksLeft: number,
): ReplyPayload {
  return {
    ephemeral: true,
    embeds: [
      fit({
        color: Colors.warning,
        title: t.t('link:notFound.title'),
        description: [
          t.t('link:notFound.description', {
            name: text(pending.playerName, 100),
            code: `\`${pending.code}\``,
            expires: timestamp(pending.expiresAt, 'R'),
          }),
          checksLeft > 0
            ? t.t('link:notFound.checksLeft', { n: checksLeft })
            : t.t('link:notFound.lastCheck'),
        ].join('\n\n'),
      }),
    ],
  };
}

/** `/unlink`: the name that was unlinked, or undefined when there was no link. */
export function renderUnlinked(
  t: Translator,
  playerName: string | undefined,
  cancelledCode: boolean,
): ReplyPayload {
  const description =
    playerName !== undefined
      ? t.t('unlink:reply.removed', { name: text(playerName, 100) })
      : cancelledCode
        ? t.t('unlink:reply.cancelled')
        : t.t('unlink:reply.none');
  return {
    ephemeral: true,
    embeds: [
      fit({
        color: playerName !== undefined || cancelledCode ? Colors.success : Colors.neutral,
        title: t.t('unlink:reply.title'),
        description,
      }),
    ],
  };
}
