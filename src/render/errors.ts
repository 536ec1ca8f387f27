import { SlotRefusedError } from '../api/slot.ts';
import { ApiError, ForbiddenError, LocalRefusalError, RateLimitedError } from '../api/errors.ts';
import { UserError } from '../core/user-error.ts';
import type { Translator } from '../i18n/index.ts';
import { Colors, type ReplyPayload } from './payload.ts';
import { didYouMeanRow, inlineCode, MAX_DID_YOU_MEAN, NameNotFoundError } from './suggest.ts';
import { truncate } from './text.ts';

/** The ephemeral reply for a failure; `incidentId` is shown (and logged) only for unexpected errors. */
export function renderError(error: unknown, t: Translator, incidentId: string): ReplyPayload {
  if (error instanceof NameNotFoundError) return renderNameNotFound(error, t);
  const { title, description } = describe(error, t, incidentId);
  return {
    ephemeral: true,
    embeds: [{ color: Colors.danger, title: truncate(title, 256), description: truncate(description, 4096) }],
  };
}

/** "No player named `x`", and the "did you mean" buttons when there are close names. */
function renderNameNotFound(error: NameNotFoundError, t: Translator): ReplyPayload {
  const row = didYouMeanRow(error.choices);
  const lines = [t.t(error.key, error.vars), didYouMeanLine(error, row !== undefined, t)];
  return {
    ephemeral: true,
    embeds: [
      {
        color: Colors.danger,
        title: truncate(t.t('common:notFound.title'), 256),
        description: truncate(lines.join('\n'), 4096),
      },
    ],
    ...(row ? { components: [row] } : {}),
  };
}

/** The prompt over the buttons; without buttons, the close names as text (or the advice to check the spelling). */
function didYouMeanLine(error: NameNotFoundError, buttons: boolean, t: Translator): string {
  if (buttons) return t.t('common:didYouMean.prompt');
  const names = error.choices.slice(0, MAX_DID_YOU_MEAN).map((choice) => inlineCode(choice.name));
  return names.length === 0
    ? t.t('common:didYouMean.none')
    : t.t('common:didYouMean.names', { names: names.join(', ') });
}

function describe(error: unknown, t: Translator, incidentId: string): { title: string; description: string } {
  if (error instanceof UserError) {
    return { title: t.t('common:errors.title'), description: t.t(error.key, error.vars) };
  }
  if (!(error instanceof ApiError)) {
    return {
      title: t.t('common:errors.unexpectedTitle'),
      description: t.t('common:errors.unexpected', { id: incidentId }),
    };
  }
  const title = t.t('common:errors.title');
  if (error instanceof RateLimitedError) {
    const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    // Too many waiting for this one's answer to come in time: not a refusal of the game API's own.
    const key = error instanceof SlotRefusedError && error.queued ? 'queueFull' : 'busy';
    return { title: t.t('common:errors.busyTitle'), description: t.t(`common:errors.${key}`, { seconds }) };
  }
  if (error instanceof LocalRefusalError) {
    if (error.reason === 'bad_token') return { title, description: t.t('common:errors.badToken') };
    if (error.reason === 'no_api_key') return { title, description: t.t('common:errors.noApiKey') };
    return {
      title,
      description: t.t('common:errors.invalidInputFields', { fields: error.fields.join(', ') }),
    };
  }
  if (error instanceof ForbiddenError) {
    return { title, description: t.t(`common:errors.forbidden.${error.reason}`) };
  }
  switch (error.kind) {
    case 'not_found':
      return { title, description: t.t('common:errors.notFound') };
    case 'upstream':
    case 'timeout':
    case 'invalid_reply':
      return { title: t.t('common:errors.upstreamTitle'), description: t.t('common:errors.upstream') };
    case 'bad_request':
      return { title, description: t.t('common:errors.invalidInput') };
    case 'unauthorized':
      return { title, description: t.t('common:errors.unauthorized') };
    default:
      return { title, description: t.t('common:errors.invalidInput') };
  }
}
