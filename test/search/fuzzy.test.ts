import { describe, expect, it } from 'vitest';
import { allowedEdits, boundedEdits, matchScore, MAX_COMPARED, rankNames } from '../../src/search/fuzzy.ts';

describe('boundedEdits', () => {
  it('counts substitutions, insertions, deletions and adjacent swaps as one edit each', () => {
    expect(boundedEdits('nosuchplayr', 'nosuchplayer', 3)).toBe(1);
    expect(boundedEdits('snpier', 'sniper', 2)).toBe(1);
    expect(boundedEdits('sniper', 'snyper', 2)).toBe(1);
    expect(boundedEdits('sniiper', 'sniper', 2)).toBe(1);
    expect(boundedEdits('abc', 'abc', 1)).toBe(0);
  });

  it('matches the start of a longer name (the user is still typing)', () => {
    expect(boundedEdits('snipr', 'sniper_king', 1)).toBe(1);
  });

  it('gives up beyond the cut-off', () => {
    expect(boundedEdits('abcdef', 'uvwxyz', 2)).toBeUndefined();
    expect(boundedEdits('sniper', 'camper', 1)).toBeUndefined();
  });

  it('stays bounded for very long inputs', () => {
    // Only the first MAX_COMPARED characters are compared: a difference past them is not seen.
    const long = 'a'.repeat(100_000);
    expect(boundedEdits(long, long + 'b', 3)).toBe(0);
    expect(boundedEdits('a'.repeat(MAX_COMPARED) + 'xyz', 'a'.repeat(MAX_COMPARED), 0)).toBe(0);
    expect(boundedEdits('a'.repeat(MAX_COMPARED - 1) + 'x', 'a'.repeat(MAX_COMPARED), 0)).toBeUndefined();
  });
});

describe('rankNames', () => {
  const names = ['Sniper', 'sniper_two', 'TheSniper', 'Snyper', 'Camper', 'SNIPER'];

  it('puts exact, then prefix, then substring, then typo matches, each name once', () => {
    const ranked = rankNames('sniper', names, 10).map((r) => r.name);
    expect(ranked).toEqual(['Sniper', 'sniper_two', 'TheSniper', 'Snyper']);
  });

  it('forgives a typo only when the query is long enough', () => {
    expect(allowedEdits(2)).toBe(0);
    expect(rankNames('sy', names, 10)).toEqual([]);
    expect(rankNames('snyp', ['Sniper'], 10).map((r) => r.name)).toEqual(['Sniper']);
    expect(matchScore('camper', 'sniper')).toBeUndefined();
  });

  it('lists names alphabetically for an empty query, up to the limit, the first spelling seen kept', () => {
    expect(rankNames('', names, 2).map((r) => r.name)).toEqual(['Camper', 'Sniper']);
  });

  it('treats what is typed as data, never as a pattern', () => {
    expect(rankNames('.*', ['anything', 'a.*b'], 5).map((r) => r.name)).toEqual(['a.*b']);
    expect(rankNames('(', ['x(y'], 5).map((r) => r.name)).toEqual(['x(y']);
  });
});
