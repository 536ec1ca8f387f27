/** RFC 3339, or the `YYYY-MM-DD HH:MM:SS` (UTC) that map and mod records use; NaN when neither. */
export function parseTime(value: string): number {
  const sqlLike = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(value);
  return Date.parse(sqlLike ? `${sqlLike[1]}T${sqlLike[2]}Z` : value);
}
