// Help, usage, did-you-mean and the docs' generated tables.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { editDistance } from '@trufflepig/base/edit-distance';
import { OPTION_TABLE, QUERY_FORMS, VERB_TABLE, type OptionSpec } from '../src/table';
import {
  fillGenerated,
  generatedBlocks,
  helpText,
  HELP_COLUMNS,
  isVerb,
  likelyVerb,
  markdownOptions,
  markdownVerbs,
  unknownVerbMessage,
  usageText,
  wordsError,
  wrapWords,
} from '../src/text';

const DOC = path.resolve(__dirname, '..', '..', '..', 'docs', 'cli.md');

describe('help', () => {
  const help = helpText();
  const lines = help.split('\n');

  it(`has no line over ${HELP_COLUMNS} columns, and neither has usage`, () => {
    expect(lines.filter((l) => l.length > HELP_COLUMNS)).toEqual([]);
    expect(
      usageText()
        .split('\n')
        .filter((l) => l.length > HELP_COLUMNS),
    ).toEqual([]);
    expect(lines.filter((l) => l !== l.trimEnd())).toEqual([]);
  });

  it('lists every verb form and every option once, each row starting its own line', () => {
    for (const v of VERB_TABLE) {
      for (const f of v.forms) {
        const term = f.args === '' ? v.name : `${v.name} ${f.args}`;
        // The term alone on its line (its summary below), or the term in the first 22 columns and the summary after.
        const rows = lines.filter(
          (l) => l === `  ${term}` || (l.length > 22 && l.slice(0, 22).trimEnd() === `  ${term}`),
        );
        expect({ term, rows: rows.length }).toEqual({ term, rows: 1 });
      }
    }
    for (const o of OPTION_TABLE as readonly OptionSpec[]) {
      const starts = o.short !== undefined ? `  ${o.short}, ${o.long}` : `  ${o.long}`;
      expect({ option: o.long, rows: lines.filter((l) => l === starts || l.startsWith(`${starts} `)).length }).toEqual({
        option: o.long,
        rows: 1,
      });
    }
    // A row's continuation lines are indented past its term (a list is never broken).
    const verbs = lines.slice(lines.indexOf('Verbs:') + 1, lines.indexOf('Options:') - 1);
    expect(verbs.every((l) => /^ {2}[a-z]/.test(l) || /^ {22}\S/.test(l))).toBe(true);
    expect(lines).toContain('  diff REV [--target TARGET]');
  });

  it('teaches the query language with one example per form', () => {
    const section = lines.slice(lines.findIndex((l) => l.startsWith('Query language')));
    for (const q of QUERY_FORMS) {
      const row = section.filter((l) => l.startsWith(`  ${q.form} `));
      expect({ form: q.form, rows: row.length }).toEqual({ form: q.form, rows: 1 });
      expect(row[0]).toContain(` ${q.example} `);
    }
    expect(QUERY_FORMS.map((q) => q.form)).toEqual([
      'plain words',
      'identifier',
      '"literal"',
      're:PATTERN',
      'sym:NAME',
      'kind:K',
      'lang:L',
      'file:P',
      '-file:P',
      'source:S',
      'in:M ws:W',
    ]);
  });

  it('keeps the spacing of the output it shows', () => {
    expect(help).toContain('HANDLE  PATH:START-END  [NAME]  [origin]');
    expect(help).toContain('"  LINE: TEXT"');
    expect(help).not.toContain('\u00a0');
  });

  it('usage shows the synopsis and every verb form, each whole on one line, and points to help', () => {
    const usage = usageText();
    const rows = usage.split('\n');
    expect(usage.startsWith('Usage: trufflepig [--root DIR]')).toBe(true);
    for (const v of VERB_TABLE) {
      for (const f of v.forms) {
        const form = f.args === '' ? v.name : `${v.name} ${f.args}`;
        expect({
          form,
          listed: rows.some((r) =>
            new RegExp(`(^Verbs: |^  |, )${form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(,|$)`).test(r),
          ),
        }).toEqual({ form, listed: true });
      }
    }
    expect(usage.endsWith('trufflepig help')).toBe(true);
    expect(usage.length).toBeLessThan(help.length / 3);
  });

  it('wraps at spaces', () => {
    expect(wrapWords('aa bb cc dd', 5)).toEqual(['aa bb', 'cc dd']);
    expect(wrapWords('a verylongword b', 4)).toEqual(['a', 'verylongword', 'b']);
    expect(wrapWords('', 4)).toEqual([]);
  });
});

describe('likelyVerb', () => {
  it('answers a hint word with its call', () => {
    const cases: [string, string][] = [
      ['next', 'more CURSOR'],
      ['page', 'more CURSOR'],
      ['NEXT', 'more CURSOR'],
      ['grep', 'search QUERY'],
      ['s', 'search QUERY'],
      ['cat', 'show HANDLE'],
      ['def', 'show sym:NAME'],
      ['goto', 'show sym:NAME'],
      ['reindex', 'index'],
      ['info', 'status'],
      ['daemon', 'serve'],
      ['kill', 'stop'],
      ['workspace', 'ws show'],
      ['discover', 'ws discover PATH...'],
      ['callers', 'refs NAME'],
      ['outline', 'map PATH'],
      ['context', 'ctx HANDLE'],
      ['log', 'hist TARGET'],
      ['who', 'blame TARGET'],
      ['changes', 'since REV'],
      ['uncommitted', 'since --uncommitted'],
      ['patch', 'diff REV'],
      ['setup', 'agent-setup --claude|--codex|--agents-md'],
      ['skill', 'agent-setup --claude'],
      ['agents', 'agent-setup --agents-md'],
    ];
    for (const [word, call] of cases) expect({ word, call: likelyVerb(word, editDistance) }).toEqual({ word, call });
  });

  it('else names the nearest verb by its shape; ties go to the earlier verb', () => {
    expect(likelyVerb('serch', editDistance)).toBe('search QUERY');
    expect(likelyVerb('shwo', editDistance)).toBe('show HANDLE');
    expect(likelyVerb('hsit', editDistance)).toBe('hist TARGET');
    expect(likelyVerb('sinse', editDistance)).toBe('since REV [TARGET]');
    expect(likelyVerb('dif', editDistance)).toBe('diff REV [--target TARGET]');
    expect(likelyVerb('w', editDistance)).toBe('ws show|status|discover');
    expect(likelyVerb('agentsetup', editDistance)).toBe('agent-setup --claude|--codex|--agents-md');
    expect(likelyVerb('hok', editDistance)).toBe('hook claude');
    // 'zz' is 2 from every two-letter verb and more from the rest: ws is the first such (index 12).
    expect(likelyVerb('zz', editDistance)).toBe('ws show|status|discover');
  });

  it('finds nothing inherited: constructor and __proto__ are words like any other', () => {
    for (const word of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const call = likelyVerb(word, editDistance);
      expect(VERB_TABLE.some((v) => v.shape === call)).toBe(true);
    }
  });

  it('makes the unknown-verb usage error', () => {
    expect(unknownVerbMessage('next', (s) => s, editDistance)).toBe(
      "unknown verb 'next'; did you mean: trufflepig more CURSOR",
    );
    // An unknown word before a verb: the verb is the call meant.
    expect(unknownVerbMessage('daemon', (s) => s, editDistance, 'stop')).toBe(
      "unknown verb 'daemon'; did you mean: trufflepig stop",
    );
    expect(unknownVerbMessage('daemon', (s) => s, editDistance, 'please')).toBe(
      "unknown verb 'daemon'; did you mean: trufflepig serve",
    );
    expect(isVerb('search')).toBe(true);
    expect(isVerb('next')).toBe(false);
    expect(isVerb('constructor')).toBe(false);
  });
});

describe('wordsError', () => {
  it("checks each verb's arity with its usage error", () => {
    expect(wordsError('search', [])).toBe('search needs a query, e.g. trufflepig search refill tokens');
    expect(wordsError('search', ['x'])).toBeUndefined();
    expect(wordsError('more', [])).toBe('more takes one CURSOR (SET@OFFSET) as printed after "next"');
    expect(wordsError('more', ['a', 'b'])).toBe('more takes one CURSOR (SET@OFFSET) as printed after "next"');
    expect(wordsError('ctx', ['a:1'])).toBeUndefined();
    // A handle, or sym:NAME and its filters; never two handles, nor nothing.
    expect(wordsError('ctx', ['sym:TokenBucket::refill', 'file:src/', 'kind:method'])).toBeUndefined();
    for (const words of [[], ['a:1', 'b:2'], ['file:src/', 'sym:X']])
      expect(wordsError('ctx', words)).toMatch(/^ctx takes one HANDLE .* or sym:NAME \[file: lang: kind:\]/);
    expect(wordsError('mcp', ['x'])).toBe(
      'mcp takes no arguments (it serves the root or workspace of its directory, or --root/--workspace)',
    );
    expect(wordsError('index', ['anything'])).toBeUndefined();
    expect(wordsError('show', [])).toBeUndefined();
    for (const v of VERB_TABLE)
      expect({ verb: v.name, usage: ['some', 'one', 'target', 'none'].includes(v.arity) === 'usage' in v }).toEqual({
        verb: v.name,
        usage: true,
      });
  });
});

describe('docs/cli.md', () => {
  it('holds the generated blocks as the table makes them (node packages/cli-surface/scripts/write-docs.js)', () => {
    const doc = fs.readFileSync(DOC, 'utf8');
    for (const name of Object.keys(generatedBlocks())) expect(doc).toContain(`<!-- generated:${name} -->`);
    expect(fillGenerated(doc)).toBe(doc);
  });

  it('has a row per verb form and per option', () => {
    expect(markdownVerbs().split('\n')).toHaveLength(2 + VERB_TABLE.reduce((n, v) => n + v.forms.length, 0));
    expect(markdownOptions().split('\n')).toHaveLength(2 + OPTION_TABLE.length);
    expect(markdownVerbs()).toContain('| `show HANDLE --side before\\|after` |');
  });

  it('fillGenerated replaces only between markers, and refuses an unpaired one', () => {
    const doc = 'a\n<!-- generated:x -->\nold\n<!-- /generated:x -->\nb\n';
    expect(fillGenerated(doc, { x: 'new' })).toBe('a\n<!-- generated:x -->\nnew\n<!-- /generated:x -->\nb\n');
    expect(() => fillGenerated('<!-- generated:x -->\nold\n', { x: 'new' })).toThrow(/no <!-- \/generated:x -->/);
    expect(() => fillGenerated(doc, {})).toThrow(/no generated text named x/);
  });
});
