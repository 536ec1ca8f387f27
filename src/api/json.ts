import { parse as parseLossless } from 'lossless-json';

/**
 * Reads a JSON reply so that integers beyond 2^53 (match ids, market ids) survive as digit strings.
 *
 * `JSON.parse` would round them silently. lossless-json keeps every number's text, but is several times
 * slower, so it only runs when the text holds a run of 16 or more digits (the shortest unsafe integer
 * has 16); every other reply takes the native parser.
 */
const LONG_DIGIT_RUN = /\d{16}/;

export function parseJson(text: string): unknown {
  if (!LONG_DIGIT_RUN.test(text)) return JSON.parse(text) as unknown;
  return parseLossless(text, null, parseNumber);
}

function parseNumber(text: string): number | string {
  const value = Number(text);
  return /^-?\d+$/.test(text) && !Number.isSafeInteger(value) ? text : value;
}
