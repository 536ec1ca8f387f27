import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  configureLog,
  createLogger,
  log,
  logFor,
  registerSecret,
  scrubSecrets,
  type Logger,
  type LogLevel,
} from '../../src/log/index.ts';

function capture(level: LogLevel = 'trace'): {
  logger: Logger;
  output: () => string;
  lines: () => unknown[];
} {
  const chunks: string[] = [];
  const logger = createLogger({ level, destination: { write: (chunk: string) => chunks.push(chunk) } });
  return {
    logger,
    output: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as unknown),
  };
}

const unique = (label: string) => `${label}-${randomBytes(9).toString('base64url')}`;
const JWT = `eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0In0.${randomBytes(40).toString('base64url')}`;
const DISCORD_TOKEN = `${Buffer.from('123456789012345678').toString('base64url')}.GaBcDe.${randomBytes(28).toString('base64url')}`;
const API_KEY = `kr_${randomBytes(18).toString('hex')}`;

describe('redaction by field name', () => {
  it('censors header objects, whatever their depth', () => {
    const { logger, output, lines } = capture();
    const secret = unique('plain');
    logger.info(
      {
        headers: { authorization: secret, 'x-developer-api-key': secret, accept: 'application/json' },
        request: { headers: { Authorization: secret, 'X-Developer-API-Key': secret } },
        a: { b: { c: { token: secret, password: secret, apiKey: secret } } },
        key: secret,
        secret,
      },
      'request sent',
    );
    expect(output()).not.toContain(secret);
    const [line] = lines() as [Record<string, { authorization?: string; accept?: string }>];
    expect(line.headers?.authorization).toBe('[redacted]');
    expect(line.headers?.accept).toBe('application/json');
  });

  it('does not change the logged object', () => {
    const { logger } = capture();
    const headers = { authorization: 'Bearer something-long-enough' };
    logger.info({ headers }, 'x');
    expect(headers.authorization).toBe('Bearer something-long-enough');
  });
});

describe('redaction by pattern', () => {
  it('scrubs a game API key inside a nested error message, keeping kr_ and four characters', () => {
    const { logger, output } = capture();
    const err = new Error('outer', { cause: new Error(`request with ${API_KEY} was refused`) });
    logger.error({ err, context: { detail: `key=${API_KEY}` } }, 'failed');
    expect(output()).not.toContain(API_KEY);
    expect(output()).toContain(`${API_KEY.slice(0, 7)}[redacted]`);
  });

  it('scrubs a token in a URL query', () => {
    const { logger, output } = capture();
    logger.warn(
      { url: `https://api.example.com/player/me?token=${JWT}&x=1` },
      `GET /player/me?access=${JWT}`,
    );
    expect(output()).not.toContain(JWT);
    expect(output()).not.toContain(JWT.split('.')[2]);
    expect(output()).toContain('token=[redacted]&x=1');
  });

  it('scrubs Discord bot tokens and bearer credentials in free text', () => {
    const { logger, output } = capture();
    const opaque = randomBytes(24).toString('base64url');
    logger.info(`login with ${DISCORD_TOKEN}; sent Authorization: Bearer ${opaque}`);
    expect(output()).not.toContain(DISCORD_TOKEN);
    expect(output()).not.toContain(opaque);
    expect(output()).toContain('Bearer [redacted]');
  });

  it('leaves ordinary dotted text and short kr_ words alone', () => {
    expect(scrubSecrets('version 1.2.3 of kr_abc at example.com.au')).toBe(
      'version 1.2.3 of kr_abc at example.com.au',
    );
    const notToken = `${Buffer.from('not-a-snowflake-id').toString('base64url')}.GaBcDe.${'x'.repeat(30)}`;
    expect(scrubSecrets(notToken)).toBe(notToken);
  });
});

/** What @discordjs/rest throws: DiscordAPIError (4xx) and HTTPError (5xx) carry the request's full URL. */
function discordError(
  kind: 'DiscordAPIError' | 'HTTPError',
  url: string,
): Error & { url: string; method: string; status: number } {
  const error = new Error(kind === 'HTTPError' ? 'Internal Server Error' : 'Unknown Webhook') as Error & {
    url: string;
    method: string;
    status: number;
    requestBody: unknown;
  };
  error.name = kind === 'HTTPError' ? 'HTTPError' : 'DiscordAPIError[10015]';
  error.url = url;
  error.method = 'PATCH';
  error.status = kind === 'HTTPError' ? 500 : 404;
  error.requestBody = { files: undefined, json: { content: 'hello' } };
  error.stack = `${error.name}: ${error.message}\n    at handleErrors (${url})\n    at async editReply`;
  return error;
}

describe('interaction and webhook tokens', () => {
  const app = '1100000000000000001';
  const interactionToken = () =>
    Buffer.from(`interaction:1200000000000000042:${randomBytes(24).toString('base64url')}`).toString(
      'base64url',
    );
  const webhookToken = () => randomBytes(51).toString('base64url');

  it('are removed from DiscordAPIError and HTTPError objects, in every field and nested', () => {
    const { logger, output, lines } = capture();
    const edit = interactionToken();
    const followUp = interactionToken();
    const editUrl = `https://discord.com/api/v10/webhooks/${app}/${edit}/messages/@original`;
    const followUpUrl = `http://127.0.0.1:4000/api/v10/webhooks/${app}/${followUp}?wait=true`;
    const failed = discordError('HTTPError', editUrl);
    const wrapped = new Error(`reply failed: PATCH ${editUrl}`, {
      cause: discordError('DiscordAPIError', followUpUrl),
    });
    logger.error({ err: failed }, 'interaction failed');
    logger.warn({ err: wrapped, request: { route: { path: new URL(followUpUrl).pathname } } }, 'x');
    logger.error({ error: discordError('DiscordAPIError', editUrl) }, `could not send ${followUpUrl}`);
    const text = output();
    for (const token of [edit, followUp]) {
      expect(text).not.toContain(token);
      for (let at = 0; at + 12 <= token.length; at += 6) expect(text).not.toContain(token.slice(at, at + 12));
    }
    const [first] = lines() as [{ err: { url: string; stack: string; status: number } }];
    expect(first.err.url).toBe(`https://discord.com/api/v10/webhooks/${app}/[redacted]/messages/@original`);
    expect(first.err.stack).toContain(`/webhooks/${app}/[redacted]/messages/@original`);
    expect(first.err.status).toBe(500);
    expect(text).toContain(`/webhooks/${app}/[redacted]?wait=true`);
  });

  it('are removed from interaction callback paths and webhook URLs in free text', () => {
    const interaction = interactionToken();
    const hook = webhookToken();
    expect(
      scrubSecrets(`POST /api/v10/interactions/1200000000000000042/${interaction}/callback failed`),
    ).toBe('POST /api/v10/interactions/1200000000000000042/[redacted]/callback failed');
    expect(scrubSecrets(`posting to https://discord.com/api/webhooks/123456789012345678/${hook} now`)).toBe(
      'posting to https://discord.com/api/webhooks/123456789012345678/[redacted] now',
    );
    expect(scrubSecrets(`webhooks/123456789012345678/${hook}`)).toBe(
      'webhooks/123456789012345678/[redacted]',
    );
  });

  it('leave paths without a token alone', () => {
    for (const text of [
      '/webhooks/123456789012345678',
      'GET /channels/123/webhooks',
      '/events/webhooks/receiver',
      'POST /hooks/killfeed',
    ]) {
      expect(scrubSecrets(text)).toBe(text);
    }
  });
});

describe('scrubbing cost', () => {
  // Each input completes in milliseconds with linear patterns; a quadratic one takes minutes here.
  it.each([
    ['JWT starts', 'eyJ'.repeat(400_000)],
    ['JWT starts with a dot', 'eyJa.'.repeat(200_000)],
    ['webhook paths', '/webhooks/1/'.repeat(100_000)],
    ['webhook ids', `/webhooks/${'1'.repeat(1_000_000)}`],
    ['game key starts', '-kr_'.repeat(300_000)],
  ])('is linear in the length of the line: %s', (_name, text) => {
    expect(scrubSecrets(text).length).toBeGreaterThan(0);
  });
});

describe('registered secrets', () => {
  it('are replaced inside free text, error stacks and encoded forms', () => {
    const secret = `${unique('linked')}/+"quoted"`;
    const forget = registerSecret(secret);
    try {
      const { logger, output } = capture();
      logger.info(`the player linked ${secret} today`);
      const err = new Error(`upstream said ${secret}`);
      logger.error({ err }, 'failed');
      logger.info({ url: `https://x.example/?k=${encodeURIComponent(secret)}` }, 'url');
      const text = output();
      expect(text).toContain('the player linked [redacted] today');
      expect(text).toContain('upstream said [redacted]');
      expect(text).not.toContain(secret);
      expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
      expect(text).not.toContain(encodeURIComponent(secret));
    } finally {
      forget();
    }
  });

  it('reach child loggers', () => {
    const secret = unique('child');
    const forget = registerSecret(secret);
    try {
      const { logger, output } = capture();
      logger.child({ subsystem: 'api' }).info(`x ${secret} y`);
      expect(output()).toContain('x [redacted] y');
    } finally {
      forget();
    }
  });

  it('are printed again once forgotten, and counted when registered twice', () => {
    const secret = unique('forget');
    const forgetFirst = registerSecret(secret);
    const forgetSecond = registerSecret(secret);
    forgetFirst();
    forgetFirst();
    expect(scrubSecrets(secret)).toBe('[redacted]');
    forgetSecond();
    expect(scrubSecrets(secret)).toBe(secret);
  });

  it('ignore values too short to mask safely', () => {
    const forget = registerSecret('abc');
    expect(scrubSecrets('abc abcdef')).toBe('abc abcdef');
    forget();
  });
});

describe('application logger', () => {
  it('gives one child per subsystem, tagged, following configureLog', () => {
    const before = log.level;
    try {
      const api = logFor('api');
      expect(logFor('api')).toBe(api);
      expect(api.bindings()).toEqual({ subsystem: 'api' });
      configureLog('debug');
      expect(log.level).toBe('debug');
      expect(api.level).toBe('debug');
      expect(logFor('store-test').level).toBe('debug');
      configureLog('warn');
      expect(api.level).toBe('warn');
    } finally {
      configureLog(before as LogLevel);
    }
  });

  it('honours the level of a created logger', () => {
    const { logger, lines } = capture('warn');
    logger.info('hidden');
    logger.warn('shown');
    expect(lines()).toEqual([expect.objectContaining({ msg: 'shown' })]);
  });

  it('serializes errors given as err or as error', () => {
    const { logger, lines } = capture();
    logger.error({ error: new Error('boom') }, 'failed');
    const [line] = lines() as [{ error: { message: string; stack: string } }];
    expect(line.error.message).toBe('boom');
    expect(line.error.stack).toContain('Error: boom');
  });
});
