/**
 * Reads a JSON reply so that integers beyond 2^53 (match ids, market ids) survive as digit strings.
 *
 * `JSON.parse` would round them silently, so one linear pass over the text first finds every integer
 * literal outside strings that is not a safe integer, and the native parser then reads the text with
 * those literals quoted. The same pass refuses text nested deeper than `maxDepth` before any parser
 * sees it: the schemas and the stores' serialisers all recurse, and a reply nested 100,000 deep
 * overflows the stack.
 */

/** Far above any reply of the spec (about 8 levels), far below what overflows the stack. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

export class JsonTooDeepError extends Error {
  constructor(readonly maxDepth: number) {
    super(`JSON nested deeper than ${maxDepth} levels`);
    this.name = 'JsonTooDeepError';
  }
}

export function parseJson(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): unknown {
  return JSON.parse(prepareJson(text, maxDepth)) as unknown;
}

/**
 * The first half of {@link parseJson}, for callers that parse a large text in two steps: the text with
 * every unsafe integer quoted, ready for `JSON.parse`; throws {@link JsonTooDeepError}.
 */
export function prepareJson(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): string {
  const unsafe = scan(text, maxDepth);
  if (unsafe.length === 0) return text;
  const parts: string[] = [];
  let from = 0;
  for (const [start, end] of unsafe) {
    parts.push(text.slice(from, start), '"', text.slice(start, end), '"');
    from = end;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
/** The shortest integer that may be unsafe: 2^53 has 16 digits. */
const UNSAFE_DIGITS = 16;

/**
 * One pass outside strings: throws when nesting passes `maxDepth`, and returns the [start, end) offsets
 * of the integer literals that are not safe integers. Malformed text is left for the parser to refuse.
 */
function scan(text: string, maxDepth: number): Array<[start: number, end: number]> {
  const unsafe: Array<[start: number, end: number]> = [];
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = closingQuote(text, i);
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      depth += 1;
      if (depth > maxDepth) throw new JsonTooDeepError(maxDepth);
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth -= 1;
    } else if (code === MINUS || (code >= ZERO && code <= NINE)) {
      const start = i;
      let end = code === MINUS ? i + 1 : i;
      while (end < text.length && isDigit(text.charCodeAt(end))) end += 1;
      const digits = end - start - (code === MINUS ? 1 : 0);
      const next = end < text.length ? text.charCodeAt(end) : -1;
      // A fraction or an exponent makes it a float, which JSON.parse reads as any other number.
      const isInteger = next !== 0x2e && next !== 0x65 && next !== 0x45;
      if (isInteger && digits >= UNSAFE_DIGITS && !Number.isSafeInteger(Number(text.slice(start, end)))) {
        unsafe.push([start, end]);
      }
      // The rest of a float (`.5e-7`) is skipped whole, so its digits are never read as an integer.
      while (!isInteger && end < text.length && isNumberPart(text.charCodeAt(end))) end += 1;
      i = end - 1;
    }
  }
  return unsafe;
}

/** Where the string opened at `open` closes (the text's end when it never does). */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  while (at > 0) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return text.length;
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

/** Digits, `.`, `e`, `E`, `+` and `-`: what may follow the integer part of a number. */
function isNumberPart(code: number): boolean {
  return isDigit(code) || code === 0x2e || code === 0x65 || code === 0x45 || code === 0x2b || code === MINUS;
}
