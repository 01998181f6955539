// The default output (docs/spec/retrieval.md §4): lines for search, more and show; --json the whole
// object; hit spans are a small definition or a window, never a storage region; evidence
// lines for re: (every matching line up to 5, a footer for the rest) and -C context.
import { makeRepo, tokens, type Repo } from './cli';

const LONG_FN_LINES = 300;
const LONG_TS = `export function longPipeline(seed: number): number {\n${Array.from(
  { length: LONG_FN_LINES - 2 },
  (_, i) => (i === 150 ? '  const hidden = seed * rareNeedleWord;\n' : `  seed = seed + ${i};\n`),
).join('')}}\n`;

const SHORT_TS = `export const before = 1;\n\nexport function shortHelper(input: number): number {\n${Array.from(
  { length: 28 },
  (_, i) => (i === 14 ? '  const twist = input * shortNeedleWord;\n' : `  input = input - ${i};\n`),
).join('')}}\n\nexport const after = 2;\n`;

const CALLS_TS = `export function dispatcher(): void {\n${Array.from({ length: 8 }, (_, i) => `  callSite(${i});\n`).join('')}}\n\nexport function callSite(n: number): number {\n  return n;\n}\n`;

// Four more files that call it: a search of callSite( matches 6 files, more than a narrowed set (5).
const CALLER_TS = (n: string) => `export function caller_${n}(): number {\n  return callSite(7);\n}\n`;
const OTHER_TS = `export function lonely(): void {\n  // nothing here\n  callSite(99);\n  const x = 1;\n  const y = 2;\n}\n`;

// A comment names the concept; the best line is `export class`, whose definition starts
// after `export `: the hit must span the class, not a window cut before its methods.
const LRU_TS = [
  '/**',
  ' * A least-recently-used cache with a fixed number of entries. Map keeps insertion',
  ' * order, so re-inserting on every read makes the first key the least recently used.',
  ' */',
  'export class LruCache<K, V> {',
  '  private readonly entries = new Map<K, V>();',
  '',
  '  constructor(private readonly maxEntries: number) {',
  "    if (maxEntries < 1) throw new RangeError('maxEntries must be at least 1');",
  '  }',
  '',
  '  get(key: K): V | undefined {',
  '    if (!this.entries.has(key)) return undefined;',
  '    const value = this.entries.get(key) as V;',
  '    this.entries.delete(key);',
  '    this.entries.set(key, value);',
  '    return value;',
  '  }',
  '',
  '  set(key: K, value: V): void {',
  '    this.entries.delete(key);',
  '    this.entries.set(key, value);',
  '    while (this.entries.size > this.maxEntries) this.evictOldest();',
  '  }',
  '',
  '  private evictOldest(): void {',
  '    const oldest = this.entries.keys().next();',
  '    if (!oldest.done) this.entries.delete(oldest.value);',
  '  }',
  '}',
  '',
].join('\n');

// A class of 12 methods of 34 lines: the index cuts its storage regions at method starts,
// so one region begins on the line of `def route_widget_traffic`, at its indentation,
// four bytes before the definition does.
const WIDGETS_PY = `class Widgets:\n    """Holds widgets."""\n\n${Array.from({ length: 12 }, (_, i) =>
  [
    `    def ${i === 4 ? 'route_widget_traffic' : `helper_${i}`}(self, value):`,
    `        """Step ${i} of the pipeline."""`,
    ...Array.from({ length: 30 }, (_, j) => `        value = value + ${i * 100 + j}`),
    '        return value',
    '',
  ].join('\n'),
).join('\n')}\n`;

// A config key in capitals among lowercase spellings of the same words.
const SETTINGS_PY = [
  'def max_upload_bytes(self):',
  '    return self.config["MAX_UPLOAD_BYTES"]',
  '',
  'max_upload_bytes = 3',
  'DEFAULTS = {"MAX_UPLOAD_BYTES": None}',
  '',
].join('\n');

// NAME: the definition the span is, or `in OWNER` for a window cut from a longer one.
const HIT_LINE = /^([0-9a-z]{6,16}:\d+) {2}(\S+):(\d+)-(\d+)(?: {2}((?:in )?[^\s[]\S*))?(?: {2}\[([a-z,-]+)\])?$/;

function heads(stdout: string): RegExpExecArray[] {
  return stdout
    .split('\n')
    .map((l) => HIT_LINE.exec(l))
    .filter((m): m is RegExpExecArray => m !== null);
}

// Eight enums in one class (one behind an annotation) and a family of interfaces: a
// definition query's one hit per file must say what else the file holds.
const PROPS_JAVA = [
  'class Props {',
  ...['Align', 'Baseline'].map((n) => `  enum ${n} { A, B }`),
  '  @SuppressWarnings("unused")',
  '  enum Direction { LTR, RTL }',
  ...['FontStyle', 'FontWeight', 'TextAnchor', 'TextDecoration', 'TextPath'].map((n) => `  enum ${n} { X, Y }`),
  '}',
  '',
].join('\n');
const TYPES_TS = [
  'export interface NextObserver<T> {',
  '  next: (value: T) => void;',
  '}',
  'export interface ErrorObserver<T> {',
  '  error: (err: unknown) => void;',
  '}',
  'export interface Observer<T> {',
  '  next: (value: T) => void;',
  '  error: (err: unknown) => void;',
  '}',
  'export interface Unrelated {',
  '  x: number;',
  '}',
  '',
].join('\n');

describe('default output and spans', () => {
  let repo: Repo;
  beforeAll(() => {
    repo = makeRepo(
      {
        'src/long.ts': LONG_TS,
        'src/short.ts': SHORT_TS,
        'src/calls.ts': CALLS_TS,
        'src/other.ts': OTHER_TS,
        ...Object.fromEntries(['a', 'b', 'c', 'd'].map((n) => [`src/caller-${n}.ts`, CALLER_TS(n)])),
        'src/store.ts': LRU_TS,
        'py/widgets.py': WIDGETS_PY,
        'docs/guide.md': '# Guide\n\nThe rareNeedleWord is explained here.\n',
        'py/settings.py': SETTINGS_PY,
        'java/Props.java': PROPS_JAVA,
        'ts/types.ts': TYPES_TS,
      },
      'output',
    );
    expect(repo.cli('index').status).toBe(0);
  });

  it('search prints lines by default: hit line, evidence, coverage; no byte offsets or URIs', () => {
    const r = repo.lines('search', 'rareNeedleWord');
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith('{')).toBe(false);
    const lines = r.stdout.trimEnd().split('\n');
    const hits = heads(r.stdout);
    expect(hits.map((m) => m[2]).sort()).toEqual(['docs/guide.md', 'src/long.ts']);
    expect(hits.find((m) => m[2] === 'docs/guide.md')![6]).toBe('docs');
    expect(hits.find((m) => m[2] === 'src/long.ts')![6]).toBeUndefined();
    // each hit line is followed by its evidence line `  LINE: TEXT`
    const at = lines.findIndex((l) => HIT_LINE.exec(l)?.[2] === 'src/long.ts');
    expect(lines[at + 1]).toBe('  152: const hidden = seed * rareNeedleWord;');
    expect(lines.filter((l) => l.startsWith('coverage: '))).toHaveLength(1);
    for (const l of lines)
      expect(HIT_LINE.test(l) || /^ {2}\d+[:-] /.test(l) || /^(coverage|next|matches left): /.test(l)).toBe(true);
    expect(r.stdout).not.toContain('file://');
    expect(r.stdout).not.toMatch(/"start"|\bstart=|\bend=/);
    // --json keeps the byte offsets and URIs
    const json = repo.cli('search', 'rareNeedleWord').json();
    const hit = json.hits.find((h: any) => h.path === 'src/long.ts');
    expect(hit.uri).toMatch(/^file:\/\//);
    expect(typeof hit.start).toBe('number');
    expect(repo.cli('--format', 'json', 'search', 'rareNeedleWord').json().hits).toHaveLength(json.hits.length);
  });

  it('the coverage line leaves the hit count to the page, and says 0 hits when there are none', () => {
    // Before: `coverage: complete; 11 files; generation 1; 2 hits`, the hits printed just above.
    const r = repo.lines('search', 'rareNeedleWord');
    expect(r.stdout).toMatch(/^coverage: complete; \d+ files; generation \d+\n$/m);
    expect(repo.cli('search', 'rareNeedleWord').json().coverage.hits).toBe(2);
    const none = repo.lines('search', 'zzqxNoSuchWordAnywhere');
    expect(none.stdout).toMatch(/^coverage: complete; \d+ files; generation \d+; 0 hits\n$/);
  });

  it('a hit inside a 300-line function spans a window of at most 20 lines around the match', () => {
    const hit = repo
      .cli('search', 'rareNeedleWord')
      .json()
      .hits.find((h: any) => h.path === 'src/long.ts');
    expect(hit.end_line - hit.start_line + 1).toBeLessThanOrEqual(20);
    expect(hit.start_line).toBeLessThanOrEqual(152);
    expect(hit.end_line).toBeGreaterThanOrEqual(152);
    // show HANDLE prints just that span
    const shown = repo.cli('show', hit.handle).json();
    expect(shown.rows.map((r: any) => r.line)).toEqual(
      Array.from({ length: hit.end_line - hit.start_line + 1 }, (_, i) => hit.start_line + i),
    );
    const lines = repo.lines('show', hit.handle);
    expect(lines.status).toBe(0);
    expect(lines.stdout).toContain('152\t');
    expect(lines.stdout.startsWith('{')).toBe(false);
  });

  it('a best line that starts before its definition (export class) still spans the definition', () => {
    const hit = repo.cli('search', 'lru cache eviction').json().hits[0];
    expect(hit.path).toBe('src/store.ts');
    expect(hit.snippet.line).toBe(5);
    expect([hit.start_line, hit.end_line]).toEqual([5, 30]);
  });

  it("a match on the first line of a storage region that starts at a method's indentation spans the method", () => {
    const hit = repo.cli('search', 'route traffic').json().hits[0];
    expect(hit.path).toBe('py/widgets.py');
    expect(hit.snippet.line).toBe(140);
    expect([hit.start_line, hit.end_line]).toEqual([140, 172]);
  });

  it('a hit in a 30-line function spans that function', () => {
    const hit = repo.cli('search', 'shortNeedleWord').json().hits[0];
    expect(hit.path).toBe('src/short.ts');
    expect([hit.start_line, hit.end_line]).toEqual([3, 32]);
  });

  it('a definition query spans the whole definition, however long', () => {
    const hit = repo.cli('search', 'sym:longPipeline').json().hits[0];
    expect([hit.start_line, hit.end_line]).toEqual([1, LONG_FN_LINES]);
    const kind = repo.cli('search', 'kind:function', 'pipeline').json().hits[0];
    expect([kind.start_line, kind.end_line]).toEqual([1, LONG_FN_LINES]);
    // sym: and kind: together: before, the hit kept the name occurrence's one line.
    const both = repo.cli('search', 'sym:longPipeline', 'kind:function').json().hits[0];
    expect([both.start_line, both.end_line]).toEqual([1, LONG_FN_LINES]);
  });

  it("a definition query's hit lists its file's further matching definitions up to 5, the rest in the footer", () => {
    const r = repo.lines('search', 'kind:enum');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    // A one-line span prints PATH:LINE.
    const at = lines.findIndex((l) => /^[0-9a-z]{6,16}:1 {2}java\/Props\.java:2 {2}Props::Align$/.test(l));
    expect(at).toBeGreaterThanOrEqual(0);
    const evidence = lines.slice(at + 1).filter((_, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('  ')));
    // The hit's own enum first (line 2), then 4 more; the annotated enum shows its naming line.
    expect(evidence).toEqual([
      '  2: enum Align { A, B }',
      '  3: enum Baseline { A, B }',
      '  5: enum Direction { LTR, RTL }',
      '  6: enum FontStyle { X, Y }',
      '  7: enum FontWeight { X, Y }',
    ]);
    expect(lines).toContain('matches left: 3 more matching lines in java/Props.java: 8, 9, 10');
    // With words: the exact name and the names holding the word, one hit, every match listed.
    const words = repo.lines('search', 'kind:interface', 'Observer', 'file:ts/');
    expect(words.stdout.split('\n').filter((l) => /^[0-9a-z]{6,16}:\d+ {2}ts\/types\.ts:/.test(l))).toHaveLength(1);
    expect(words.stdout.split('\n').filter((l) => /^ {2}\d+: /.test(l))).toEqual([
      '  1: export interface NextObserver<T> {',
      '  4: export interface ErrorObserver<T> {',
      '  7: export interface Observer<T> {',
    ]);
  });

  it('re: shows every matching line of a file up to 5, with a footer for the rest', () => {
    const r = repo.lines('search', 're:callSite\\(');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const at = lines.findIndex((l) => HIT_LINE.exec(l)?.[2] === 'src/calls.ts');
    expect(at).toBeGreaterThanOrEqual(0);
    const evidence = lines.slice(at + 1).filter((_, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('  ')));
    expect(evidence).toEqual([
      '  2: callSite(0);',
      '  3: callSite(1);',
      '  4: callSite(2);',
      '  5: callSite(3);',
      '  6: callSite(4);',
    ]);
    // 8 calls and the declaration match: 9 lines, 5 shown; the footer says where the rest are.
    expect(lines).toContain('matches left: 4 more matching lines in src/calls.ts: 7, 8, 9, 12');
    // JSON hits carry URIs as long as the temporary directory's path: room for every hit.
    const json = repo.cli('search', 're:callSite\\(', '-b', '3000').json();
    const hit = json.hits.find((h: any) => h.path === 'src/calls.ts');
    expect(hit.evidence.map((e: any) => e.line)).toEqual([2, 3, 4, 5, 6]);
    expect(hit.matches_left).toBe(4);
  });

  it('narrowed to the file, it still shows 5 matching lines and says where the rest are (spec §4)', () => {
    // Before: a search of at most 5 files showed up to 50 lines a file (9 here), past the spec's 5.
    const r = repo.lines('search', 're:callSite\\(', 'file:src/calls.ts');
    expect(r.status).toBe(0);
    const evidence = r.stdout.split('\n').filter((l) => /^ {2}\d+: /.test(l));
    expect(evidence.map((l) => Number(/\d+/.exec(l)![0]))).toEqual([2, 3, 4, 5, 6]);
    expect(r.stdout).toContain('matches left: 4 more matching lines in src/calls.ts: 7, 8, 9, 12\n');
    // The lines it names read back with show.
    const read = repo.lines('show', 'path:src/calls.ts:7-12');
    expect(read.stdout).toContain('12\texport function callSite(n: number): number {');
  });

  it('narrowed to a few files with several file: values, still 5 lines a file at most', () => {
    const r = repo.lines('search', 're:callSite\\(', 'file:src/calls.ts', 'file:src/other.ts');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').filter((l) => /^ {2}\d+: /.test(l))).toHaveLength(6);
    expect(r.stdout).toContain('matches left: 4 more matching lines in src/calls.ts: 7, 8, 9, 12\n');
  });

  it('a literal search shows further matching lines too', () => {
    const json = repo.cli('search', '"callSite("').json();
    const hit = json.hits.find((h: any) => h.path === 'src/calls.ts');
    expect(hit.evidence).toHaveLength(5);
    expect(hit.matches_left).toBe(4);
  });

  it('a literal with a capital matches as typed, evidence lines included (smart case)', () => {
    // Before: the lowercase def and assignment were evidence lines of "MAX_UPLOAD_BYTES" too.
    const r = repo.lines('search', '"MAX_UPLOAD_BYTES"');
    expect(r.status).toBe(0);
    // A further match outside the hit's span names the definition holding it, if any.
    expect(r.stdout.split('\n').filter((l) => /^ {2}\d+(?: in \S+)?: /.test(l))).toEqual([
      '  2: return self.config["MAX_UPLOAD_BYTES"]',
      '  5: DEFAULTS = {"MAX_UPLOAD_BYTES": None}',
    ]);
    // All in lower case, it matches every spelling.
    const lower = repo.cli('search', '"max_upload_bytes"').json();
    expect(lower.hits[0].evidence.map((e: any) => e.line)).toEqual([1, 2, 4, 5]);
  });

  it('-C N adds N lines of context around each evidence line', () => {
    const r = repo.lines('-C', '1', 'search', 're:callSite\\(99');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('  2- // nothing here\n  3: callSite(99);\n  4- const x = 1;\n');
    const json = repo.cli('-C', '2', 'search', 're:callSite\\(99').json();
    expect(json.hits[0].evidence.map((e: any) => [e.line, e.context === true])).toEqual([
      [1, true],
      [2, true],
      [3, false],
      [4, true],
      [5, true],
    ]);
  });

  it('-C out of range is a coded bad_arguments, on stderr alone in lines and also on stdout with --json', () => {
    for (const value of ['11', '-1', 'x']) {
      const r = repo.lines('-C', value, 'search', 'callSite');
      expect({ value, status: r.status, stdout: r.stdout }).toEqual({ value, status: 2, stdout: '' });
      expect(r.stderr).toMatch(/^trufflepig: bad_arguments: -C takes a whole number of context lines from 0 to 10/);
      const j = repo.cli('-C', value, 'search', 'callSite');
      expect(j.status).toBe(2);
      expect(j.json().error.code).toBe('bad_arguments');
    }
  });

  it('more prints lines by default, with the N of M note on next', () => {
    const first = repo.lines('-n', '1', 'search', 'callSite');
    const next = /^next: more (\S+) \(1 of (\d+) files; stopped by -n\)$/m.exec(first.stdout);
    expect(next).not.toBeNull();
    const more = repo.lines('-n', '1', 'more', next![1]);
    expect(more.status).toBe(0);
    expect(heads(more.stdout)).toHaveLength(1);
    expect(more.stdout).toMatch(
      new RegExp(`^next: more \\S+ \\(2 of ${next![2]} files; stopped by -n\\)$|^coverage: `, 'm'),
    );
  });

  it('every lines page keeps -b', () => {
    for (const budget of [40, 80, 120, 200, 400, 600]) {
      for (const q of [['re:callSite\\('], ['-C', '3', 're:callSite\\('], ['rareNeedleWord']]) {
        const r = repo.lines('-b', String(budget), 'search', ...q);
        expect(tokens(r.stdout)).toBeLessThanOrEqual(budget);
      }
    }
  });
});
