import { describe, expect, it } from 'vitest';
import {
  LocalRefusalError,
  NotFoundError,
  RateLimitedError,
  UpstreamError,
} from '../../../src/api/errors.ts';
import { UserError } from '../../../src/core/user-error.ts';
import { LOCALES, Translations } from '../../../src/i18n/index.ts';
import { renderError } from '../../../src/render/errors.ts';
import { NameNotFoundError } from '../../../src/render/suggest.ts';
import type { ReplyPayload } from '../../../src/render/payload.ts';
import { ReplyJudge, enabledButtons } from '../../../src/dev/demo/outcome.ts';
import type { MessageRecord } from '../../../src/dev/standin/index.ts';

/** How the demo tells an error reply from an answer: by the titles the bot's error replies carry. */
const translations = new Translations();
const judge = new ReplyJudge(translations);

function message(payload: ReplyPayload): MessageRecord {
  return {
    id: '1',
    channelId: '2',
    guildId: '3',
    authorId: '4',
    kind: 'reply',
    interactionId: '5',
    content: payload.content ?? '',
    embeds: [...(payload.embeds ?? [])],
    components: [...(payload.components ?? [])],
    attachments: [],
    flags: payload.ephemeral ? 64 : 0,
    nonce: null,
    allowedMentions: null,
    tts: false,
    messageReference: null,
    createdAt: 0,
    editedAt: null,
    edits: 0,
  };
}

describe('ReplyJudge', () => {
  it.each(LOCALES)('reads every kind of failure as an error in %s', (locale) => {
    const t = translations.for(locale);
    const failures = [
      new UserError('common:errors.badToken'),
      new Error('boom'),
      new UpstreamError('down', 503),
      new RateLimitedError('slow down', 5_000),
      new NotFoundError('gone'),
    ];
    for (const failure of failures) {
      expect(judge.outcome(message(renderError(failure, t, 'incident')))).toBe('error');
    }
  });

  it.each(LOCALES)('reads "this needs a developer key" as needs-key in %s (the keyless demo)', (locale) => {
    const t = translations.for(locale);
    const refusal = new LocalRefusalError('no key', 'no_api_key', ['apiKey'], 'player');
    expect(judge.outcome(message(renderError(refusal, t, 'incident')))).toBe('needs-key');
    expect(judge.outcome(message(renderError(new UserError('common:errors.noApiKey'), t, 'x')))).toBe(
      'needs-key',
    );
  });

  it('reads a name not found as not found, with its "did you mean" buttons', () => {
    const t = translations.for('en-US');
    const error = new NameNotFoundError('common:notFound.player', 'KillfeedTeste', [
      { name: 'KillfeedTester', customId: 'player:profile:KillfeedTester' },
    ]);
    const reply = message(renderError(error, t, 'incident'));
    expect(judge.outcome(reply)).toBe('not-found');
    expect(enabledButtons(reply)).toEqual([
      { label: 'KillfeedTester', customId: 'player:profile:KillfeedTester' },
    ]);
  });

  it('reads any other reply as an answer, whatever it says', () => {
    expect(judge.outcome(message({ embeds: [{ title: 'KillfeedTester', description: 'Level 27' }] }))).toBe(
      'ok',
    );
    expect(judge.outcome(message({ content: 'That did not work out for the other team' }))).toBe('ok');
  });
});
