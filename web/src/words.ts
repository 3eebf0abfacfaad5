// Every word the page shows comes from the state's `words`, composed by the server in the
// reader's language; this only fills in the placeholders.

export type Words = Record<string, string>;

/** The sentence `key` with each `{name}` replaced; a missing key shows as itself, to be seen. */
export function say(words: Words, key: string, values: Record<string, string | number> = {}): string {
  const template = words[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
