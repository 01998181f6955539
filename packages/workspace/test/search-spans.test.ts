// Search hit spans and lines. A free-text hit found through a word's stem (`stripped` meeting `stripNulls`, `filtering` meeting `.filter(`, the any-term
// lane's word forms) shows the line that holds the stem and spans the code around it: the
// snippet terms carry the stems the index searched (core/search.ts snippetTerms). Before,
// such a hit had no evidence line and its span was its storage region's first lines.
import { ctxCommand, moreCommand, searchCommand, showCommand } from '../src';
import { indexedRepo, json, type IndexedRepo } from './ws-helpers';

// One storage region: 40 lines of unrelated code, then the function the query's stem names.
const FILLER = Array.from({ length: 40 }, (_, i) => `const unrelated${i} = ${i} * 2;`);
const SOURCE = [
  ...FILLER,
  '',
  'export function stripNulls(value: Record<string, unknown>): Record<string, unknown> {',
  '  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));',
  '}',
  '',
].join('\n');

// A match in a doc comment above a definition: the hit spans the comment and the definition.
const DOCUMENTED = [
  ...FILLER,
  '',
  '// mendHeredoc trims the common leading indentation of every line of a heredoc',
  '// before its parts are joined.',
  'export function mendHeredoc(lines: string[]): string[] {',
  ...Array.from({ length: 30 }, (_, i) => `  lines[${i}] = lines[${i}]?.trim() ?? '';`),
  '  return lines;',
  '}',
  '',
].join('\n');

// A switch of 7-line cases (the last one blank), too long to be a span: a match on a case's
// second line spans a 16-line window from 3 lines above it, whose last line is a blank one.
const SWITCH = [
  ...FILLER.slice(0, 12),
  'export function pick(flag: string, out: string[]): void {',
  '  switch (flag) {',
  ...Array.from({ length: 12 }, (_, i) => [
    `    case '${String.fromCharCode(97 + i)}':`,
    `      out.push('f${i}');`,
    `      out.push('g${i}');`,
    `      out.push('h${i}');`,
    `      out.push('k${i}');`,
    '      break;',
    '',
  ]).flat(),
  '  }',
  '}',
  '',
].join('\n');

// A class too long to be a span, its docstring's second line the match: the window from
// three lines above it would begin on the blank line above the class.
const UNDEFINED_PY = [
  'import sys',
  '',
  '',
  'class Undefined:',
  '    """The default undefined type.  This undefined type can be printed and',
  '    iterated over, but every other access will raise a quokka error.',
  '    """',
  ...Array.from({ length: 50 }, (_, i) => [`    def m${i}(self):`, `        return ${i}`]).flat(),
  '',
].join('\n');

describe('free-text hits found by a stem', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-word-forms-', {
      'src/clean.ts': SOURCE,
      'src/heredoc.ts': DOCUMENTED,
      'src/other.ts': 'export const x = 1;\n',
      'src/switch.ts': SWITCH,
      'src/runtime.py': UNDEFINED_PY,
    });
  });

  it('a window never ends on a blank line, and show prints exactly the lines the hit names', async () => {
    const found = json(await searchCommand(['f5'], repo.at({ format: 'json' })));
    const hit = found.hits.find((h: { path: string }) => h.path === 'src/switch.ts');
    expect(hit).toBeDefined();
    const lines = SWITCH.split('\n');
    const anchor = lines.indexOf("      out.push('f5');") + 1;
    // The window would be anchor-3 .. anchor+12; its last line is blank, so it ends one above.
    expect(lines[anchor + 12 - 1]).toBe('');
    expect([hit.start_line, hit.end_line]).toEqual([anchor - 3, anchor + 11]);
    // The window is no definition, so it has no name; it says which definition it is cut from.
    expect(hit.name).toBeUndefined();
    expect(hit.within).toBe('pick');
    const page = (await searchCommand(['f5'], repo.at({ format: 'lines' }))).stdout.split('\n');
    expect(page[0]).toMatch(new RegExp(`^[0-9a-z]{6,}:1  src/switch\\.ts:${anchor - 3}-${anchor + 11}  in pick$`));
    const shown = json(await showCommand(hit.handle, repo.at({ format: 'json' })));
    expect([shown.start_line, shown.end_line]).toEqual([hit.start_line, hit.end_line]);
    expect(shown.rows.map((r: { line: number }) => r.line).at(-1)).toBe(hit.end_line);
    // The read says which definition its rows are in, as the search line did.
    expect(shown.within).toBe('pick');
    const head = (await showCommand(hit.handle, repo.at({ format: 'lines' }))).stdout.split('\n')[0];
    expect(head).toMatch(new RegExp(`^[0-9a-z]{6,}:1  src/switch\\.ts:${anchor - 3}-${anchor + 11}  in pick$`));
  });

  it('a window never starts on a blank line: the class below holds it, and ctx reads the class', async () => {
    const hit = json(await searchCommand(['quokka'], repo.at({ format: 'json' }))).hits[0];
    expect(hit).toMatchObject({ path: 'src/runtime.py', start_line: 4, within: 'Undefined' });
    const ctx = (await ctxCommand(hit.handle, repo.at({ format: 'lines' }))).stdout.split('\n');
    expect(ctx[0]).toMatch(/^symbol: \S+\tsrc\/runtime\.py:4\tclass Undefined$/);
  });

  it('a match in a doc comment spans the comment and the definition under it', async () => {
    const page = json(await searchCommand(['common', 'leading', 'indentation'], repo.at({ format: 'json' })));
    const hit = page.hits.find((h: { path: string }) => h.path === 'src/heredoc.ts');
    expect(hit).toMatchObject({ start_line: 42, end_line: 76 });
  });

  it('show the line holding the stem and span its definition', async () => {
    const page = json(await searchCommand(['stripped', 'filtering'], repo.at({ format: 'json' })));
    const hit = page.hits.find((h: { path: string }) => h.path === 'src/clean.ts');
    expect(hit).toBeDefined();
    expect(hit.start_line).toBe(42);
    expect(hit.end_line).toBe(44);
    const lines = await searchCommand(['stripped', 'filtering'], repo.at());
    expect(lines.stdout).toMatch(/^ {2}42: export function stripNulls\(/m);
  });
});

describe('further matches of a line search outside the hit span', () => {
  let repo: IndexedRepo;
  const CHECKS = [
    'export function greaterThan(x: number): string | null {',
    "  return x > 0 ? null : 'too_small';",
    '}',
    '',
    ...FILLER.slice(0, 30),
    '',
    'export function minSize(xs: unknown[]): string | null {',
    "  return xs.length > 0 ? null : 'too_small';",
    '}',
    '',
  ].join('\n');
  beforeAll(async () => {
    repo = await indexedRepo('tp-line-owners-', { 'src/checks.ts': CHECKS });
  });

  it('name them on a page read back with more, as on the first', async () => {
    const two = await indexedRepo('tp-line-owners-more-', { 'src/checks.ts': CHECKS, 'src/a-first.ts': CHECKS });
    const first = (await searchCommand(['re:too_small'], two.at({ limit: 1 }))).stdout.split('\n');
    expect(first[0]).toMatch(/src\/a-first\.ts:1-3/);
    expect(first[2]).toBe("  37 in minSize: return xs.length > 0 ? null : 'too_small';");
    const cursor = first.find((l) => l.startsWith('next: more '))!.split(' ')[2];
    const next = (await moreCommand(cursor, two.at())).stdout.split('\n');
    expect(next[0]).toMatch(/src\/checks\.ts:1-3/);
    // Before: `  37: return xs.length …`, read as a line of greaterThan.
    expect(next[2]).toBe("  37 in minSize: return xs.length > 0 ? null : 'too_small';");
  });

  it('name the definition holding them, as a refs row does; lines inside the span do not', async () => {
    for (const query of ['"too_small"', 're:too_small']) {
      const page = (await searchCommand([query], repo.at())).stdout.split('\n');
      expect(page[0]).toMatch(/^[0-9a-z]{6,}:1 {2}src\/checks\.ts:1-3 {2}greaterThan$/);
      expect(page[1]).toBe("  2: return x > 0 ? null : 'too_small';");
      expect(page[2]).toBe("  37 in minSize: return xs.length > 0 ? null : 'too_small';");
      const hit = json(await searchCommand([query], repo.at({ format: 'json' }))).hits[0];
      expect(hit.evidence).toEqual([
        { line: 2, text: "return x > 0 ? null : 'too_small';" },
        { line: 37, text: "return xs.length > 0 ? null : 'too_small';", within: 'minSize' },
      ]);
    }
  });
});

describe('a match on the first line of a definition too long to be a span', () => {
  let repo: IndexedRepo;
  const LEXER = [
    ...FILLER.slice(0, 5),
    '',
    'export class BibTeXLexer extends ExtendedRegexLexer {',
    ...Array.from({ length: 90 }, (_, i) => `  rule${i} = ${i};`),
    '}',
    '',
  ].join('\n');
  beforeAll(async () => {
    repo = await indexedRepo('tp-long-head-', { 'src/bibtex.ts': LEXER });
  });

  it('spans a window from that line, named as the head of that definition', async () => {
    const hit = json(await searchCommand(['re:class \\w+ extends ExtendedRegexLexer'], repo.at({ format: 'json' })))
      .hits[0];
    expect(hit).toMatchObject({ path: 'src/bibtex.ts', start_line: 7, end_line: 22, name: 'BibTeXLexer' });
    expect(hit.within).toBeUndefined();
  });
});

describe('a match on a decorator', () => {
  let repo: IndexedRepo;
  const FILTERS = [
    'import functools',
    '',
    ...Array.from({ length: 3 }, (_, i) => [
      '',
      '@pass_eval_context',
      '@functools.cache',
      `def do_filter${i}(ctx, value):`,
      `    """Filter number ${i}."""`,
      ...Array.from({ length: 12 }, (__, k) => `    value = value + ${k}`),
      '    return value',
      '',
    ]).flat(),
  ].join('\n');
  beforeAll(async () => {
    repo = await indexedRepo('tp-decorators-', { 'filters.py': FILTERS });
  });

  it('spans the decorated definition from its decorators, and further matches name the definition they decorate', async () => {
    const page = (await searchCommand(['re:^@pass_eval_context'], repo.at())).stdout.split('\n');
    // Before: an unnamed window `filters.py:1-16`, and bare `23: @pass_eval_context` lines.
    expect(page[0]).toMatch(/^[0-9a-z]{6,}:1 {2}filters\.py:4-20 {2}do_filter0$/);
    expect(page[1]).toBe('  4: @pass_eval_context');
    expect(page[2]).toBe('  23 in do_filter1: @pass_eval_context');
    expect(page[3]).toBe('  42 in do_filter2: @pass_eval_context');
  });
});

describe('a re: hit on an indented definition line', () => {
  // Django (an agent trial): `re:def as_sql\(self, compiler` spanned each class, not the
  // method whose first line matched, and a two-line method got a 16-line window.
  it('spans the method the line begins', async () => {
    const repo = await indexedRepo('tp-re-method-', {
      'gis/aggregates.py': [
        'class GeoAggregate:',
        '    function = None',
        '',
        '    def output_field(self):',
        '        return None',
        '',
        '    def as_sql(self, compiler, connection):',
        '        sql = compiler.compile(self)',
        '        return sql',
        '',
        '    def as_oracle(self, compiler, connection):',
        '        return self.as_sql(compiler, connection)',
        '',
      ].join('\n'),
    });
    const page = (await searchCommand(['re:def as_sql\\(self, compiler'], repo.at())).stdout.split('\n');
    expect(page[0]).toMatch(/^[0-9a-z]{6,}:1 {2}gis\/aggregates\.py:7-9 {2}GeoAggregate::as_sql$/);
  });
});

describe('a re: match that runs past its first line', () => {
  // Eigen (an agent trial): `re:EIGEN_STRONG_INLINE\s+(const\s+)?Scalar&\s+coeffRef\(` hit
  // CoreEvaluators.h, whose matches are heads written over two lines, with no line under the
  // hit and no count of the rest: each row alone matched nothing.
  it('shows the line each match starts on, and counts them all', async () => {
    const head = (i: number) => [`  EIGEN_STRONG_INLINE`, `  Scalar& coeffRef(Index i${i}) { return m_d[i${i}]; }`];
    const repo = await indexedRepo('tp-re-two-lines-', {
      'Core/Evaluators.h': [
        'struct evaluator {',
        ...[1, 2, 3, 4, 5, 6, 7].flatMap(head),
        '  EIGEN_STRONG_INLINE Scalar& coeffRef(Index j) { return m_d[j]; }',
        '};',
        '',
      ].join('\n'),
    });
    const pattern = 're:EIGEN_STRONG_INLINE\\s+Scalar&\\s+coeffRef\\(';
    const page = (await searchCommand([pattern], repo.at())).stdout.split('\n');
    expect(page[0]).toMatch(/^[0-9a-z]{6,}:1 {2}Core\/Evaluators\.h:/);
    // The first five of eight starts on their first lines, the rest of each match as a
    // context line; the other three counted.
    const evidence = page.slice(1).filter((l) => /^ {2}\d+[:-] /.test(l));
    expect(evidence.slice(0, 4).map((l) => l.trim())).toEqual([
      '2: EIGEN_STRONG_INLINE',
      '3- Scalar& coeffRef(Index i1) { return m_d[i1]; }',
      '4: EIGEN_STRONG_INLINE',
      '5- Scalar& coeffRef(Index i2) { return m_d[i2]; }',
    ]);
    expect(evidence.filter((l) => /^ {2}\d+: /.test(l)).map((l) => l.trim().split(':')[0])).toEqual([
      '2',
      '4',
      '6',
      '8',
      '10',
    ]);
    const found = json(await searchCommand([pattern], repo.at({ format: 'json' }))).hits[0];
    expect(found.matches_left).toBe(3);
  });
});

describe('a definition query', () => {
  // A class whose body spells its name again beside a stem of it, in a decorator's string
  // (SQLAlchemy's `Connection`, an agent trial): the line naming the class is the evidence.
  const CONNECTION = [
    'class Connection:',
    '    """A connection."""',
    '',
    '    @deprecated(":meth:`.Connection.connect`")',
    '    def connect(self):',
    '        return self',
    '',
  ].join('\n');

  it('shows the line naming the definition, not a body line meeting a stem of its words', async () => {
    const repo = await indexedRepo('tp-kind-evidence-', { 'db/base.py': CONNECTION });
    const page = (await searchCommand(['kind:class', 'Connection'], repo.at({ format: 'lines' }))).stdout.split('\n');
    expect(page[0]).toMatch(/^[0-9a-z]{6,}:1 {2}db\/base\.py:1-6 {2}Connection$/);
    expect(page[1]).toBe('  1: class Connection:');
  });
});

describe('an identifier query whose file defines it', () => {
  // urllib3's `class Retry` (a workspace trial): a long class whose method holds both the
  // name and a word of its stem (`retries`) outscored the class's own line, and the hit
  // spanned `Retry::from_int` instead of the class the query names.
  const RETRY = [
    'import six',
    '',
    '',
    '@six.add_metaclass(type)',
    'class Retry(object):',
    '    """Retry configuration."""',
    '',
    ...Array.from({ length: 90 }, (_, i) => `    total${i} = ${i}`),
    '',
    '    @classmethod',
    '    def from_int(cls, retries):',
    '        if isinstance(retries, Retry):',
    '            return retries',
    '        return cls(retries)',
    '',
  ].join('\n');

  it('spans the definition from its head, not a body line meeting a stem of the name', async () => {
    const repo = await indexedRepo('tp-identifier-head-', { 'util/retry.py': RETRY });
    const page = (await searchCommand(['Retry'], repo.at({ format: 'lines' }))).stdout.split('\n');
    expect(page[0]).toMatch(/^[0-9a-z]{6,}:1 {2}util\/retry\.py:5-20 {2}Retry$/);
    expect(page[1]).toBe('  5: class Retry(object):');
    const lower = (await searchCommand(['retry'], repo.at({ format: 'lines' }))).stdout.split('\n');
    expect(lower[0]).toMatch(/^[0-9a-z]{6,}:1 {2}util\/retry\.py:5-20 {2}Retry$/);
  });
});
