import { describe, expect, it } from 'vitest';
import { get, useClockedSandboxes } from '../../support/sandbox.ts';

/** KPD calls while the sandbox runs: `sandbox.kpd`. */
const start = useClockedSandboxes();

describe('sandbox KPD calls', () => {
  it('a report is the newest open call; a review changes its status and verdict', async () => {
    const { sandbox, clock } = await start();
    const { samples } = sandbox.world;
    const latest = async () => {
      const reply = await get(`${sandbox.urls.base}/api/kpd/latest-calls`, {
        'X-Developer-API-Key': sandbox.keys.kpd,
      });
      return reply.body.data as Array<{ id: number; status: number; rating: number; called_name: string }>;
    };
    const id = sandbox.kpd.report(samples.player, samples.hackerPlayer);
    let calls = await latest();
    expect(calls).toHaveLength(50);
    expect(calls[0]).toMatchObject({ id, status: 1, rating: 0, called_name: samples.hackerPlayer });
    clock.ms += 60_000;
    sandbox.kpd.review(id, samples.kpdPlayer, 1);
    calls = await latest();
    expect(calls[0]).toMatchObject({ id, status: 3, rating: 1, officer_name: samples.kpdPlayer });
  });

  it('refuses unknown names, a self-report, an unknown call and an officer without the role', async () => {
    const { sandbox } = await start();
    const { samples } = sandbox.world;
    expect(() => sandbox.kpd.report(samples.player, 'nobody-by-this-name')).toThrow();
    expect(() => sandbox.kpd.report(samples.player, samples.player)).toThrow();
    expect(() => sandbox.kpd.review(1, samples.kpdPlayer, 1)).toThrow();
    const id = sandbox.kpd.report(samples.player, samples.hackerPlayer);
    expect(() => sandbox.kpd.review(id, samples.player, 2)).toThrow();
  });
});
