// Navigation when one name has several owners (an agent trial on HCL, 2026-12-03): `refs`
// never resolves a use to the first of a file's same-name definitions, and `ctx` gives a
// call through a receiver the method, not a free function of the name elsewhere. `ctx`
// lists as callers only the calls refs does not resolve to another definition of the name
// (an agent trial on clap, 2026-12-04). Real repositories, real tree-sitter parses (Go, Rust).
import { refsCommand } from '../src';
import { ctxLinesOf, indexedRepo, type IndexedRepo } from './ws-helpers';

const SPEC_GO = [
  'package spec',
  '',
  'type ListSpec struct {',
  '\tMaxItems int',
  '}',
  '',
  'type SetSpec struct {',
  '\tMaxItems int',
  '}',
  '',
  'func (s *ListSpec) tooMany(n int) bool { return n > s.MaxItems }',
  '',
  'func (s *SetSpec) tooMany(n int) bool { return n > s.MaxItems }',
  '',
].join('\n');

const ATTRIBUTE_GO = [
  'package write',
  '',
  'type Attribute struct{ name string }',
  '',
  'func (a *Attribute) init(name string) { a.name = name }',
  '',
].join('\n');

const BODY_GO = [
  'package write',
  '',
  'func SetAttribute(name string) *Attribute {',
  '\tattr := &Attribute{}',
  '\tattr.init(name)',
  '\treturn attr',
  '}',
  '',
].join('\n');

// A free function of the same name in another package.
const MAIN_GO = ['package main', '', 'func init() {', '\tprintln("ready")', '}', '', 'func main() {}', ''].join('\n');

// A method calling a sibling through its receiver, whatever Go calls the receiver.
const SUMMARY_GO = [
  'package write',
  '',
  'type summary struct{ streams []int }',
  '',
  'func (s *summary) rotate() { s.streams = s.streams[1:] }',
  '',
  'func (s *summary) observe() { s.rotate() }',
  '',
].join('\n');

// Two crates' modules each define `did_you_mean`; each caller reaches one through its path or its own file.
const SUGGEST_RS = [
  'pub(crate) fn did_you_mean(v: &str) -> Vec<String> {',
  '    vec![v.to_owned()]',
  '}',
  '',
  'pub(crate) fn did_you_mean_flag(v: &str) -> Option<String> {',
  '    did_you_mean(v).pop()',
  '}',
  '',
].join('\n');
const FORMAT_RS = [
  'fn did_you_mean(out: &mut String, valid: &str) {',
  '    out.push_str(valid);',
  '}',
  '',
  'pub(crate) fn format_error(out: &mut String) {',
  '    did_you_mean(out, "a");',
  '}',
  '',
].join('\n');
const ERROR_RS = [
  'use crate::suggestions;',
  '',
  'pub(crate) fn invalid_value(bad: &str) -> Option<String> {',
  '    suggestions::did_you_mean(bad).pop()',
  '}',
  '',
].join('\n');
const LIB_RS = ['mod error;', 'mod format;', 'mod suggestions;', ''].join('\n');

let repo: IndexedRepo;
beforeAll(async () => {
  repo = await indexedRepo('tp-nav-same-name-', {
    'spec/spec.go': SPEC_GO,
    'write/attribute.go': ATTRIBUTE_GO,
    'write/body.go': BODY_GO,
    'cmd/tool/main.go': MAIN_GO,
    'write/summary.go': SUMMARY_GO,
    'Cargo.toml': '[package]\nname = "clapish"\nversion = "0.1.0"\n',
    'src/lib.rs': LIB_RS,
    'src/suggestions.rs': SUGGEST_RS,
    'src/format.rs': FORMAT_RS,
    'src/error.rs': ERROR_RS,
  });
});

/** The caller rows of `ctx` for the definition `sym:NAME file:FILE` lands on. */
async function callersOf(name: string, file: string): Promise<string[]> {
  return (await ctxLinesOf(repo, [`sym:${name}`, `file:${file}`])).filter((l) => l.startsWith('caller:'));
}

describe('one name, several owners', () => {
  it('refs resolves a use through the method receiver to its type, never to the first of the file', async () => {
    const rows = (await refsCommand(['MaxItems'], repo.at())).stdout.split('\n');
    // The receiver `s` of a ListSpec method reads ListSpec's field (the page's first
    // definition, so no arrow), of a SetSpec method SetSpec's (zap trial, 2026-12-07; it had
    // been a candidate, which was right only while the receiver was not read).
    expect(rows.filter((r) => / (11|13) member/.test(r)).map((r) => r.split(' in ')[0])).toEqual([
      '3 11 member',
      '4 13 member → spec/spec.go:8',
    ]);
  });

  it('ctx gives a call through a receiver the method of that name, not a free function', async () => {
    const out = await ctxLinesOf(repo, ['sym:SetAttribute', 'kind:function']);
    const callees = out.filter((l) => l.startsWith('callee:'));
    // Through `attr`, whose type the index does not know: the method of that name, as a candidate.
    expect(callees.some((l) => /write\/attribute\.go:5\tmethod Attribute::init\tcandidate$/.test(l))).toBe(true);
    expect(callees.some((l) => /cmd\/tool\/main\.go/.test(l))).toBe(false);
  });

  it('ctx lists as callers of a definition only the calls that reach it', async () => {
    const ofFormat = await callersOf('did_you_mean', 'src/format.rs');
    expect(ofFormat).toHaveLength(1);
    expect(ofFormat[0]).toMatch(/\tsrc\/format\.rs:6\tin format_error$/);
    const ofSuggestions = await callersOf('did_you_mean', 'src/suggestions.rs');
    expect(ofSuggestions.map((l) => l.split('\t').slice(1).join('\t'))).toEqual([
      'src/error.rs:4\tin invalid_value',
      'src/suggestions.rs:6\tin did_you_mean_flag',
    ]);
  });

  it('refs of a Go method resolves a call through the receiver its method declares', async () => {
    const rows = (await refsCommand(['summary::rotate'], repo.at())).stdout.split('\n');
    expect(rows.find((r) => / 7 call/.test(r))).toMatch(
      /^\d+ 7 call in summary::observe: func \(s \*summary\) observe\(\) \{ s\.rotate\(\) \}$/,
    );
    const callers = await callersOf('rotate', 'write/summary.go');
    expect(callers).toHaveLength(1);
    expect(callers[0]).toMatch(/\twrite\/summary\.go:7\tin summary::observe$/);
  });
});

describe('a function nested in another', () => {
  // A `warn` nested in a method's body, and a call of another `warn` elsewhere (SQLAlchemy's
  // `util.warn(...)` was a candidate call of such a nested `warn`, an agent trial).
  const WIDGET_PY = [
    'class Widget:',
    '    def __init__(self):',
    '        def warn(msg):',
    '            print(msg)',
    '',
    '        warn("made")',
    '',
  ].join('\n');
  const RUN_PY = ['from warnings import warn', '', 'def run():', '    warn("late")', '    return 1', ''].join('\n');
  let local: IndexedRepo;
  beforeAll(async () => {
    local = await indexedRepo('tp-nav-nested-', { 'ui/widget.py': WIDGET_PY, 'app/run.py': RUN_PY });
  });

  async function calleesOf(query: string[]): Promise<string[]> {
    return (await ctxLinesOf(local, query)).filter((l) => l.startsWith('callee:'));
  }

  it('is no callee of a call outside the function it is defined in', async () => {
    expect((await calleesOf(['sym:run'])).join('\n')).not.toMatch(/warn/);
  });

  it('is the callee of a call inside that function', async () => {
    expect(
      (await calleesOf(['sym:Widget::__init__'])).some((l) => /ui\/widget\.py:3\tfunction __init__::warn$/.test(l)),
    ).toBe(true);
  });
});
