/** A locale file's texts by their dotted key path (`matches.result.win`), nested objects flattened. */
export function leaves(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      for (const [path, text] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(path, text);
    }
  }
  return out;
}

/** i18next's plural suffixes (v4 JSON): `key_one`, `key_other`, and the forms some languages add. */
export const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
