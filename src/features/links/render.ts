import type { Translator } from '../../i18n/index.ts';
import { fit, text, timestamp } from '../../render/common.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';

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
          count: maxChecks,
        }),
      }),
    ],
  };
}

/** `moved`: the account was linked to another Discord account, whose link is now this one. */
export function renderLinkVerified(t: Translator, playerName: string, moved = false): ReplyPayload {
  const linked = t.t('link:verified.description', { name: text(playerName, 100) });
  return {
    ephemeral: true,
    embeds: [
      fit({
        color: Colors.success,
        title: t.t('link:verified.title'),
        description: moved ? `${t.t('link:verified.moved')}\n\n${linked}` : linked,
      }),
    ],
  };
}

/** A link as `/link status` shows it: `suspended` gives no roles, `missing` none by numbers. */
export interface LinkStatusView {
  readonly link:
    | {
        readonly playerName: string;
        readonly linkedAt: number;
        readonly state: 'active' | 'suspended' | 'missing';
      }
    | undefined;
  readonly pending: PendingLinkView | undefined;
}

export function renderLinkStatus(t: Translator, view: LinkStatusView): ReplyPayload {
  const { link, pending } = view;
  const lines: string[] = [];
  if (link === undefined) lines.push(t.t('link:status.none'));
  else {
    const name = text(link.playerName, 100);
    lines.push(t.t('link:status.linked', { name, since: timestamp(link.linkedAt, 'R') }));
    if (link.state === 'suspended') lines.push(t.t('link:status.suspended', { name }));
    if (link.state === 'missing') lines.push(t.t('link:status.missing', { name }));
  }
  if (pending !== undefined)
    lines.push(
      t.t('link:status.pending', {
        name: text(pending.playerName, 100),
        expires: timestamp(pending.expiresAt, 'R'),
      }),
    );
  return {
    ephemeral: true,
    embeds: [
      fit({
        color:
          link === undefined ? Colors.neutral : link.state === 'active' ? Colors.success : Colors.warning,
        title: t.t('link:status.title'),
        description: lines.join('\n\n'),
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
