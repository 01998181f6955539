// `ctx` of a hit inside a doc comment answers for the definition the comment documents
// (documentedBy in @trufflepig/navigation ctx.ts): Rust `///` lines precede their item, outside its span, and
// an agent trial's top hit for "prevent stack overflow on deeply nested JSON" was such a
// comment, for which ctx said nothing. Real repository, real tree-sitter parse.
import { ctxCommand, searchCommand, showCommand } from '../src';
import { indexedRepo, type IndexedRepo } from './ws-helpers';

// Longer than a hit's definition span (80 lines): the hit stays a window inside the comment
// (a shorter comment's hit spans the comment and the method, core/spans.ts).
const DOC = Array.from(
  { length: 90 },
  (_, i) => `    /// Line ${i} of the documentation${i === 12 ? ' about a zebra that overflows the giraffe' : ''}.`,
);
const RUST = [
  'pub struct Deserializer { remaining_depth: u8 }',
  '',
  'impl Deserializer {',
  ...DOC,
  '    #[cfg(feature = "unbounded_depth")]',
  '    pub fn disable_recursion_limit(&mut self) {',
  '        self.remaining_depth = 0;',
  '    }',
  '}',
  '',
  '// A comment that documents nothing: a blank line follows it.',
  '',
  'pub fn other() {}',
  '',
].join('\n');

// A short doc comment: a hit on it spans the comment and the function it documents.
const GO = [
  'package prometheus',
  '',
  'type summary struct{ streams []int }',
  '',
  '// maybeRotateStreams rotates the age buckets once their expiry has passed.',
  '// It is called with the lock held.',
  'func (s *summary) maybeRotateStreams() {',
  '\ts.streams = s.streams[1:]',
  '}',
  '',
  'func (s *summary) observe() {',
  '\ts.maybeRotateStreams()',
  '}',
  '',
].join('\n');

// A documented method of a class: `show sym:` reads it from its doc comment, inside the class.
const RUBY = [
  'module Hooks',
  '  class Chain',
  '    def halted',
  '      false',
  '    end',
  '',
  '    # Runs the chain of hooks of a kind.',
  '    # Stops when one halts.',
  '    def run_hooks(kind)',
  '      halted || kind',
  '    end',
  '  end',
  'end',
  '',
].join('\n');
const JAVA = [
  'package p;',
  '',
  'class Chain {',
  '  boolean halted() { return false; }',
  '',
  '  /**',
  '   * Runs the chain of hooks of a kind.',
  '   */',
  '  @Deprecated',
  '  int runHooks(int kind) {',
  '    return halted() ? 0 : kind;',
  '  }',
  '}',
  '',
].join('\n');

let repo: IndexedRepo;
beforeAll(async () => {
  repo = await indexedRepo('tp-nav-ctx-doc-', {
    'src/de.rs': RUST,
    'summary.go': GO,
    'lib/hooks.rb': RUBY,
    'src/p/Chain.java': JAVA,
  });
});

describe('ctx of a doc comment', () => {
  it('answers for the definition the comment documents, and says so', async () => {
    const page = (await searchCommand(['zebra', 'giraffe'], repo.at())).stdout.split('\n');
    const [handle, where] = page[0].split(/ {2}/);
    expect(where).toMatch(/^src\/de\.rs:\d+-\d+$/);
    const end = Number(where.split('-').pop());
    expect(end).toBeLessThan(94);
    const out = (await ctxCommand(handle, repo.at())).stdout.split('\n');
    expect(out[0]).toMatch(/^symbol: \S+\tsrc\/de\.rs:95\tmethod Deserializer::disable_recursion_limit$/);
    expect(out).toContain('ctx: the span documents Deserializer::disable_recursion_limit (line 95), which follows it');
  });

  it('answers for the definition a hit spans with its doc comment', async () => {
    const page = (await searchCommand(['rotates', 'expiry', 'lang:go'], repo.at())).stdout.split('\n');
    const [handle, where, name] = page[0].split(/ {2}/);
    expect([where, name]).toEqual(['summary.go:5-9', 'summary::maybeRotateStreams']);
    // Before: `ctx: no definition holds this span, and nothing indexed contains it`.
    const out = (await ctxCommand(handle, repo.at())).stdout.split('\n');
    expect(out[0]).toMatch(/^symbol: \S+\tsummary\.go:7\tmethod summary::maybeRotateStreams$/);
    expect(out.some((l) => /^caller: .*summary::observe$/.test(l))).toBe(true);
  });

  it('does not take a comment a blank line separates for a doc comment', async () => {
    const page = (await searchCommand(['"documents nothing"'], repo.at())).stdout.split('\n');
    const out = (await ctxCommand(page[0].split(/ {2}/)[0], repo.at())).stdout;
    expect(out).not.toMatch(/documents other/);
  });

  // documentedMember in navigation's ctx.ts: the class holding the span was the answer (`ctx`
  // of show sym:Callbacks::run_callbacks answered module Callbacks, an agent trial on ActiveSupport).
  it.each([
    ['Chain::run_hooks', /^symbol: \S+\tlib\/hooks\.rb:9\tmethod Chain::run_hooks$/],
    ['Chain::runHooks', /^symbol: \S+\tsrc\/p\/Chain\.java:9\tmethod Chain::runHooks$/],
  ])('answers for a documented method of a class that show sym:%s reads with its comment', async (name, symbol) => {
    const shown = (await showCommand(`sym:${name}`, repo.at())).stdout.split('\n');
    const [handle, where] = shown[0].split(/ {2}/);
    // The handle spans the doc comment: it starts above the method's own line.
    expect(where).toMatch(/:(7-11|6-12)$/);
    const out = (await ctxCommand(handle, repo.at())).stdout.split('\n');
    expect(out[0]).toMatch(symbol);
    expect(out[1]).toMatch(/^container: .*\tclass (Hooks::)?Chain$/);
  });
});
