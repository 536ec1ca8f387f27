import { describe, expect, it } from 'vitest';
import { TOKEN_KEEP_MS } from '../../../src/features/tokens/token-memory.ts';
import { useWorldPerTest, type World } from '../../support/announcements.ts';
import { buttonLabelled, modalOf, submitToken, throughModal, USER } from '../../support/tokens.ts';

/** `/me matches` and `/me trades` pages, and which way each trade's KR went, end to end. */
const fixture = useWorldPerTest();

function tokenFor(): string {
  const { sandbox } = fixture.world;
  return sandbox.issueToken({ playerName: sandbox.world.samples.rankedPlayer });
}

function requestsTo(world: World, path: string) {
  return world.sandbox.requests.entries().filter((entry) => entry.path.endsWith(path));
}

interface WireTrade {
  readonly id: number;
  readonly kr: number;
}

/** The trades the sandbox holds for the token's player, read directly. */
async function sandboxTrades(world: World, token: string): Promise<WireTrade[]> {
  const base = world.config.game.baseUrl.replace(/\/+$/, '');
  const reply = await fetch(`${base}/trades/history?offset=0&limit=100&open=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await reply.json()) as { data?: { trades: WireTrade[] }; trades?: WireTrade[] };
  return body.data?.trades ?? body.trades ?? [];
}

describe('/me matches pages', () => {
  it('with a kept token, Next and Previous read the page and update the same reply', async () => {
    await fixture.start({ commands: true });
    const { world } = fixture;
    const first = await throughModal(world, 'matches', tokenFor(), 'yes');
    expect(first.embeds[0]?.footer?.text).toMatch(/^Page 1 · \d+ matches in all$/);
    expect(buttonLabelled(first, '◀ Previous').disabled).toBe(true);
    const label = buttonLabelled(first, 'Page 1 of 3');
    expect(label.disabled).toBe(true);

    const second = await world.discord
      .clickButton(first, buttonLabelled(first, 'Next ▶').custom_id, { user: { id: USER } })
      .final();
    expect(second.id).toBe(first.id);
    expect(second.embeds[0]?.footer?.text).toMatch(/^Page 2 · /);
    expect(buttonLabelled(second, 'Page 2 of 3')).toBeDefined();
    expect(buttonLabelled(second, 'Forget my token')).toBeDefined();
    expect(second.embeds[0]?.description).not.toBe(first.embeds[0]?.description);

    const third = await world.discord
      .clickButton(second, buttonLabelled(second, 'Next ▶').custom_id, { user: { id: USER } })
      .final();
    expect(buttonLabelled(third, 'Next ▶').disabled).toBe(true);
    const back = await world.discord
      .clickButton(third, buttonLabelled(third, '◀ Previous').custom_id, { user: { id: USER } })
      .final();
    expect(back.embeds[0]?.description).toBe(second.embeds[0]?.description);
    expect(requestsTo(world, '/match-history/me').map((entry) => entry.query['offset'])).toEqual([
      '0',
      '10',
      '20',
      '10',
    ]);
  });

  it('without a kept token, a page button asks for the token for that page', async () => {
    await fixture.start({ commands: true });
    const { world } = fixture;
    const first = await throughModal(world, 'matches', tokenFor());
    const click = world.discord.clickButton(first, buttonLabelled(first, 'Next ▶').custom_id, {
      user: { id: USER },
    });
    const { customId } = await modalOf(click);
    expect(customId.startsWith('me:matches:2~')).toBe(true);
    const second = await submitToken(world, click, customId, tokenFor()).final();
    expect(second.embeds[0]?.footer?.text).toMatch(/^Page 2 · /);
    expect(requestsTo(world, '/match-history/me').map((entry) => entry.query['offset'])).toEqual(['0', '10']);
  });

  it('once the kept token is dropped, the page buttons of its replies ask again', async () => {
    await fixture.start({ commands: true });
    const { world } = fixture;
    const first = await throughModal(world, 'matches', tokenFor(), 'yes');
    await world.clock.advance(TOKEN_KEEP_MS);
    const click = world.discord.clickButton(first, buttonLabelled(first, 'Next ▶').custom_id, {
      user: { id: USER },
    });
    expect((await click.response()).type).toBe(9);
  });
});

/** A player of the sandbox with several trades that moved KR (searched among a bounded few). */
async function trader(world: World): Promise<{ token: string; trades: WireTrade[] }> {
  const candidates = world.sandbox.world.players.filter((p) => p.stats.games > 0).slice(0, 60);
  for (const player of candidates) {
    const token = world.sandbox.issueToken({ playerName: player.name });
    const trades = await sandboxTrades(world, token);
    const both = trades.some((trade) => trade.kr > 0) && trades.some((trade) => trade.kr < 0);
    if (trades.length <= 10 && both) return { token, trades };
  }
  throw new Error('no player of the sandbox trades KR both ways');
}

describe('/me trades', () => {
  it('asks for one more than a page, so Next is on only when there is one', async () => {
    await fixture.start({ commands: true });
    const { world } = fixture;
    const reply = await throughModal(world, 'trades', tokenFor());
    expect(requestsTo(world, '/trades/history').map((entry) => entry.query['limit'])).toEqual(['11']);
    expect(buttonLabelled(reply, 'Next ▶').disabled).toBe(true);
    expect(buttonLabelled(reply, 'Page 1')).toBeDefined();
  });

  it('says which way the KR of each trade went: received, given or none', async () => {
    await fixture.start({ commands: true });
    const { world } = fixture;
    const { token, trades } = await trader(world);
    const reply = await throughModal(world, 'trades', token);
    const fields = reply.embeds[0]?.fields ?? [];
    expect(fields).toHaveLength(trades.length);
    trades.forEach((trade, i) => {
      const value = fields[i]?.value ?? '';
      expect(fields[i]?.name).toContain(`#${trade.id}`);
      const amount = Math.abs(trade.kr).toLocaleString('en-US');
      if (trade.kr > 0) expect(value).toContain(`📥 +${amount} KR received`);
      else if (trade.kr < 0) expect(value).toContain(`📤 −${amount} KR given`);
      else expect(value).toContain('No KR');
    });
  });
});

/** The first sandbox player (in world order) whose reply at `path` lists more than a page of rows. */
async function playerWithMoreThanAPage(world: World, path: string, key: string): Promise<string> {
  const base = world.config.game.baseUrl.replace(/\/+$/, '');
  for (const player of world.sandbox.world.players.slice(0, 300)) {
    const token = world.sandbox.issueToken({ playerName: player.name });
    const reply = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await reply.json()) as { data?: Record<string, unknown[]> };
    if ((body.data?.[key]?.length ?? 0) > 25) return token;
  }
  throw new Error(`no sandbox player has more than 25 rows at ${path}`);
}

describe('/me listings and market-history pages', () => {
  it('pages the open listings 25 at a time, with how many in all', async () => {
    await fixture.start({ commands: true });
    const { world } = fixture;
    const token = await playerWithMoreThanAPage(world, '/market/sales', 'listings');
    const first = await throughModal(world, 'listings', token, 'yes');
    const lines = (first.embeds[0]?.description ?? '').split('\n');
    expect(lines).toHaveLength(25);
    const total = Number(/· (\d+) in all$/.exec(first.embeds[0]?.footer?.text ?? '')?.[1]);
    expect(total).toBeGreaterThan(25);
    const pages = Math.ceil(total / 25);
    expect(first.embeds[0]?.footer?.text).toBe(`Page 1 of ${pages} · ${total} in all`);
    expect(buttonLabelled(first, `Page 1 of ${pages}`).disabled).toBe(true);
    const second = await world.discord
      .clickButton(first, buttonLabelled(first, 'Next ▶').custom_id, { user: { id: USER } })
      .final();
    expect(second.embeds[0]?.footer?.text).toBe(`Page 2 of ${pages} · ${total} in all`);
    expect((second.embeds[0]?.description ?? '').split('\n')).toHaveLength(Math.min(25, total - 25));
    expect(second.embeds[0]?.description).not.toBe(first.embeds[0]?.description);
  });

  it('reads the whole market history by its cursor, pages it, and adds up each side', async () => {
    await fixture.start({ commands: true });
    const { world } = fixture;
    const token = await playerWithMoreThanAPage(world, '/market/history?limit=100', 'entries');
    const base = world.config.game.baseUrl.replace(/\/+$/, '');
    const all = (
      (await (
        await fetch(`${base}/market/history?limit=100`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { data: { entries: Array<{ side: string; price: number }> } }
    ).data.entries;
    const before = requestsTo(world, '/market/history').length;
    const first = await throughModal(world, 'market-history', token, 'no');
    expect(
      requestsTo(world, '/market/history')
        .slice(before)
        .map((e) => e.query['limit']),
    ).toEqual(['100']);
    const pages = Math.ceil(all.length / 25);
    expect(first.embeds[0]?.footer?.text).toBe(`Page 1 of ${pages} · ${all.length} in all`);
    const fields = Object.fromEntries((first.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
    const side = (s: string) => all.filter((e) => e.side === s);
    const kr = (s: string) =>
      side(s)
        .reduce((sum, e) => sum + e.price, 0)
        .toLocaleString('en-US');
    expect(fields['Bought']).toBe(
      `${side('buy').length} skin${side('buy').length === 1 ? '' : 's'} · ${kr('buy')} KR`,
    );
    expect(fields['Sold']).toBe(
      `${side('sell').length} skin${side('sell').length === 1 ? '' : 's'} · ${kr('sell')} KR`,
    );
    expect(buttonLabelled(first, 'Next ▶').disabled).toBe(false);
  });
});
