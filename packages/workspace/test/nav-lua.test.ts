// Lua modules as Penlight writes them (an agent trial, 2026-12-05): a module is a table
// (`local utils = {}` … `function utils.assert_arg`), a file's `local function` is private,
// and `table.sort`, `os.execute`, a bare `error(...)` are Lua's own; and `show sym:` of a
// type names the members its file defines outside it (Lua tables, Rust `impl` blocks).
// Real repositories, real tree-sitter parses (the Luau and Rust extractors).
import { ctxCommand, mapCommand, refsCommand, searchCommand, showCommand } from '../src';
import { indexedRepo, type IndexedRepo } from './ws-helpers';

const FILES = {
  'pl/utils.lua': [
    'local utils = {}',
    '',
    'function utils.assert_arg(n, val, tp)',
    '    if type(val) ~= tp then',
    '        error(("argument %d expected a %s"):format(n, tp), 2)',
    '    end',
    '    return val',
    'end',
    '',
    'return utils',
    '',
  ].join('\n'),
  'pl/lexer.lua': [
    'local function assert_arg(idx, val, tp)',
    '    return val',
    'end',
    '',
    'local lexer = {}',
    '',
    'function lexer.scan(s)',
    '    assert_arg(1, s, "string")',
    '    return s',
    'end',
    '',
    'return lexer',
    '',
  ].join('\n'),
  'pl/seq.lua': [
    'local utils = require "pl.utils"',
    'local assert_arg = utils.assert_arg',
    'local seq = {}',
    '',
    'function seq.count(s)',
    '    assert_arg(1, s, "table")',
    '    return #s',
    'end',
    '',
    'return seq',
    '',
  ].join('\n'),
  'pl/text.lua': [
    'local text = {}',
    'local Template = {}',
    'text.Template = Template',
    'Template.__index = Template',
    '',
    'function Template.new(tmpl)',
    '    return setmetatable({ tmpl = tmpl }, Template)',
    'end',
    '',
    'function Template:substitute(tbl)',
    '    return self.tmpl',
    'end',
    '',
    'return text',
    '',
  ].join('\n'),
  'pl/tablex.lua': [
    'local utils = require "pl.utils"',
    'local tablex = {}',
    '',
    'function tablex.sort(t, f)',
    '    local keys = {}',
    '    for k in pairs(t) do keys[#keys + 1] = k end',
    '    table.sort(keys, f)',
    '    return keys',
    'end',
    '',
    'function tablex.execute(cmd)',
    '    return os.execute(cmd)',
    'end',
    '',
    'function tablex.error(msg)',
    '    error(msg, 2)',
    'end',
    '',
    'return tablex',
    '',
  ].join('\n'),
};

// Neovim's runtime (an agent trial, 2026-12-06): a class table's methods call each other
// through `self:`, other objects' methods of the same name through their own receiver.
const TREES = {
  'lua/vim/treesitter/languagetree.lua': [
    'local LanguageTree = {}',
    'LanguageTree.__index = LanguageTree',
    '',
    'function LanguageTree.new(source)',
    '  return setmetatable({ _source = source }, LanguageTree)',
    'end',
    '',
    'function LanguageTree:parse()',
    '  local tree = self._parser:parse(self._source)',
    '  self:_do_callback(tree)',
    '  return tree',
    'end',
    '',
    'function LanguageTree:_do_callback(tree)',
    '  return tree',
    'end',
    '',
    'return LanguageTree',
    '',
  ].join('\n'),
  'lua/vim/lsp/util.lua': [
    'local M = {}',
    '',
    'function M.apply_text_edits(edits)',
    '  return edits',
    'end',
    '',
    'return M',
    '',
  ].join('\n'),
  'lua/vim/lsp/buf.lua': [
    "local util = require('vim.lsp.util')",
    "local tree = require('vim.treesitter')",
    'local M = {}',
    '',
    'function M.format(edits)',
    '  util.apply_text_edits(edits)',
    '  tree.start()',
    'end',
    '',
    'return M',
    '',
  ].join('\n'),
  // No require: Neovim's modules are global tables named by their require path.
  'lua/vim/lsp/handlers.lua': [
    'local M = {}',
    '',
    'function M.apply(edits)',
    '  vim.lsp.util.apply_text_edits(edits)',
    '  vim.fn.apply_text_edits(edits)',
    'end',
    '',
    'return M',
    '',
  ].join('\n'),
  'lua/vim/other.lua': [
    'local M = {}',
    '',
    'function M.apply_text_edits(x)',
    '  return x',
    'end',
    '',
    'return M',
    '',
  ].join('\n'),
  'lua/vim/treesitter/init.lua': [
    'local M = {}',
    '',
    'function M.start()',
    '  return true',
    'end',
    '',
    'return M',
    '',
  ].join('\n'),
  'lua/vim/treesitter/highlighter.lua': [
    'local M = {}',
    '',
    'function M.attach(tree)',
    '  M.tree = tree',
    '  M.tree:parse()',
    'end',
    '',
    'function M.get(lang_tree)',
    '  local self = lang_tree',
    '  self:parse()',
    'end',
    '',
    'return M',
    '',
  ].join('\n'),
};

const RUST = {
  'src/bucket.rs': [
    'pub struct TokenBucket {',
    '    tokens: f64,',
    '}',
    '',
    'impl TokenBucket {',
    '    pub fn new() -> Self {',
    '        TokenBucket { tokens: 0.0 }',
    '    }',
    '',
    '    pub fn refill(&mut self) {',
    '        self.tokens += 1.0;',
    '    }',
    '}',
    '',
  ].join('\n'),
};

let repo: IndexedRepo;
let rust: IndexedRepo;
let trees: IndexedRepo;
const rows = (stdout: string) => stdout.trimEnd().split('\n');

beforeAll(async () => {
  repo = await indexedRepo('tp-nav-lua-', FILES);
  rust = await indexedRepo('tp-nav-impl-', RUST);
  trees = await indexedRepo('tp-nav-lua-self-', TREES);
});

describe('members written outside a type', () => {
  it("show sym: of a Rust struct names its impl block's methods after its fields", async () => {
    const out = rows((await showCommand('sym:TokenBucket', rust.at())).stdout);
    expect(out).toContain('members: 6 new, 10 refill');
  });
});

describe('Lua modules', () => {
  it("show sym: takes the module table's function over a file's local copy", async () => {
    const out = rows((await showCommand('sym:assert_arg', repo.at())).stdout);
    expect(out[0]).toMatch(/^\S+ {2}pl\/utils\.lua:3-8 {2}utils::assert_arg$/);
  });

  it('show sym: of a class table reads the table and names the methods defined on it', async () => {
    const out = rows((await showCommand('sym:Template', repo.at())).stdout);
    expect(out.slice(0, 3)).toEqual([
      expect.stringMatching(/^\S+ {2}pl\/text\.lua:2 {2}Template$/),
      '2\tlocal Template = {}',
      'members: 6 new, 10 substitute, 4 __index',
    ]);
  });

  it("map marks a file's local functions, and a directory's map names the module's functions, not its aliases", async () => {
    const lexer = rows((await mapCommand(['pl/lexer.lua'], repo.at())).stdout);
    expect(lexer.slice(1, 4)).toEqual([
      '1 1-3 local function assert_arg',
      '2 5 local variable lexer',
      '3 7-10 function lexer::scan',
    ]);
    const dir = rows((await mapCommand(['pl/'], repo.at())).stdout);
    expect(dir.find((r) => r.includes('tablex.lua'))).toMatch(/ pl\/tablex\.lua 1-\d+ sort execute error$/);
  });

  it("refs M::f follows a file's local binding of it to the bare calls", async () => {
    const out = rows((await refsCommand(['utils::assert_arg'], repo.at())).stdout);
    const seq = out.indexOf('pl/seq.lua');
    expect(out.slice(seq, seq + 3)).toEqual([
      'pl/seq.lua',
      expect.stringMatching(/^\d+ 2 member: local assert_arg = utils\.assert_arg$/),
      expect.stringMatching(/^\d+ 6 call in seq::count: assert_arg\(1, s, "table"\)$/),
    ]);
    // lexer.lua's own local function of that name is none of its sites.
    expect(out.some((r) => r.includes('pl/lexer.lua'))).toBe(false);
  });

  it("never takes the standard library's table.sort or os.execute for a module's function", async () => {
    const sort = rows((await refsCommand(['tablex::sort'], repo.at())).stdout);
    expect(sort.filter((r) => / 7 /.test(r))).toEqual([]);
    expect(sort[sort.length - 1]).toMatch(/^coverage: 1 site in 1 file /);
    const execute = rows((await refsCommand(['execute'], repo.at())).stdout);
    expect(execute.find((r) => / 12 /.test(r))).toMatch(/^\d+ 12 call unresolved in tablex::execute: /);
  });

  it("a bare call is never a module table's function: Lua's error is not tablex.error", async () => {
    const out = rows((await refsCommand(['error'], repo.at())).stdout);
    expect(out.find((r) => r.includes('error(msg, 2)'))).toMatch(/^\d+ 16 call unresolved in tablex::error: /);
    expect(out.find((r) => r.includes('argument %d'))).toMatch(/^\d+ 5 call unresolved in utils::assert_arg: /);
  });
});

describe('Lua methods called through a receiver (`obj:m()`)', () => {
  const json = (r: { stdout: string }) => JSON.parse(r.stdout);

  it('refs T::m keeps the calls through self and through other objects, as candidates where the receiver is unknown', async () => {
    const page = json(await refsCommand(['LanguageTree::parse'], { ...trees.at(), format: 'json' }));
    const sites = page.hits.map(
      (h: { path: string; start_line: number; resolution: string }) => `${h.path}:${h.start_line} ${h.resolution}`,
    );
    // Before: `self:parse()` and `M.tree:parse()` were dropped (read as bare `parse`), and
    // the C parser's `self._parser:parse(...)` inside LanguageTree:parse was resolved.
    expect(sites).toEqual(
      expect.arrayContaining([
        'lua/vim/treesitter/highlighter.lua:5 candidate',
        'lua/vim/treesitter/highlighter.lua:10 candidate',
        'lua/vim/treesitter/languagetree.lua:9 candidate',
      ]),
    );
    expect(sites).not.toContain('lua/vim/treesitter/languagetree.lua:9 resolved');
  });

  it("ctx of a method resolves its calls through self to its own table's methods, another receiver's as candidates", async () => {
    const hit = json(await searchCommand(['sym:LanguageTree::parse'], { ...trees.at(), format: 'json' })).hits[0];
    const c = json(await ctxCommand(hit.handle, { ...trees.at(), format: 'json' }));
    const callees = c.callees.map(
      (x: { name: string; resolution?: string }) => `${x.name} ${x.resolution ?? 'resolved'}`,
    );
    // Before: `_do_callback` unresolved (a method needs a receiver, and `:` was none), and
    // `self._parser:parse(...)` resolved to the first `parse` of another module.
    expect(callees).toEqual(['LanguageTree::parse candidate', 'LanguageTree::_do_callback resolved']);
  });
});

describe('Lua calls through a required module', () => {
  const json = (r: { stdout: string }) => JSON.parse(r.stdout);
  const sites = async (name: string) =>
    json(await refsCommand([name], { ...trees.at(), format: 'json' })).hits.map(
      (h: { path: string; start_line: number; role: string; resolution: string; definition?: string }) =>
        `${h.path}:${h.start_line} ${h.role} ${h.resolution} ${h.definition ?? ''}`,
    );

  it("resolves util.f() to the module file require('vim.lsp.util') names, and a directory's init.lua", async () => {
    // Before: a candidate of every apply_text_edits (Neovim: 5 of 5 such calls, an agent trial).
    expect(await sites('apply_text_edits')).toContain('lua/vim/lsp/buf.lua:6 call resolved lua/vim/lsp/util.lua:3');
    expect(await sites('start')).toContain('lua/vim/lsp/buf.lua:7 call resolved lua/vim/treesitter/init.lua:3');
  });

  it('resolves vim.lsp.util.f() through the module path its global table chain spells', async () => {
    // Before: a candidate of every apply_text_edits (the Neovim trial's leftover).
    const all = await sites('apply_text_edits');
    expect(all).toContain('lua/vim/lsp/handlers.lua:4 call resolved lua/vim/lsp/util.lua:3');
    // A chain naming no module file (`vim.fn`, Vim functions) decides nothing.
    expect(all.find((x: string) => x.startsWith('lua/vim/lsp/handlers.lua:5 '))).not.toMatch(/resolved/);
  });
});
