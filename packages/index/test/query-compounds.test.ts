// Retrieval spec §4 (Queries) and §6: a hyphenated or dotted token is its phrase first,
// then its parts, never its stopwords alone; a definition outranks an import binding.
import { extractFile, parseQuery } from '../src';
import { Fixture } from './helpers';

// Every file but the first two is noise a stopword part (`x`, `for`, `if`) would match.
const NOISE: Record<string, string> = Object.fromEntries(
  Array.from({ length: 8 }, (_, i) => [
    `src/noise${i}.js`,
    `function loop${i}(x) {\n  for (const y of x) { if (y) return y; }\n}\n`,
  ]),
);

const FILES: Record<string, string> = {
  ...NOISE,
  'src/proxy.js': 'function clientIp(req) {\n  return req.headers["x-forwarded-for"];\n}\n',
  'src/forwarding.js': 'function forwardedTo(host) {\n  return "forwarded " + host;\n}\n',
  'src/paths.py': 'import os.path\n\ndef here():\n    return os.path.dirname(__file__)\n',
  'src/style.js': '// an if-else chain, written out\nfunction pick(a) { return a ? 1 : 2; }\n',
  // A config key spelled with a hyphen once, beside a file full of its camelCase flattening.
  'conf/definitions.js':
    "const defs = {\n  'fetch-retries': { default: 2, type: Number },\n}\nmodule.exports = defs;\n",
  'conf/registry.js':
    'function request(opts) {\n  const retries = opts.fetchRetries;\n  if (opts.fetchRetries > 0) log(opts.fetchRetries);\n' +
    '  return { retries: opts.fetchRetries, fetch: "retries" };\n}\n',
  // A literal inside longer tokens: no phrase of whole words holds `jinja2-cache` or `4-byte`.
  'src/bccache.py': 'def cache_dir():\n    return f"_jinja2-cache-{uid()}"\n',
  'src/pad.rs': '// pairs of 64-byte cache lines\nstruct Padded;\n',
  'src/env.py':
    '# jinja2 environment\n# jinja2 templates\n\n\ndef load():\n    # from the cache, the cache first\n    pass\n',
  // A CommonJS binding of Command, used a lot, beside the class it names.
  'index.js':
    "const Command = require('./lib/command.js');\nconst { Option, Help: HelpText } = require('./lib/option.js');\n" +
    'function program() { return new Command(); }\nfunction sub() { return new Command(); }\nmodule.exports = { Command, Option, HelpText, program, sub };\n',
  'lib/command.js': 'class Command {\n  constructor() { this.name = "c"; }\n}\nmodule.exports = Command;\n',
  'lib/option.js': 'class Option {}\nclass Help {}\nmodule.exports = { Option, Help };\n',
  // Python rebinds an imported class at module level: a variable definition of the same name.
  'pkg/core.py': 'class Pipeline:\n    pass\n\n\nclass TaskRunner:\n    pass\n',
  'pkg/app.py':
    'from pkg import core\n\nPipeline = core.Pipeline\nTaskRunner = core.TaskRunner\n\n\n' +
    Array.from(
      { length: 4 },
      (_, i) => `def use${i}():\n    return Pipeline(), TaskRunner(), Pipeline(), TaskRunner()\n`,
    ).join('\n'),
};

// A sentence with a hyphenated word: one file spells the word often, the other holds the
// sentence's other words (regex-syntax's unicode.rs against its flag parsers).
FILES['src/flags.rs'] =
  '// case-insensitive matching is a flag\nfn case_insensitive(yes: bool) {}\n' +
  '// the case-insensitive flag, for matching\nfn set_case_insensitive() {}\n';
FILES['src/fold.rs'] =
  '/// Return the simple case mappings of the given codepoint.\nfn simple_fold(c: char) -> Vec<char> { vec![c] }\n';

// A word with digits between letters: its parts (`http`, `2`, `client`) meet in the file's
// first region, the word itself only far below (the Go source's net/http/transport.go).
const TRANSPORT_GET_LINE = 160;
FILES['net/http/transport.go'] = [
  '// Package http: a client for HTTP/2 and HTTP/1.1.',
  'package http',
  '',
  'import "internal/godebug"',
  '',
  ...Array.from({ length: TRANSPORT_GET_LINE - 7 }, (_, i) => `func helper${i}(n int) int { return n + ${i} }`),
  'func (t *Transport) setDefaults() {',
  '\tif godebug.Get("http2client") == "0" {',
  '\t\treturn',
  '\t}',
  '}',
  '',
].join('\n');

// A setting spelled only in strings and docs (SQLAlchemy's `pool_recycle`), beside a file
// where its parts meet often in code (`self.__pool._recycle`), which nothing defines either.
FILES['engine/create.py'] =
  'def create_engine(url, **kwargs):\n    """\n    :param pool_recycle=-1: recycle connections after this many seconds.\n    """\n' +
  '    translate = {"recycle": "pool_recycle"}\n    return translate\n';
FILES['pool/base.py'] = [
  'class ConnectionRecord:',
  ...Array.from(
    { length: 6 },
    (_, i) =>
      `    def check${i}(self):\n        if self.__pool._recycle > -1 and self.__pool._recycle < ${i}:\n            self.__pool.recycle()`,
  ),
  '',
].join('\n');

let fx: Fixture;
beforeAll(async () => {
  fx = new Fixture('compounds', FILES);
  await fx.index();
});

describe('hyphenated and dotted tokens', () => {
  it('parses a compound into its phrase and its non-stopword parts', () => {
    const q = parseQuery('x-forwarded-for');
    expect(q.ok && q.value).toMatchObject({
      mode: 'free',
      words: ['x', 'forwarded', 'for'],
      phrases: [['x', 'forwarded', 'for']],
      standalone: ['forwarded'],
    });
    const dotted = parseQuery('os.path');
    expect(dotted.ok && dotted.value).toMatchObject({ phrases: [['os', 'path']], standalone: ['os', 'path'] });
    const plain = parseQuery('refill tokens');
    expect(plain.ok && plain.value.phrases).toBeUndefined();
  });

  it('ranks the phrase first, then files with its parts, never files matching only a stopword part', async () => {
    const paths = await fx.paths('x-forwarded-for');
    expect(paths[0]).toBe('src/proxy.js');
    expect(paths).toContain('src/forwarding.js');
    // Before: the any-term lane matched `x`, `for` and `if` in every noise file.
    expect(paths.filter((p) => p.startsWith('src/noise'))).toEqual([]);
  });

  it('keeps a compound inside a longer query as a phrase of its own', async () => {
    const paths = await fx.paths('client x-forwarded-for');
    expect(paths[0]).toBe('src/proxy.js');
    expect(paths.filter((p) => p.startsWith('src/noise'))).toEqual([]);
  });

  it('ranks the file that spells the compound exactly above one that only has its words, and points at the spelling', async () => {
    const out = await fx.search('fetch-retries');
    expect(out.hits.map((h) => h.path).slice(0, 2)).toEqual(['conf/definitions.js', 'conf/registry.js']);
    // The hit sits on line 2, where `'fetch-retries'` is spelled, not on the first `fetch`.
    expect(out.hits[0]).toMatchObject({ startLine: 2, lane: 'spelled' });
  });

  it('ranks the file spelling a compound identifier that nothing defines or uses above files holding only its parts', async () => {
    const out = await fx.search('pool_recycle');
    expect(out.hits.map((h) => h.path).slice(0, 2)).toEqual(['engine/create.py', 'pool/base.py']);
    expect(out.hits[0]).toMatchObject({ startLine: 3, lane: 'spelled' });
  });

  it('keeps a word with digits between letters whole among other words, its hit on the spelling', async () => {
    const q = parseQuery('GODEBUG http2client');
    expect(q.ok && q.value).toMatchObject({
      phrases: [['http', '2', 'client']],
      standalone: ['godebug', 'http', 'client'],
    });
    const hit = (await fx.search('GODEBUG http2client')).hits.find((h) => h.path === 'net/http/transport.go');
    // Before: lines 1-… (`package http`, `internal/godebug`), where the parts met.
    expect(hit!.startLine).toBeLessThanOrEqual(TRANSPORT_GET_LINE);
    expect(hit!.endLine).toBeGreaterThanOrEqual(TRANSPORT_GET_LINE);
    // Alone it is an identifier query, as before.
    const alone = parseQuery('http2client');
    expect(alone.ok && alone.value).toMatchObject({ identifier: true });
    expect(alone.ok && alone.value.phrases).toBeUndefined();
  });

  it('searches a hyphenated word of a sentence as its words, not its spelling first', async () => {
    const sentence = 'case-insensitive matching using the simple case mappings of a codepoint';
    const q = parseQuery(sentence);
    expect(q.ok && q.value.phrases).toBeUndefined();
    // Before: spelled first (a leading lane and a phrase lane, weight 2 each), flags.rs won.
    expect((await fx.paths(sentence))[0]).toBe('src/fold.rs');
    // A name asked for with one more word is still spelled first.
    expect((await fx.paths('case-insensitive flag'))[0]).toBe('src/flags.rs');
  });

  it('finds a dotted module path as its phrase first', async () => {
    expect((await fx.paths('os.path'))[0]).toBe('src/paths.py');
  });

  it('searches a compound made only of stopwords as the literal it spells', async () => {
    const q = parseQuery('if-else');
    expect(q.ok && q.value.mode).toBe('literal');
    // Every noise file has `if` and `else`-free code; only the comment spells the phrase.
    expect(await fx.paths('if-else')).toEqual(['src/style.js']);
    expect(await fx.paths('for-in')).toEqual([]);
  });

  it('finds a quoted literal inside longer tokens, as rg -F does (trigram candidates)', async () => {
    // Before: the phrase of its words was the only candidate filter, and both said 0 hits.
    expect(await fx.paths('"jinja2-cache"')).toEqual(['src/bccache.py']);
    const byte = await fx.search('"4-byte"');
    expect(byte.hits.map((h) => [h.path, h.startLine])).toEqual([['src/pad.rs', 1]]);
    expect(await fx.paths('"-cache-{"')).toEqual(['src/bccache.py']);
    // The trigrams hold, the text does not: verified against the bytes, no hit.
    expect(await fx.paths('"4-bytes"')).toEqual([]);
  });

  it('finds a hyphenated token of a free query inside a longer token when no file has its words as a phrase', async () => {
    expect((await fx.paths('_jinja2-cache'))[0]).toBe('src/bccache.py');
  });

  it('keeps such a compound case-insensitive, as free text is, when typed with capitals', async () => {
    const q = parseQuery('If-Else');
    expect(q.ok && [q.value.mode, q.value.text]).toEqual(['literal', 'if-else']);
    expect(await fx.paths('If-Else')).toEqual(['src/style.js']);
  });
});

describe('a definition outranks an import binding of the same name', () => {
  it('records `const X = require(m)` as an import of X, not a definition', () => {
    const facts = extractFile('javascript', Buffer.from(FILES['index.js']));
    expect(facts.definitions.map((d) => d.name)).toEqual(['program', 'sub']);
    expect(facts.imports.map((i) => [i.spelled, i.name, i.alias])).toEqual([
      ['./lib/command.js', 'Command', null],
      ['./lib/option.js', 'Option', null],
      ['./lib/option.js', 'Help', 'HelpText'],
    ]);
    const command = facts.names.find((n) => n.name === 'Command')!;
    expect(command.roles & 1).toBe(0); // never a declaration
  });

  it('ranks class Command above the file that binds and uses it, in free text and sym:', async () => {
    expect((await fx.search('Command')).hits[0]).toMatchObject({ path: 'lib/command.js', kind: 'class' });
    expect((await fx.search('sym:Command')).hits[0]).toMatchObject({ path: 'lib/command.js', kind: 'class' });
    expect((await fx.search('kind:constant Command')).hits).toEqual([]);
  });

  it('ranks a class above a module-level rebinding of it that is used more (Python)', async () => {
    // Before: the rebinding file won on uses (free text tied and broke on path; sym: on count).
    for (const q of ['Pipeline', 'sym:Pipeline', 'TaskRunner', 'sym:TaskRunner']) {
      expect({ q, hit: (await fx.search(q)).hits[0] }).toMatchObject({
        q,
        hit: { path: 'pkg/core.py', kind: 'class' },
      });
    }
    // The rebinding stays findable: it is the next hit.
    expect((await fx.paths('TaskRunner'))[1]).toBe('pkg/app.py');
  });
});
