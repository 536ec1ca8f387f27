/**
 * A strict reader of the Prometheus text format (0.0.4) for tests: every line must be a `# HELP`, a
 * `# TYPE`, blank, or a sample `name{label="value",...} number`; anything else throws, so a test that
 * reads `/metrics` through it also proves the text is parseable.
 */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Exposition {
  readonly samples: readonly Sample[];
  /** Metric name → its `# TYPE`. */
  readonly types: ReadonlyMap<string, string>;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const VALUE = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]Inf|NaN|Nan)$/;

export function parsePrometheus(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  text.split('\n').forEach((line, index) => {
    const fail = (why: string): never => {
      throw new Error(`line ${index + 1}: ${why}: ${JSON.stringify(line)}`);
    };
    if (line === '') return;
    if (line.startsWith('# HELP ')) {
      if (!NAME.test(line.slice(7))) fail('bad HELP');
      return;
    }
    if (line.startsWith('# TYPE ')) {
      const [name = '', type = ''] = line.slice(7).split(' ');
      if (!NAME.test(name) || !['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(type)) {
        fail('bad TYPE');
      }
      types.set(name, type);
      return;
    }
    if (line.startsWith('#')) fail('unknown comment');
    const name = NAME.exec(line)?.[0] ?? fail('no metric name');
    let rest = line.slice(name.length);
    const labels: Record<string, string> = {};
    if (rest.startsWith('{')) {
      rest = rest.slice(1);
      while (!rest.startsWith('}')) {
        const label = LABEL_NAME.exec(rest)?.[0] ?? fail('bad label name');
        rest = rest.slice(label.length);
        if (!rest.startsWith('="')) fail('label without ="');
        rest = rest.slice(2);
        let value = '';
        for (;;) {
          const char = rest[0] ?? fail('unterminated label value');
          rest = rest.slice(1);
          if (char === '"') break;
          if (char === '\\') {
            const escaped = rest[0] ?? fail('dangling escape');
            rest = rest.slice(1);
            if (escaped === 'n') value += '\n';
            else if (escaped === '\\' || escaped === '"') value += escaped;
            else fail('bad escape');
          } else {
            if (char === '\n') fail('raw newline in a label');
            value += char;
          }
        }
        if (label in labels) fail(`label ${label} twice`);
        labels[label] = value;
        if (rest.startsWith(',')) rest = rest.slice(1);
        else if (!rest.startsWith('}')) fail('expected , or }');
      }
      rest = rest.slice(1);
    }
    if (!rest.startsWith(' ')) fail('no space before the value');
    const value = rest.slice(1).split(' ')[0] ?? '';
    if (!VALUE.test(value)) fail('bad value');
    samples.push({ name, labels, value: Number(value.replace(/^Nan$/, 'NaN')) });
  });
  return { samples, types };
}

/** The value of the one sample with this name whose labels include `labels`; undefined when none. */
export function valueOf(
  exposition: Exposition,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  const found = exposition.samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

/** Every label value of the exposition, for checks that no user text or secret became one. */
export function labelValues(exposition: Exposition): string[] {
  return exposition.samples.flatMap((sample) => Object.values(sample.labels));
}
