/**
 * The most of a developer key a reply may show: `kr_` and four characters when the key is long enough
 * that they give nothing away (as the configuration summary does), else `kr_` alone.
 */
export function keyPrefix(key: string): string {
  const kept = key.length >= 16 ? key.slice(0, 7) : key.slice(0, Math.min(3, key.length));
  return `${kept}…`;
}
