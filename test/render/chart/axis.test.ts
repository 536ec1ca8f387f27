import { describe, expect, it } from 'vitest';
import {
  dayFormatter,
  linear,
  niceStep,
  niceTicks,
  tickFormatter,
  valueFormatter,
  zeroBasedTicks,
} from '../../../src/render/chart/axis.ts';

describe('niceStep', () => {
  it.each([
    [0.7, 1],
    [1, 1],
    [1.2, 2],
    [2.2, 2.5],
    [3, 5],
    [7, 10],
    [42, 50],
    [0.03, 0.05],
    [0, 1],
    [Number.NaN, 1],
  ])('rounds %d up to %d', (raw, step) => {
    expect(niceStep(raw)).toBeCloseTo(step, 10);
  });
});

describe('niceTicks', () => {
  it('covers the range with round steps', () => {
    const ticks = niceTicks(1105, 1619.5, 5);
    expect(ticks.values).toEqual([1100, 1200, 1300, 1400, 1500, 1600, 1700]);
    expect(ticks.min).toBeLessThanOrEqual(1105);
    expect(ticks.max).toBeGreaterThanOrEqual(1619.5);
  });

  it('does not accumulate floating-point noise', () => {
    expect(niceTicks(0.1, 0.7, 6).values).toEqual([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]);
  });

  it('widens a single value into a range, never below zero for non-negative data', () => {
    const ticks = niceTicks(500, 500);
    expect(ticks.min).toBeLessThan(500);
    expect(ticks.max).toBeGreaterThan(500);
    expect(niceTicks(0, 0).min).toBe(0);
    expect(niceTicks(0.01, 0.01).min).toBeGreaterThanOrEqual(0);
  });
});

describe('zeroBasedTicks', () => {
  it('starts at zero with exactly the intervals asked, in whole steps for counts', () => {
    const ticks = zeroBasedTicks(23, 6, true);
    expect(ticks.values).toHaveLength(7);
    expect(ticks.values[0]).toBe(0);
    expect(ticks.max).toBeGreaterThanOrEqual(23);
    expect(ticks.values.every(Number.isInteger)).toBe(true);
    expect(zeroBasedTicks(1, 5, true).values).toEqual([0, 1, 2, 3, 4, 5]);
    expect(zeroBasedTicks(14, 5, true).values).toEqual([0, 5, 10, 15, 20, 25]);
  });
});

describe('linear', () => {
  it('maps a domain onto a range, also reversed', () => {
    const y = linear(0, 100, 400, 100);
    expect(y(0)).toBe(400);
    expect(y(100)).toBe(100);
    expect(y(25)).toBe(325);
    expect(linear(5, 5, 10, 20)(5)).toBe(10);
  });
});

describe('formatters', () => {
  it('formats ticks in the locale, compact from ten thousand', () => {
    expect(tickFormatter('en-US', niceTicks(0, 2000))(1500)).toBe('1,500');
    expect(tickFormatter('de-DE', niceTicks(0, 2000))(1500)).toBe('1.500');
    expect(tickFormatter('en-US', niceTicks(0, 120_000))(50_000)).toBe('50K');
    expect(tickFormatter('en-US', niceTicks(0, 1, 4))(0.25)).toBe('0.25');
    expect(tickFormatter('en-US', niceTicks(0, 1, 5))(0.4)).toBe('0.4');
  });

  it('formats values and days', () => {
    expect(valueFormatter('en-US')(1234.567)).toBe('1,234.57');
    expect(valueFormatter('fr-FR', 0)(1234.5)).toBe('1\u202F235');
    expect(dayFormatter('en-US')(Date.UTC(2024, 2, 5))).toBe('Mar 5');
    expect(dayFormatter('ja')(Date.UTC(2024, 2, 5))).toBe('3月5日');
  });

  it('falls back to English for a malformed locale', () => {
    expect(dayFormatter('?? bad ??')(Date.UTC(2024, 2, 5))).toBe('Mar 5');
    expect(valueFormatter('')(1000)).toBe('1,000');
  });
});
