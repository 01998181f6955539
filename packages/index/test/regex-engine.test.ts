import { parseQuery, searchIndex } from '../src';
import { REGEX_PATTERN_MAX_CHARS } from '../src/limits';
import { regexScan } from '../src/query/live';
import { compileRegex } from '../src/query/regex-engine';
import { Fixture } from './helpers';

// Issue 10, finding 4: `re:(a+)+$` on a 28-character line ran 49.8 s under V8's backtracking
// engine and stalled the shared daemon.

const LONG = 100_000;

let fx: Fixture;
beforeAll(async () => {
  fx = new Fixture('regex-engine', {
    'short.txt': `${'a'.repeat(28)}!\n`,
    'short-then-match.txt': `${'a'.repeat(28)}!\nbbb\naaaa\n`,
    'long.txt': `${'a'.repeat(LONG)}!\n`,
    'long-match.txt': `${'a'.repeat(LONG)}\n`,
    'src/lib.rs': 'use std::io;\r\nuse crate::x;\r\nfn main() {}\r\n',
    'src/unicode.rs': '// héllo wörld 😀\nfn naïve_😀() { println!("Copyright é"); }\n',
  });
  await fx.index();
});

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t = Date.now();
  const value = await run();
  return { value, ms: Date.now() - t };
}

function badRegex(query: string): string {
  const q = parseQuery(query);
  if (q.ok) throw new Error(`${query} parsed`);
  expect(q.error.code).toBe('bad_regex');
  return q.error.message;
}

// A backtracking engine takes astronomically long on these lines (2^28 paths on the short
// one alone), so a bound this loose still tells linear from exponential while tolerating a
// loaded machine: a linear scan measured 0.3 to 2.2 s here with other builds running.
const LINEAR_BOUND_MS = 10_000;

describe('re: matches in linear time', () => {
  it('answers (a+)+$ over a 28-character line and a 100,000-character line within the linear bound, with the matches that exist', async () => {
    const { value, ms } = await timed(() => fx.search('re:(a+)+$'));
    expect(ms).toBeLessThan(LINEAR_BOUND_MS);
    expect(value.truncated).toBe(false);
    const byPath = new Map(value.hits.map((h) => [h.path, h]));
    expect([...byPath.keys()].sort()).toEqual(['long-match.txt', 'short-then-match.txt']);
    expect(byPath.get('short-then-match.txt')).toMatchObject({ startLine: 3, start: 34, end: 38 });
    expect(byPath.get('long-match.txt')).toMatchObject({ startLine: 1, start: 0, end: LONG });
  });

  it('answers (a|aa)+$ and (.*a){20} over the same lines within the linear bound', async () => {
    for (const query of ['re:(a|aa)+$', 're:(.*a){20}']) {
      const { value, ms } = await timed(() => fx.search(query));
      expect(ms).toBeLessThan(LINEAR_BOUND_MS);
      expect(value.hits.length).toBeGreaterThan(0);
    }
    // One line of 100,000 characters looks minified: it is read, and listed, after the rest.
    expect(await fx.paths('re:(a|aa)+$')).toEqual(['short-then-match.txt', 'long-match.txt']);
  });
});

describe('re: semantics kept from the JavaScript engine', () => {
  it('ends a CRLF line before its \\r for $', async () => {
    const hits = (await fx.search('re:^use .*;$')).hits;
    expect(hits.map((h) => [h.path, h.startLine])).toEqual([['src/lib.rs', 1]]);
    expect((await fx.search('re:x;$')).hits.map((h) => h.startLine)).toEqual([2]);
  });

  it('maps matches after multi-byte characters back to exact byte offsets', async () => {
    const [hit] = (await fx.search('re:naïve_😀\\(')).hits;
    const line = Buffer.from('fn naïve_😀() { println!("Copyright é"); }');
    const start = Buffer.byteLength('// héllo wörld 😀\n');
    expect([hit.path, hit.start, hit.end, hit.startLine]).toEqual(['src/unicode.rs', start, start + line.length, 2]);
    expect(await fx.paths('re:(?i)COPYRIGHT É')).toEqual(['src/unicode.rs']);
    expect(await fx.paths('re:\\u00e9.\\)')).toEqual(['src/unicode.rs']);
  });
});

describe('re: patterns the linear engine cannot run', () => {
  it('answers bad_regex for backreferences and lookaround, saying what to do instead', () => {
    expect(badRegex('re:(a)\\1')).toMatch(/backreference.*match the repeated text itself/);
    expect(badRegex('re:(?<q>["\'])x\\k<q>')).toMatch(/backreference/);
    expect(badRegex('re:foo(?=bar)')).toMatch(/lookahead.*foobar/);
    expect(badRegex('re:(?<=fn )main')).toMatch(/lookbehind.*fn main/);
    expect(badRegex('re:(?<!x)y')).toMatch(/negative lookbehind/);
  });

  it('answers bad_regex for an over-long pattern without echoing it', () => {
    const pattern = `${'abc'.repeat(40_000)}(`;
    const message = badRegex(`re:${pattern}`);
    expect(message.length).toBeLessThan(200);
    expect(message).toContain(String(REGEX_PATTERN_MAX_CHARS));
    expect(badRegex(`re:${'x'.repeat(REGEX_PATTERN_MAX_CHARS + 1)}`).length).toBeLessThan(200);
    expect(parseQuery(`re:${'x'.repeat(REGEX_PATTERN_MAX_CHARS)}`).ok).toBe(true);
  });

  it('answers bad_regex for a syntax error and a program over the instruction limit, quoting briefly', () => {
    expect(badRegex('re:(')).toMatch(/missing closing \)/);
    const huge = badRegex(`re:${'(?:a{1,1000})'.repeat(3)}`);
    expect(huge).toMatch(/instructions, over the limit/);
    expect(huge.length).toBeLessThan(200);
  });
});

describe('re: deadline', () => {
  it('stops a scan past its deadline and reports truncation with the reason', async () => {
    const reader = await fx.open();
    try {
      const files = reader.files();
      const stopped = regexScan(reader.root, files, 'a', Date.now() - 1);
      expect(stopped).toMatchObject({ hits: [], truncated: true, stopped: 'deadline', scannedFiles: 0 });
      const full = regexScan(reader.root, files, 'a');
      expect(full.truncated).toBe(false);
      expect(full.scannedFiles).toBe(files.length);
      expect(full.stopped).toBeUndefined();
      expect(full.hits.length).toBeGreaterThan(3);
    } finally {
      reader.close();
    }
  });

  it('checks the deadline between the windows of one long text, after searching the first', () => {
    const c = compileRegex('b(?:a|b){0,900}c');
    if (!c.ok) throw new Error(c.message);
    const long = `${'ab'.repeat(400_000)}c\n`;
    expect(c.matcher.firstMatch(long, 0, Date.now() - 1)).toEqual({ found: false, stopped: 'deadline' });
    expect(c.matcher.firstMatch(long)).toEqual({ found: true, at: long.length - 2 - 901, end: long.length - 1 });
    expect(c.matcher.firstMatch(`bc${long}`, 0, Date.now() - 1)).toEqual({ found: true, at: 0, end: 2 });
  });

  it('flows into the search outcome as truncated, saying what stopped it and how far it got', async () => {
    const q = parseQuery('re:a');
    const worded = parseQuery('re:use std');
    if (!q.ok || !worded.ok) throw new Error('query');
    const reader = await fx.open();
    try {
      const eligible = reader.files().filter((f) => !f.excluded).length;
      expect(searchIndex(reader, q.value, { regexDeadlineMs: -1 })).toMatchObject({
        hits: [],
        truncated: true,
        // `a` fixes no trigram: every eligible file is a candidate.
        truncation: { by: 'regex_deadline', scannedFiles: 0, candidateFiles: eligible, prefiltered: false },
      });
      const stopped = searchIndex(reader, worded.value, { regexDeadlineMs: -1 }).truncation;
      expect(stopped).toMatchObject({ by: 'regex_deadline', prefiltered: true });
      if (stopped?.by !== 'regex_deadline') throw new Error('not a regex stop');
      expect(stopped.candidateFiles).toBeGreaterThan(0);
      expect(stopped.candidateFiles).toBeLessThan(eligible);
      expect(searchIndex(reader, q.value).truncated).toBe(false);
      expect(searchIndex(reader, q.value).truncation).toBeUndefined();
    } finally {
      reader.close();
    }
  });
});

describe('windowed matching', () => {
  // A deterministic generator: texts long enough that large programs are searched in many
  // windows, compared with V8's answer (same semantics for these ASCII, CR-free patterns).
  function text(seed: number, length: number): string {
    let x = seed;
    let out = '';
    const alphabet = 'aabbccdde\n';
    for (let i = 0; i < length; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      out += alphabet[x % alphabet.length];
    }
    return out;
  }
  const patterns = ['e[a-d]{40,300}e', 'a(?:b|c){3,600}d$', '^d+e+a', 'c\\nd{3}', 'b[^e]{200,900}e', 'x|dddd{1,500}a'];

  it('finds the same first match as a whole-text search', () => {
    for (const source of patterns) {
      const c = compileRegex(source);
      if (!c.ok) throw new Error(c.message);
      for (let seed = 1; seed <= 6; seed++) {
        const t = text(seed, 60_000);
        const v8 = new RegExp(source, 'm').exec(t);
        const ours = c.matcher.firstMatch(t);
        expect([source, seed, ours.found ? ours.at : -1]).toEqual([source, seed, v8 ? v8.index : -1]);
        const from = 30_000;
        const re = new RegExp(source, 'gm');
        re.lastIndex = from;
        const later = re.exec(t);
        const oursLater = c.matcher.firstMatch(t, from);
        expect([source, seed, from, oursLater.found ? oursLater.at : -1]).toEqual([
          source,
          seed,
          from,
          later ? later.index : -1,
        ]);
      }
    }
  });
});
