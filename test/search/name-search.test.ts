import { describe, expect, it } from 'vitest';
import { NameSearch, type NameSearchOptions, type SearchKind } from '../../src/search/index.ts';
import { NameIndex } from '../../src/names/index.ts';
import { checkAutocompleteChoices } from '../../src/render/text.ts';
import { ManualClock } from '../support/clock.ts';

/** An upstream whose answers the test releases by hand, recording every query asked. */
function upstream() {
  const asked: Array<{ kind: SearchKind; query: string }> = [];
  const pending: Array<{ query: string; resolve: (names: string[]) => void; reject: (e: Error) => void }> =
    [];
  return {
    asked,
    lookup: (kind: SearchKind, query: string) => {
      asked.push({ kind, query });
      return new Promise<readonly string[]>((resolve, reject) => pending.push({ query, resolve, reject }));
    },
    answer(query: string, names: string[]) {
      const index = pending.findIndex((p) => p.query === query);
      if (index < 0) throw new Error(`no pending ask for ${query}`);
      pending.splice(index, 1)[0]?.resolve(names);
    },
    fail(query: string) {
      const index = pending.findIndex((p) => p.query === query);
      pending.splice(index, 1)[0]?.reject(new Error('upstream down'));
    },
  };
}

function setup(options: Partial<NameSearchOptions> = {}) {
  const clock = new ManualClock();
  const names = new NameIndex();
  names.remember('player', 'Sniper', 'Camper');
  const up = upstream();
  const search = new NameSearch({ clock, names, lookup: up.lookup, ...options });
  return { clock, names, up, search };
}

/** Settles `promise`, noting when (clock time) it did. */
function track<T>(clock: ManualClock, promise: Promise<T>) {
  const state: { value?: T; at?: number } = {};
  void promise.then((value) => {
    state.value = value;
    state.at = clock.now();
  });
  return state;
}

const values = (choices: ReadonlyArray<{ value: string }> | undefined) => choices?.map((c) => c.value);

describe('NameSearch autocomplete', () => {
  it('asks upstream only once the query has been stable for the debounce, and answers with its names', async () => {
    const { clock, up, search } = setup();
    const start = clock.now();
    const answer = track(clock, search.suggest('player', 'snip', 'u1'));
    await clock.advance(299);
    expect(up.asked).toEqual([]);
    await clock.advance(1);
    expect(up.asked).toEqual([{ kind: 'player', query: 'snip' }]);
    up.answer('snip', ['Sniper', 'SnipeKing']);
    await clock.advance(0);
    expect(answer.at).toBe(start + 300);
    expect(values(answer.value)).toEqual(['Sniper', 'SnipeKing']);
  });

  it('cancels the wait of a keystroke replaced by a newer one: one request for the last query', async () => {
    const { clock, up, search } = setup();
    const first = track(clock, search.suggest('player', 'sn', 'u1'));
    await clock.advance(100);
    const second = track(clock, search.suggest('player', 'sni', 'u1'));
    await clock.advance(0);
    // The older keystroke answers at once with the names seen.
    expect(values(first.value)).toEqual(['Sniper']);
    await clock.advance(100);
    const third = track(clock, search.suggest('player', 'snip', 'u1'));
    await clock.advance(300);
    expect(values(second.value)).toEqual(['Sniper']);
    expect(up.asked.map((a) => a.query)).toEqual(['snip']);
    up.answer('snip', ['SnipeKing']);
    await clock.advance(0);
    expect(values(third.value)).toEqual(['Sniper', 'SnipeKing']);
    expect(search.stats.superseded).toBe(2);
  });

  it('keeps users apart: one user typing does not cancel another', async () => {
    const { clock, up, search } = setup();
    track(clock, search.suggest('player', 'snip', 'u1'));
    await clock.advance(100);
    track(clock, search.suggest('player', 'camp', 'u2'));
    await clock.advance(300);
    expect(up.asked.map((a) => a.query).sort()).toEqual(['camp', 'snip']);
  });

  it('answers within the bound with the names seen when upstream is slow; the late answer fills the cache', async () => {
    const { clock, up, search } = setup({ answerWithinMs: 800 });
    const start = clock.now();
    const slow = track(clock, search.suggest('player', 'snip', 'u1'));
    await clock.advance(799);
    expect(slow.value).toBeUndefined();
    await clock.advance(1);
    expect(slow.at).toBe(start + 800);
    expect(values(slow.value)).toEqual(['Sniper']);
    expect(search.stats.answeredFromKnown).toBe(1);
    up.answer('snip', ['Sniper', 'SnipeKing']);
    await clock.advance(0);
    // The next keystroke is answered from the cache at once, without a request.
    const next = track(clock, search.suggest('player', 'snipe', 'u1'));
    await clock.advance(0);
    expect(next.at).toBe(clock.now());
    expect(values(next.value)).toEqual(['Sniper', 'SnipeKing']);
    expect(up.asked).toHaveLength(1);
  });

  it('answers a prefix of a complete cached answer from the cache, but asks again after it expires', async () => {
    const { clock, up, search } = setup({ cacheTtlMs: 5 * 60_000 });
    track(clock, search.suggest('player', 'sn', 'u1'));
    await clock.advance(300);
    up.answer('sn', ['SnipeKing', 'Snowy']);
    await clock.advance(1_000);
    const hit = track(clock, search.suggest('player', 'snow', 'u1'));
    await clock.advance(0);
    expect(values(hit.value)).toEqual(['Snowy']);
    expect(up.asked).toHaveLength(1);
    expect(search.stats.cacheHits).toBe(1);
    await clock.advance(5 * 60_000);
    track(clock, search.suggest('player', 'snow', 'u1'));
    await clock.advance(300);
    expect(up.asked.map((a) => a.query)).toEqual(['sn', 'snow']);
  });

  it('asks again for a longer query when the shorter answer was a full page (it may be cut)', async () => {
    const { clock, up, search } = setup({ pageSize: 2 });
    track(clock, search.suggest('player', 'sn', 'u1'));
    await clock.advance(300);
    up.answer('sn', ['Sna', 'Snb']);
    await clock.advance(10);
    track(clock, search.suggest('player', 'sno', 'u1'));
    await clock.advance(300);
    expect(up.asked.map((a) => a.query)).toEqual(['sn', 'sno']);
  });

  it('never treats an exact clan lookup as covering longer names', async () => {
    const { clock, up, search } = setup();
    track(clock, search.suggest('clan', 'ab', 'u1'));
    await clock.advance(300);
    up.answer('ab', []);
    await clock.advance(10);
    track(clock, search.suggest('clan', 'abc', 'u1'));
    await clock.advance(300);
    expect(up.asked).toEqual([
      { kind: 'clan', query: 'ab' },
      { kind: 'clan', query: 'abc' },
    ]);
  });

  it('stays within the budget: over it, answers at once from the names seen without a request', async () => {
    const { clock, up, search } = setup({ budget: { limit: 2, windowMs: 60_000 }, maxInFlight: 5 });
    for (const [i, q] of ['aa', 'bb', 'cc'].entries()) {
      track(clock, search.suggest('player', q, `u${i}`));
      await clock.advance(300);
    }
    expect(up.asked.map((a) => a.query)).toEqual(['aa', 'bb']);
    expect(search.stats.overBudget).toBe(1);
    await clock.advance(60_000);
    track(clock, search.suggest('player', 'dd', 'u9'));
    await clock.advance(300);
    expect(up.asked.map((a) => a.query)).toEqual(['aa', 'bb', 'dd']);
  });

  it('keeps room for others: one user’s burst of 35 takes only that user’s share (10 a minute)', async () => {
    const { clock, up, search } = setup({ maxInFlight: 50 });
    for (let i = 0; i < 35; i += 1) {
      track(clock, search.suggest('player', `zz${String(i).padStart(2, '0')}`, 'u1'));
      await clock.advance(300);
    }
    expect(up.asked).toHaveLength(10);
    expect(search.stats.overShare).toBe(25);
    // Refused for the share, u1 is answered at once from the names seen, as over the budget.
    const refused = track(clock, search.suggest('player', 'snip', 'u1'));
    await clock.advance(300);
    expect(refused.at).toBe(clock.now());
    expect(values(refused.value)).toEqual(['Sniper']);
    expect(up.asked).toHaveLength(10);

    // Another user still gets the game's answer.
    const other = track(clock, search.suggest('player', 'snow', 'u2'));
    await clock.advance(300);
    expect(up.asked.at(-1)).toEqual({ kind: 'player', query: 'snow' });
    up.answer('snow', ['Snowman']);
    await clock.advance(0);
    expect(values(other.value)).toEqual(['Snowman']);

    // A minute on, u1 has a share again.
    await clock.advance(60_000);
    track(clock, search.suggest('player', 'camp', 'u1'));
    await clock.advance(300);
    expect(up.asked.at(-1)).toEqual({ kind: 'player', query: 'camp' });
  });

  it('bounds one server’s users together (20 a minute), leaving the rest of the budget to other servers', async () => {
    const { clock, up, search } = setup({ maxInFlight: 50 });
    for (const user of ['a', 'b', 'c'])
      for (let i = 0; i < 10; i += 1) {
        track(clock, search.suggest('player', `${user}q${i}`, { user, guild: 'g1' }));
        await clock.advance(300);
      }
    expect(up.asked).toHaveLength(20);
    track(clock, search.suggest('player', 'dq0', { user: 'd', guild: 'g2' }));
    await clock.advance(300);
    expect(up.asked).toHaveLength(21);
    expect(up.asked.at(-1)?.query).toBe('dq0');
  });

  it('sends at most maxInFlight at once and shares one request between users asking the same', async () => {
    const { clock, up, search } = setup({ maxInFlight: 1 });
    const a = track(clock, search.suggest('player', 'snip', 'u1'));
    const b = track(clock, search.suggest('player', 'snip', 'u2'));
    const c = track(clock, search.suggest('player', 'camp', 'u3'));
    await clock.advance(300);
    expect(up.asked.map((x) => x.query)).toEqual(['snip']);
    expect(values(c.value)).toEqual(['Camper']);
    up.answer('snip', ['SnipeKing']);
    await clock.advance(0);
    expect(values(a.value)).toEqual(['Sniper', 'SnipeKing']);
    expect(values(b.value)).toEqual(['Sniper', 'SnipeKing']);
  });

  it('does not cache a failure, and does not ask for a query shorter than two characters', async () => {
    const { clock, up, search } = setup();
    const one = track(clock, search.suggest('player', 's', 'u1'));
    await clock.advance(0);
    expect(values(one.value)).toEqual(['Sniper']);
    track(clock, search.suggest('player', 'snip', 'u1'));
    await clock.advance(300);
    up.fail('snip');
    await clock.advance(10);
    track(clock, search.suggest('player', 'snip', 'u1'));
    await clock.advance(300);
    expect(up.asked.map((a) => a.query)).toEqual(['snip', 'snip']);
  });

  it('keeps the cache bounded, dropping the least recently used', async () => {
    const { clock, up, search } = setup({ cacheSize: 2, budget: { limit: 100, windowMs: 60_000 } });
    for (const q of ['aa', 'bb', 'cc']) {
      track(clock, search.suggest('player', q, 'u1'));
      await clock.advance(300);
      up.answer(q, []);
      await clock.advance(0);
    }
    expect(search.cacheSize).toBe(2);
    track(clock, search.suggest('player', 'aa', 'u1'));
    await clock.advance(300);
    expect(up.asked.map((a) => a.query)).toEqual(['aa', 'bb', 'cc', 'aa']);
  });
});

describe('NameSearch choices', () => {
  it('are valid Discord choices whatever the names hold', async () => {
    const { clock, names, search } = setup();
    names.remember('player', 'x'.repeat(100), '@everyone', '<@1234>', '  ', 'a`b', '\uD800x', 'x\ny');
    const answer = track(clock, search.suggest('player', '', 'u1'));
    await clock.advance(0);
    expect(answer.value?.length).toBeGreaterThan(0);
    expect(checkAutocompleteChoices(answer.value ?? [])).toEqual([]);
    const typed = track(clock, search.suggest('player', 'x'.repeat(5_000), 'u1'));
    await clock.advance(800);
    expect(checkAutocompleteChoices(typed.value ?? [])).toEqual([]);
  });
});

describe('NameSearch did you mean', () => {
  it('uses the clans that the exact lookups of autocomplete found', async () => {
    const { clock, up, search } = setup();
    track(clock, search.suggest('clan', 'Vortex', 'u1'));
    await clock.advance(300);
    up.answer('Vortex', ['Vortex']);
    await clock.advance(0);
    const found = track(clock, search.didYouMean('clan', 'Vortx'));
    await clock.advance(0);
    expect(found.value).toEqual(['Vortex']);
  });

  it('offers up to three close names from the names seen and the search endpoint, never the name itself', async () => {
    const { clock, up, names, search } = setup();
    names.remember('player', 'NoSuchPlayer', 'NoSuchPlayr');
    const found = track(clock, search.didYouMean('player', 'NoSuchPlayr'));
    await clock.advance(0);
    expect(up.asked.map((a) => a.query)).toEqual(['NoSuchPlayr', 'NoS']);
    up.answer('NoSuchPlayr', []);
    up.answer('NoS', ['NoSuchPlayers', 'NoSuchPlay', 'Nosferatu', 'NoSuchPlayer']);
    await clock.advance(0);
    // One edit away each (ties by name); 'Nosferatu' is too far.
    expect(found.value).toEqual(['NoSuchPlay', 'NoSuchPlayer', 'NoSuchPlayers']);
  });

  it('answers from the names seen when the search does not answer in time', async () => {
    const { clock, names, search } = setup();
    names.remember('player', 'Snipe');
    const found = track(clock, search.didYouMean('player', 'Snpier', 3, 1_500));
    await clock.advance(1_499);
    expect(found.value).toBeUndefined();
    await clock.advance(1);
    expect(found.value).toEqual(['Sniper', 'Snipe']);
  });

  it('asks nothing upstream for clans (only an exact lookup exists) and ranks the clans seen', async () => {
    const { clock, up, names, search } = setup();
    names.remember('clan', 'Vortex', 'Vertex', 'Apex', 'Vortexx');
    const found = track(clock, search.didYouMean('clan', 'Vortx'));
    await clock.advance(0);
    expect(up.asked).toEqual([]);
    // "Vertex" is two edits from "Vortx": more than a five-letter name may be off by.
    expect(found.value).toEqual(['Vortex', 'Vortexx']);
  });

  it('offers a clan differing only in case (clan names are exact), but never the very name asked', async () => {
    const { clock, names, search } = setup();
    names.remember('clan', 'Vortex');
    const found = track(clock, search.didYouMean('clan', 'vortex'));
    const same = track(clock, search.didYouMean('clan', 'Vortex'));
    await clock.advance(0);
    expect(found.value).toEqual(['Vortex']);
    expect(same.value).toEqual([]);
  });
});
