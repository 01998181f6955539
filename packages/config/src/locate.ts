// smol-toml returns plain values without source positions, so errors find their line by
// scanning the text: a small line scanner tracks the current [table] / [[array]] header
// and records, for every header and every `key =` line, the dotted key path it defines
// (first occurrence wins, and every prefix of a path is recorded too). Multi-line strings
// are skipped so their contents are not mistaken for keys. An error about a value inside
// an inline table or array falls back to the line of its nearest recorded ancestor.

export type LineIndex = ReadonlyMap<string, number>;

const BARE_KEY = /^[A-Za-z0-9_-]+/;

function pathKey(path: readonly string[]): string {
  return JSON.stringify(path);
}

/** Parse a dotted TOML key starting at `pos`; undefined when the text is not a key. */
function readKeyPath(text: string, start: number): { keys: string[]; end: number } | undefined {
  const keys: string[] = [];
  let pos = start;
  for (;;) {
    while (text[pos] === ' ' || text[pos] === '\t') pos++;
    const ch = text[pos];
    if (ch === '"') {
      const close = findBasicStringEnd(text, pos + 1);
      if (close < 0) return undefined;
      try {
        keys.push(JSON.parse(text.slice(pos, close + 1)) as string);
      } catch {
        keys.push(text.slice(pos + 1, close));
      }
      pos = close + 1;
    } else if (ch === "'") {
      const close = text.indexOf("'", pos + 1);
      if (close < 0) return undefined;
      keys.push(text.slice(pos + 1, close));
      pos = close + 1;
    } else {
      const bare = BARE_KEY.exec(text.slice(pos));
      if (!bare) return undefined;
      keys.push(bare[0]);
      pos += bare[0].length;
    }
    while (text[pos] === ' ' || text[pos] === '\t') pos++;
    if (text[pos] !== '.') return { keys, end: pos };
    pos++;
  }
}

function findBasicStringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** Build the key-path → 1-based line index of a TOML document. */
export function indexLines(text: string): LineIndex {
  const index = new Map<string, number>();
  const record = (path: readonly string[], line: number): void => {
    for (let k = 1; k <= path.length; k++) {
      const key = pathKey(path.slice(0, k));
      if (!index.has(key)) index.set(key, line);
    }
  };
  const lines = text.split(/\r?\n/);
  let table: string[] = [];
  let openMultiline: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const lineNo = i + 1;
    if (openMultiline !== undefined) {
      if (line.includes(openMultiline)) openMultiline = undefined;
      continue;
    }
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (trimmed.startsWith('[')) {
      const isArray = trimmed.startsWith('[[');
      const header = readKeyPath(trimmed, isArray ? 2 : 1);
      if (header) {
        table = header.keys;
        record(table, lineNo);
      }
      continue;
    }
    const key = readKeyPath(trimmed, 0);
    if (!key || trimmed[key.end] !== '=') continue;
    record([...table, ...key.keys], lineNo);
    const value = trimmed.slice(key.end + 1).trimStart();
    for (const delimiter of ['"""', "'''"]) {
      if (value.startsWith(delimiter) && !value.slice(3).includes(delimiter)) openMultiline = delimiter;
    }
  }
  return index;
}

/** The line defining `path`, or of its nearest recorded ancestor. */
export function lineOf(index: LineIndex, path: readonly string[]): number | undefined {
  for (let k = path.length; k >= 1; k--) {
    const line = index.get(pathKey(path.slice(0, k)));
    if (line !== undefined) return line;
  }
  return undefined;
}

/** A dotted field name as it would be written in TOML (`members."my dir".path`). */
export function formatField(path: readonly string[]): string {
  return path.map((key) => (/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key))).join('.');
}
