// `ctx` of a hit inside a doc comment answers for the definition the comment documents
// (documentedBy in @trufflepig/navigation ctx.ts): Rust `///` lines precede their item, outside its span, and
// an agent trial's top hit for "prevent stack overflow on deeply nested JSON" was such a
// comment, for which ctx said nothing. Real repository, real tree-sitter parse.
import { ctxCommand, searchCommand } from '../src';
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

let repo: IndexedRepo;
beforeAll(async () => {
  repo = await indexedRepo('tp-nav-ctx-doc-', { 'src/de.rs': RUST, 'summary.go': GO });
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
});
