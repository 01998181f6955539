// A `sym:` answer of nothing must not read as "not defined" when the name occurs in code the
// index holds as text only. An agent trial on the Neovim runtime took `search
// sym:tohtml#Convert2HTML`'s `0 hits` and `complete` for an answer: the function is defined
// in a Vim script file, which no extractor reads (and which was not even `source:code`).
// Real Git repositories, real tree-sitter parses of the Lua beside it.
import * as path from 'node:path';
import { searchCommand, showCommand } from '../src';
import { git, indexedRepo, json, makeSpace, opts, writeFiles, type IndexedRepo } from './ws-helpers';

const FILES = {
  'autoload/tohtml.vim': [
    '" Convert a buffer to HTML.',
    'func! tohtml#Convert2HTML(line1, line2) "{{{',
    '  return s:Render(a:line1, a:line2)',
    'endfunc',
    '',
  ].join('\n'),
  'plugin/tohtml.vim': 'command -range=% -bar TOhtml :call tohtml#Convert2HTML(<line1>, <line2>)\n',
  'lua/tohtml.lua': 'local M = {}\n\nfunction M.render(lines)\n  return table.concat(lines, "\\n")\nend\n\nreturn M\n',
  'doc/tohtml.txt': 'The :TOhtml command calls Convert2HTML on the range.\n',
};

let repo: IndexedRepo;

beforeAll(async () => {
  repo = await indexedRepo('tp-unparsed-defs-', FILES);
}, 60_000);

describe('a sym: search without hits names the unparsed code that mentions the name', () => {
  it('lists the Vim script files, not the docs, in the coverage line and in JSON', async () => {
    const out = await searchCommand(['sym:Convert2HTML'], repo.at());
    expect(out.exitCode).toBe(0);
    expect(out.stdout.trimEnd().split('\n').pop()).toMatch(
      /; 0 hits; 2 files in languages not parsed for definitions mention it: autoload\/tohtml\.vim, plugin\/tohtml\.vim \(search "Convert2HTML" lists their lines\)$/,
    );
    const coverage = json(await searchCommand(['sym:Convert2HTML'], repo.at({ format: 'json' }))).coverage;
    expect([coverage.hits, coverage.unparsed_files, coverage.unparsed_paths]).toEqual([
      0,
      2,
      ['autoload/tohtml.vim', 'plugin/tohtml.vim'],
    ]);
  });

  it("keeps to the query's filters, and says nothing when a definition is found", async () => {
    const lua = json(await searchCommand(['sym:Convert2HTML', 'lang:lua'], repo.at({ format: 'json' }))).coverage;
    expect(lua.unparsed_files).toBeUndefined();
    const under = json(await searchCommand(['sym:Convert2HTML', 'file:plugin/'], repo.at({ format: 'json' })));
    expect(under.coverage.unparsed_paths).toEqual(['plugin/tohtml.vim']);
    const found = json(await searchCommand(['sym:render'], repo.at({ format: 'json' })));
    expect(found.hits.map((h: { path: string }) => h.path)).toEqual(['lua/tohtml.lua']);
    expect(found.coverage.unparsed_files).toBeUndefined();
  });

  it('show sym: fails no_definition naming them', async () => {
    const out = await showCommand('sym:Convert2HTML', repo.at());
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toContain(
      'no definition of Convert2HTML is indexed; 2 files in languages not parsed for definitions mention it: autoload/tohtml.vim, plugin/tohtml.vim (search "Convert2HTML" lists their lines)',
    );
  });

  it('counts Vim script as code: source:code finds it', async () => {
    const out = json(await searchCommand(['Convert2HTML', 'source:code'], repo.at({ format: 'json' })));
    expect(out.hits.map((h: { path: string }) => h.path).sort()).toEqual(['autoload/tohtml.vim', 'plugin/tohtml.vim']);
  });
});

describe('in a workspace', () => {
  it("names them in the member's coverage, with the member's prefix", async () => {
    const space = makeSpace('unparsed');
    writeFiles(space.app, { 'scripts/bucket.vim': 'func! bucket#RefillAll()\n  call system("refill")\nendfunc\n' });
    git(space.app, 'add', '-A');
    git(space.app, 'commit', '-q', '-m', 'vim');
    const at = opts(space, path.join(space.base), { format: 'json' });
    const out = json(await searchCommand(['sym:RefillAll', 'ws:all'], at));
    expect(out.coverage.members.app.unparsed_paths).toEqual(['app/scripts/bucket.vim']);
    expect(out.coverage.members.lib.unparsed_files).toBeUndefined();
    const lines = await searchCommand(['sym:RefillAll', 'ws:all'], { ...at, format: 'lines' });
    expect(lines.stdout).toContain(
      'app complete 0 hits (1 file in languages not parsed for definitions mention it: app/scripts/bucket.vim (search "RefillAll" lists their lines))',
    );
  }, 60_000);
});
