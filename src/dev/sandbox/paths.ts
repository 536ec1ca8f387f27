/**
 * How a fault or a request-log query selects paths (the raw path as sent, percent-encoded, without the
 * query): a RegExp is tested against it; a string matches the same path exactly, or every path that starts
 * with it when the string ends with `/`.
 */
export type PathMatch = string | RegExp;

export function matchesPath(match: PathMatch, path: string): boolean {
  if (typeof match !== 'string') {
    match.lastIndex = 0;
    return match.test(path);
  }
  return match.endsWith('/') ? path.startsWith(match) : path === match;
}
