import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/api/auth.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { labelValues, parsePrometheus, valueOf, type Exposition } from '../support/prometheus.ts';

/**
 * The whole bot (game API sandbox, Discord stand-in, real discord.js client): commands typed by users
 * show in `GET /metrics` on the bot's HTTP port, next to `/healthz`, and nothing a user typed nor any
 * secret becomes a label.
 */
let stack: TestStack;
let port: number;

beforeAll(async () => {
  stack = await startTestStack({ health: true, commands: ['player'], announcements: false });
  port = stack.config.http.port!;
}, 60_000);

afterAll(async () => stack.stop());

async function scrape(): Promise<{ raw: string; text: Exposition; type: string | null }> {
  const reply = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(reply.status).toBe(200);
  const raw = await reply.text();
  return { raw, text: parsePrometheus(raw), type: reply.headers.get('content-type') };
}

/**
 * Resolves once the bot's router has recorded `count` interactions of `command` (it records each just after
 * its answer has gone out, so after the stand-in has the reply): told by the recorder itself.
 */
function recorded(command: string, count: number): Promise<void> {
  const metrics = stack.bot.metrics;
  const record = metrics.command.bind(metrics);
  let seen = 0;
  return new Promise((resolve) => {
    metrics.command = (name, kind, outcome, seconds) => {
      record(name, kind, outcome, seconds);
      if (name === command && ++seen === count) {
        metrics.command = record;
        resolve();
      }
    };
  });
}

describe('GET /metrics on the bot', () => {
  it('counts the commands users ran, by outcome, and the upstream calls they made', async () => {
    const N = 4;
    const player = stack.sandbox.world.samples.player;
    const crafted = `Robert"} 1\n${stack.sandbox.keys.default}`;
    const done = recorded('player', N + 1);
    for (let i = 0; i < N; i += 1) await stack.invoke('player', 'profile', { name: player }).final();
    await stack.invoke('player', 'profile', { name: crafted }).final();
    await done;

    const ok = { command: 'player', kind: 'command', outcome: 'ok' };
    const { raw, text } = await scrape();
    const total = text.samples
      .filter((s) => s.name === 'killfeed_commands_total' && s.labels.command === 'player')
      .reduce((sum, s) => sum + s.value, 0);
    expect(total).toBe(N + 1);
    expect(valueOf(text, 'killfeed_commands_total', ok)).toBe(N);
    expect(valueOf(text, 'killfeed_command_duration_seconds_count', ok)).toBe(N);
    expect(valueOf(text, 'killfeed_command_duration_seconds_bucket', { ...ok, le: '+Inf' })).toBe(N);
    const refused = text.samples.find(
      (s) =>
        s.name === 'killfeed_commands_total' && s.labels.command === 'player' && s.labels.outcome !== 'ok',
    );
    expect(refused?.value).toBe(1);
    expect(
      valueOf(text, 'killfeed_upstream_requests_total', { route: 'player', status: '200' }),
    ).toBeGreaterThan(0);
    expect(text.types.get('process_resident_memory_bytes')).toBe('gauge');

    for (const secret of [
      player,
      'Robert',
      stack.sandbox.keys.default,
      fingerprint(stack.sandbox.keys.default),
      stack.discord.token,
    ]) {
      expect(raw).not.toContain(secret);
    }
    expect(labelValues(text).some((value) => value.includes(player) || value.includes('"'))).toBe(false);
  });

  it('serves the Prometheus content type beside an unchanged /healthz', async () => {
    expect((await scrape()).type).toBe('text/plain; version=0.0.4; charset=utf-8');
    const health = await stack.health();
    expect(health).toMatchObject({ status: 200, body: { status: 'ok', store: { status: 'ok' } } });
    expect((await fetch(`http://127.0.0.1:${port}/elsewhere`)).status).toBe(404);
  });
});
