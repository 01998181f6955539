// Rust module paths in refs (navigation/src/resolve.ts rustPathTrail): `context::budget(...)`
// names the `budget` of the module the file's `use crate::runtime::context;` binds, not the
// file's own `budget`; `crate::runtime::coop::budget` resolves through the crate root; a
// path into another crate is none of the index's definitions; and `scheduler::Handle::current`
// is the `current` of the Handle in `scheduler`, not of another Handle. Real tree-sitter parses.
import { ctxLinesOf, ctxRows, indexedRepo, refsSites, type IndexedRepo } from './ws-helpers';

const FILES = {
  'Cargo.toml': '[package]\nname = "rt"\nversion = "0.1.0"\n',
  'src/lib.rs': 'pub mod runtime;\n',
  'src/runtime/mod.rs':
    'pub(crate) mod context;\npub(crate) mod coop;\npub mod handle;\npub mod park;\npub mod scheduler;\n',
  'src/runtime/context.rs': [
    'pub(crate) struct Context {',
    '    budget: u32,',
    '}',
    '',
    'pub(super) fn budget<R>(f: impl FnOnce(u32) -> R) -> R {',
    '    f(0)',
    '}',
    '',
  ].join('\n'),
  'src/runtime/coop.rs': [
    'use crate::runtime::context;',
    '',
    'pub(crate) fn budget<R>(f: impl FnOnce() -> R) -> R {',
    '    context::budget(|_| ());',
    '    f()',
    '}',
    '',
    'fn again() {',
    '    budget(|| ());',
    '    let _ = std::mem::budget(1);',
    '}',
    '',
  ].join('\n'),
  'src/runtime/builder.rs':
    'pub struct Builder;\n\nimpl Builder {\n    pub fn max_threads(&mut self, n: usize) -> &mut Self {\n        self\n    }\n}\n',
  // A test named after the method it tests.
  'tests/rt.rs': 'fn max_threads() {\n    rt::runtime::builder::Builder.max_threads(1);\n}\n',
  // The build picks one of two imports of a name: which one a call means is not the file's to say.
  'src/runtime/blocking.rs': 'pub fn spawn_blocking() {}\n',
  'src/runtime/mocks.rs': 'pub fn spawn_blocking() {}\n',
  'src/runtime/file.rs':
    '#[cfg(test)]\nuse crate::runtime::mocks::spawn_blocking;\n#[cfg(not(test))]\nuse crate::runtime::blocking::spawn_blocking;\n\nfn read() {\n    spawn_blocking();\n}\n',
  'src/runtime/park.rs': 'fn block_on() {\n    crate::runtime::coop::budget(|| ());\n}\n',
  // A free function named like a method called on a value (h2's `fn map_err` beside `r.map_err(…)`).
  'src/runtime/codec.rs':
    'fn map_err(e: u8) -> u8 {\n    e\n}\n\nfn decode(r: Result<u8, u8>) -> Result<u8, u8> {\n    r.map_err(|e| e)\n}\n',
  'src/runtime/scheduler.rs':
    'pub struct Handle;\n\nimpl Handle {\n    pub fn current() -> Handle {\n        Handle\n    }\n}\n',
  'src/runtime/handle.rs': [
    'use crate::runtime::scheduler;',
    '',
    'pub struct Handle {',
    '    inner: scheduler::Handle,',
    '}',
    '',
    'impl Handle {',
    '    pub fn current() -> Self {',
    '        Handle { inner: scheduler::Handle::current() }',
    '    }',
    '}',
    '',
  ].join('\n'),
};

describe('Rust refs through module paths', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-nav-rust-paths-', FILES);
  });

  const sitesOf = (words: string[]) => refsSites(repo, words);

  it("resolves a module path through the file's use, the crate root, or not at all", async () => {
    const sites = await sitesOf(['budget']);
    const at = (p: string, line: number) => sites.find((s) => s.path === p && s.start_line === line);
    // The function of context.rs, not its struct's field, and not coop.rs's own budget.
    expect(at('src/runtime/coop.rs', 4)).toMatchObject({
      role: 'call',
      resolution: 'resolved',
      definition: 'src/runtime/context.rs:5',
    });
    expect(at('src/runtime/coop.rs', 9)).toMatchObject({ resolution: 'resolved', definition: 'src/runtime/coop.rs:3' });
    expect(at('src/runtime/park.rs', 2)).toMatchObject({ resolution: 'resolved', definition: 'src/runtime/coop.rs:3' });
    // Another crate's: none of the index's.
    expect(at('src/runtime/coop.rs', 10)).toMatchObject({ resolution: 'unresolved' });
    expect(at('src/runtime/coop.rs', 10)?.definition).toBeUndefined();
  });

  it("a method call is no site of the file's own free function of that name", async () => {
    const sites = await sitesOf(['max_threads']);
    const call = sites.find((s) => s.path === 'tests/rt.rs' && s.start_line === 2);
    expect(call).toMatchObject({ resolution: 'candidate', definition: 'src/runtime/builder.rs:4' });
  });

  it("ctx: a method call is no callee of the file's own free function", async () => {
    // ctx of h2's `SendRequest::send_request` gave framed_read.rs's `fn map_err` as a
    // certain callee of `.map_err(…)` on a Result (an agent trial).
    const callees = ctxRows(await ctxLinesOf(repo, ['sym:decode']), 'callee');
    expect(callees.filter((c) => c.includes('map_err'))).toEqual([]);
  });

  it('a name two imports bind to different definitions is a candidate', async () => {
    const sites = await sitesOf(['spawn_blocking']);
    const call = sites.find((s) => s.path === 'src/runtime/file.rs' && s.start_line === 7);
    expect(call).toMatchObject({ role: 'call', resolution: 'candidate' });
    expect(call?.definition).toBeUndefined();
  });

  it("refs Type::name keeps a path's type to the module that path names", async () => {
    const sites = await sitesOf(['Handle::current']);
    const inner = sites.find((s) => s.path === 'src/runtime/handle.rs' && s.start_line === 9);
    expect(inner).toMatchObject({ resolution: 'resolved', definition: 'src/runtime/scheduler.rs:4' });
  });
});
