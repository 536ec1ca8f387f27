import { describe, expect, it } from 'vitest';
import {
  createMetrics,
  mergeSnapshots,
  parseSnapshot,
  type MetricsOptions,
} from '../../src/metrics/index.ts';
import { ManualClock } from '../support/clock.ts';
import { labelValues, parsePrometheus, valueOf } from '../support/prometheus.ts';

/**
 * The metrics object on its own: what each recording function adds, the gauges read at scrape time, the
 * bounds on label values, and the merge of several processes' snapshots.
 */
function make(options: MetricsOptions = {}) {
  const clock = new ManualClock();
  const metrics = createMetrics({
    defaultMetrics: false,
    clock,
    sleep: (ms, signal) => clock.sleep(ms, signal),
    ...options,
  });
  const read = async () => parsePrometheus(await metrics.text());
  return { clock, metrics, read };
}

describe('commands', () => {
  it('counts by name, kind and outcome, with the latency in the histogram', async () => {
    const { metrics, read } = make();
    for (let i = 0; i < 3; i += 1) metrics.command('player', 'command', 'ok', 0.2);
    metrics.command('player', 'command', 'user_error', 0.01);
    metrics.command('player', 'component', 'ok', 2.5);
    const text = await read();
    const ok = { command: 'player', kind: 'command', outcome: 'ok' };
    expect(valueOf(text, 'killfeed_commands_total', ok)).toBe(3);
    expect(valueOf(text, 'killfeed_commands_total', { ...ok, outcome: 'user_error' })).toBe(1);
    expect(valueOf(text, 'killfeed_command_duration_seconds_count', ok)).toBe(3);
    expect(valueOf(text, 'killfeed_command_duration_seconds_sum', ok)).toBeCloseTo(0.6);
    expect(valueOf(text, 'killfeed_command_duration_seconds_bucket', { ...ok, le: '0.1' })).toBe(0);
    expect(valueOf(text, 'killfeed_command_duration_seconds_bucket', { ...ok, le: '0.25' })).toBe(3);
    const button = { command: 'player', kind: 'component', outcome: 'ok' };
    expect(valueOf(text, 'killfeed_command_duration_seconds_bucket', { ...button, le: '2' })).toBe(0);
    expect(valueOf(text, 'killfeed_command_duration_seconds_bucket', { ...button, le: '3' })).toBe(1);
    expect(text.types.get('killfeed_command_duration_seconds')).toBe('histogram');
  });

  it('never takes text that is not a plain name as a label, and keeps the set of names bounded', async () => {
    const { metrics, read } = make();
    metrics.command('Robert"); DROP', 'command', 'ok', 0);
    metrics.command('a name with spaces', 'command', 'ok', 0);
    for (let i = 0; i < 150; i += 1) metrics.command(`cmd${i}`, 'command', 'ok', 0);
    const text = await read();
    const names = new Set(
      text.samples.filter((s) => s.name === 'killfeed_commands_total').map((s) => s.labels.command),
    );
    expect(names.has('other')).toBe(true);
    expect(names.size).toBe(101); // 100 names, then `other`
    expect(labelValues(text).some((value) => value.includes(' ') || value.includes('"'))).toBe(false);
    expect(valueOf(text, 'killfeed_commands_total', { command: 'other' })).toBe(52);
  });
});

describe('upstream calls', () => {
  it('counts by route and status, 429s apart, failures by their name', async () => {
    const { metrics, read } = make();
    metrics.upstream('player', 200);
    metrics.upstream('player', 200);
    metrics.upstream('player', 404);
    metrics.upstream('events', 429);
    metrics.upstream('clan', 'network');
    metrics.upstream('clan', 1234);
    const text = await read();
    expect(valueOf(text, 'killfeed_upstream_requests_total', { route: 'player', status: '200' })).toBe(2);
    expect(valueOf(text, 'killfeed_upstream_requests_total', { route: 'player', status: '404' })).toBe(1);
    expect(valueOf(text, 'killfeed_upstream_requests_total', { route: 'events', status: '429' })).toBe(1);
    expect(valueOf(text, 'killfeed_upstream_rate_limited_total', { route: 'events' })).toBe(1);
    expect(valueOf(text, 'killfeed_upstream_rate_limited_total', { route: 'player' })).toBeUndefined();
    expect(valueOf(text, 'killfeed_upstream_requests_total', { route: 'clan', status: 'network' })).toBe(1);
    expect(valueOf(text, 'killfeed_upstream_requests_total', { route: 'clan', status: 'other' })).toBe(1);
  });
});

describe('the budget gauges', () => {
  it('show what the last reply left in each window, and the full limit once the window has reset', async () => {
    const { clock, metrics, read } = make();
    expect(valueOf(await read(), 'killfeed_api_budget_remaining')).toBeUndefined();
    metrics.budgetSeen('general', { limit: 60, remaining: 12, resetAt: clock.now() + 30_000 });
    metrics.budgetSeen('events', { limit: 6, remaining: 0, resetAt: clock.now() + 10_000 });
    let text = await read();
    expect(valueOf(text, 'killfeed_api_budget_remaining', { window: 'general' })).toBe(12);
    expect(valueOf(text, 'killfeed_api_budget_limit', { window: 'general' })).toBe(60);
    expect(valueOf(text, 'killfeed_api_budget_remaining', { window: 'events' })).toBe(0);
    clock.set(clock.now() + 10_000);
    text = await read();
    expect(valueOf(text, 'killfeed_api_budget_remaining', { window: 'events' })).toBe(6);
    expect(valueOf(text, 'killfeed_api_budget_remaining', { window: 'general' })).toBe(12);
  });

  it('read from a registered source instead when one is set; a failing source leaves them absent', async () => {
    const { metrics, read } = make();
    metrics.setBudgetSource(async () => [{ window: 'general', limit: 60, remaining: 41 }]);
    expect(valueOf(await read(), 'killfeed_api_budget_remaining', { window: 'general' })).toBe(41);
    metrics.setBudgetSource(() => Promise.reject(new Error('redis down')));
    const text = await read();
    expect(valueOf(text, 'killfeed_api_budget_remaining')).toBeUndefined();
    expect(valueOf(text, 'killfeed_metrics_read_errors_total', { metric: 'api_budget' })).toBe(1);
    // The rest of the registry is still served.
    expect(text.types.get('killfeed_commands_total')).toBe('counter');
  });

  it('give up on a source that does not answer within the read timeout', async () => {
    const { clock, metrics } = make({ readTimeoutMs: 500 });
    metrics.setBudgetSource(() => new Promise(() => undefined));
    const pending = metrics.text();
    await clock.advance(500);
    const text = parsePrometheus(await pending);
    expect(valueOf(text, 'killfeed_api_budget_remaining')).toBeUndefined();
    expect(valueOf(text, 'killfeed_metrics_read_errors_total', { metric: 'api_budget' })).toBe(1);
  });
});

describe('the outbox depth', () => {
  it('exists only once a process registers how to read it, and is absent (not zero) when the read fails', async () => {
    const { metrics, read } = make();
    expect((await read()).types.has('killfeed_outbox_depth')).toBe(false);
    let depth: number | Error = 17;
    metrics.setOutboxDepth(async () => {
      if (depth instanceof Error) throw depth;
      return depth;
    });
    expect(valueOf(await read(), 'killfeed_outbox_depth')).toBe(17);
    depth = 3;
    expect(valueOf(await read(), 'killfeed_outbox_depth')).toBe(3);
    depth = new Error('database down');
    const text = await read();
    expect(valueOf(text, 'killfeed_outbox_depth')).toBeUndefined();
    expect(valueOf(text, 'killfeed_metrics_read_errors_total', { metric: 'outbox_depth' })).toBe(1);
  });
});

describe('poll cycles, deliveries and shards', () => {
  it('records each', async () => {
    const { metrics, read } = make();
    metrics.pollCycle('events', 0.4);
    metrics.pollCycle('events', 12);
    metrics.pollCycle('kpd', 3);
    metrics.delivery('sent');
    metrics.delivery('sent');
    metrics.delivery('failed');
    metrics.shardStatus(0, 'starting');
    metrics.shardStatus(1, 'ready');
    metrics.shardStatus(0, 'ready');
    metrics.shardStatus(1, 'dead');
    const text = await read();
    expect(valueOf(text, 'killfeed_poll_cycle_duration_seconds_count', { source: 'events' })).toBe(2);
    expect(valueOf(text, 'killfeed_poll_cycle_duration_seconds_bucket', { source: 'events', le: '10' })).toBe(
      1,
    );
    expect(valueOf(text, 'killfeed_poll_cycle_duration_seconds_count', { source: 'kpd' })).toBe(1);
    expect(valueOf(text, 'killfeed_deliveries_total', { outcome: 'sent' })).toBe(2);
    expect(valueOf(text, 'killfeed_deliveries_total', { outcome: 'failed' })).toBe(1);
    expect(valueOf(text, 'killfeed_shard_status', { shard: '0', state: 'ready' })).toBe(1);
    expect(valueOf(text, 'killfeed_shard_status', { shard: '0', state: 'starting' })).toBe(0);
    expect(valueOf(text, 'killfeed_shard_status', { shard: '1', state: 'dead' })).toBe(1);
    expect(valueOf(text, 'killfeed_shard_status', { shard: '1', state: 'ready' })).toBe(0);
    expect(() => metrics.shardStatus(-1, 'ready')).toThrow(RangeError);
  });
});

describe('registries', () => {
  it('are one per metrics object, with Node process metrics unless turned off', async () => {
    const a = createMetrics();
    const b = createMetrics({ defaultMetrics: false });
    a.command('player', 'command', 'ok', 0);
    const textA = parsePrometheus(await a.text());
    const textB = parsePrometheus(await b.text());
    expect(valueOf(textA, 'killfeed_commands_total', { command: 'player' })).toBe(1);
    expect(valueOf(textB, 'killfeed_commands_total', { command: 'player' })).toBeUndefined();
    expect(textA.types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(textA.types.has('nodejs_eventloop_lag_seconds')).toBe(true);
    expect(textB.types.has('process_cpu_user_seconds_total')).toBe(false);
  });
});

describe('snapshots of several processes', () => {
  it('merge into one text: counters and histograms summed, gauges kept apart by process', async () => {
    const shard = make({ process: 'shard-0', defaultMetrics: true });
    const worker = make({ process: 'worker' });
    shard.metrics.command('player', 'command', 'ok', 0.2);
    shard.metrics.command('player', 'command', 'ok', 0.2);
    worker.metrics.command('player', 'command', 'ok', 4);
    shard.metrics.upstream('player', 200);
    worker.metrics.upstream('player', 200);
    worker.metrics.upstream('events', 429);
    worker.metrics.delivery('sent');
    worker.metrics.setOutboxDepth(() => 9);
    shard.metrics.shardStatus(0, 'ready');
    shard.metrics.budgetSeen('general', { limit: 60, remaining: 20, resetAt: shard.clock.now() + 60_000 });
    worker.metrics.budgetSeen('general', { limit: 60, remaining: 18, resetAt: worker.clock.now() + 60_000 });

    // Through JSON, as over IPC, and checked on arrival.
    const wire = [await shard.metrics.snapshot(), await worker.metrics.snapshot()].map((s) =>
      parseSnapshot(JSON.parse(JSON.stringify(s))),
    );
    expect(wire.every((s) => s !== undefined)).toBe(true);
    const merged = parsePrometheus(await mergeSnapshots(wire.map((s) => s!)));

    const ok = { command: 'player', kind: 'command', outcome: 'ok' };
    expect(valueOf(merged, 'killfeed_commands_total', ok)).toBe(3);
    expect(valueOf(merged, 'killfeed_command_duration_seconds_count', ok)).toBe(3);
    expect(valueOf(merged, 'killfeed_command_duration_seconds_sum', ok)).toBeCloseTo(4.4);
    expect(valueOf(merged, 'killfeed_command_duration_seconds_bucket', { ...ok, le: '0.25' })).toBe(2);
    expect(valueOf(merged, 'killfeed_command_duration_seconds_bucket', { ...ok, le: '5' })).toBe(3);
    expect(valueOf(merged, 'killfeed_upstream_requests_total', { route: 'player', status: '200' })).toBe(2);
    expect(valueOf(merged, 'killfeed_upstream_rate_limited_total', { route: 'events' })).toBe(1);
    expect(valueOf(merged, 'killfeed_deliveries_total', { outcome: 'sent' })).toBe(1);
    // Counters carry no process label; every gauge does.
    expect(
      merged.samples
        .filter((s) => s.name === 'killfeed_commands_total')
        .every((s) => !('process' in s.labels)),
    ).toBe(true);
    expect(valueOf(merged, 'killfeed_outbox_depth', { process: 'worker' })).toBe(9);
    expect(valueOf(merged, 'killfeed_shard_status', { shard: '0', state: 'ready', process: 'shard-0' })).toBe(
      1,
    );
    expect(valueOf(merged, 'killfeed_api_budget_remaining', { process: 'shard-0' })).toBe(20);
    expect(valueOf(merged, 'killfeed_api_budget_remaining', { process: 'worker' })).toBe(18);
    expect(valueOf(merged, 'process_resident_memory_bytes', { process: 'shard-0' })).toBeGreaterThan(0);
  });

  it('refuses what is not a snapshot', () => {
    expect(parseSnapshot({ metrics: [] })).toBeUndefined();
    expect(
      parseSnapshot([{ name: 'x', help: 'x', type: 'gauge', aggregator: 'explode', values: [] }]),
    ).toBeUndefined();
    expect(
      parseSnapshot([{ name: 'x', help: 'x', type: 'gauge', aggregator: 'sum', values: [{ value: 'NaN' }] }]),
    ).toBe(undefined);
    expect(parseSnapshot([])).toEqual([]);
  });
});
