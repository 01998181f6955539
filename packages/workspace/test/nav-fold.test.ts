// `show sym:` folds a long Python docstring, or a long doc comment above a definition, to its
// summary (and tags) and one row naming the exact read of the rest (@trufflepig/navigation
// fold.ts); short ones, comments inside a body and exact reads (`show HANDLE`, `show path:`)
// print every row. Real repository, real tree-sitter parses.
import { countTokens, splitRows } from '@trufflepig/render';
import { showCommand } from '../src';
import { foldDocstring } from '@trufflepig/navigation';
import { indexedRepo, json, type IndexedRepo } from './ws-helpers';

const DOC_LINES = Array.from({ length: 20 }, (_, i) => `    :param p${i}: what parameter ${i} means, at some length.`);
const HELPERS = [
  'def url_for(',
  '    endpoint: str,',
  '    *,',
  '    _anchor: str = None,',
  ') -> str:',
  '    """Generate a URL to the given endpoint.',
  '',
  ...DOC_LINES,
  '    """',
  '    return "/" + endpoint',
  '',
  '',
  'def short(x):',
  '    """One line."""',
  '    return x',
  '',
  '',
  'def few(x):',
  "    '''",
  '    Summary on its own row.',
  '    Two more rows.',
  "    '''",
  '    return x',
  '',
  '',
  'def quoted_first(x):',
  '    """',
  '    Summary on the second row.',
  ...DOC_LINES,
  '    """',
  '    return x',
  '',
].join('\n');

const JS = [
  'function urlFor(endpoint) {',
  '  /*',
  ...DOC_LINES.map((l) => `   * ${l.trim()}`),
  '   */',
  '  return "/" + endpoint;',
  '}',
  '',
].join('\n');

let repo: IndexedRepo;
const at: IndexedRepo['at'] = (more) => repo.at(more);
const lines = (stdout: string) => stdout.trimEnd().split('\n');

beforeAll(async () => {
  repo = await indexedRepo('tp-nav-fold-', { 'app/helpers.py': HELPERS, 'web/url.js': JS });
});

describe('show sym: folds long Python docstrings', () => {
  it('keeps the signature, the summary and the code; one row names the read of the rest', async () => {
    const out = await showCommand('sym:url_for', at());
    expect(out.exitCode).toBe(0);
    const rows = lines(out.stdout);
    expect(rows[0]).toMatch(/^[0-9a-z]{6,}:1 {2}app\/helpers\.py:1-29 {2}url_for$/);
    expect(rows.slice(1, 9)).toEqual([
      '1\tdef url_for(',
      '2\t    endpoint: str,',
      '3\t    *,',
      '4\t    _anchor: str = None,',
      '5\t) -> str:',
      '6\t    """Generate a URL to the given endpoint.',
      '7-28\t… 22 docstring lines (show path:app/helpers.py:7-28)',
      '29\t    return "/" + endpoint',
    ]);
    // The named read prints exactly the folded rows.
    const rest = lines((await showCommand('path:app/helpers.py:7-28', at())).stdout);
    expect(rest[1]).toBe('7\t');
    expect(rest[22]).toBe('28\t    """');
    expect(rest).toHaveLength(23);
    // Folding is what makes it cheap: the same read unfolded costs over twice as much.
    const whole = await showCommand(`${rows[0].split(' ')[0]}`, at());
    expect(lines(whole.stdout)).toHaveLength(1 + 29);
    expect(countTokens(whole.stdout)).toBeGreaterThan(
      2 * countTokens(out.stdout.split('\nalso')[0].split('\nrefs')[0]),
    );
  });

  it('keeps the summary row after a row of bare quotes', async () => {
    const rows = lines((await showCommand('sym:quoted_first', at())).stdout);
    expect(rows.slice(1, 5)).toEqual([
      '45\tdef quoted_first(x):',
      '46\t    """',
      '47\t    Summary on the second row.',
      '48-68\t… 21 docstring lines (show path:app/helpers.py:48-68)',
    ]);
    expect(rows[5]).toBe('69\t    return x');
  });

  it('prints short and one-row docstrings whole, and never folds other languages', async () => {
    expect(lines((await showCommand('sym:short', at())).stdout).slice(1, 4)).toEqual([
      '32\tdef short(x):',
      '33\t    """One line."""',
      '34\t    return x',
    ]);
    expect(lines((await showCommand('sym:few', at())).stdout).slice(1, 7)).toEqual([
      '37\tdef few(x):',
      "38\t    '''",
      '39\t    Summary on its own row.',
      '40\t    Two more rows.',
      "41\t    '''",
      '42\t    return x',
    ]);
    const js = lines((await showCommand('sym:urlFor', at())).stdout);
    expect(js.filter((l) => l.includes('…'))).toEqual([]);
    expect(js).toContain('24\t  return "/" + endpoint;');
  });

  it('JSON carries the fold as a row with its span and read', async () => {
    const page = json(await showCommand('sym:url_for', at({ format: 'json' })));
    const fold = page.rows.find((r: { folded?: string }) => r.folded);
    expect(fold).toMatchObject({ line: 7, end_line: 28, folded: 'docstring', read: 'show path:app/helpers.py:7-28' });
    expect(page.rows.filter((r: { folded?: string }) => !r.folded).map((r: { line: number }) => r.line)).toEqual([
      1, 2, 3, 4, 5, 6, 29,
    ]);
    expect(page.end_line).toBe(29);
  });
});

describe('foldDocstring', () => {
  const rowsOf = (text: string) => splitRows(Buffer.from(text), 0, Buffer.byteLength(text), 1);
  const read = (a: number, b: number) => `read ${a}-${b}`;

  it('leaves a definition with no docstring, or an unclosed one, unchanged', () => {
    const code = ['def f(x):', '    y = """not a docstring', ...DOC_LINES, '    """', '    return y'].join('\n');
    expect(foldDocstring(rowsOf(code), read)).toHaveLength(rowsOf(code).length);
    const unclosed = ['def f(x):', '    """Open', ...DOC_LINES].join('\n');
    expect(foldDocstring(rowsOf(unclosed), read)).toHaveLength(rowsOf(unclosed).length);
  });

  it('folds a prefixed docstring after a signature with a trailing comment', () => {
    const text = ['def f(x):  # fast path', '    r"""Raw summary.', ...DOC_LINES, '    """', '    return x'].join('\n');
    const folded = foldDocstring(rowsOf(text), read);
    expect(folded).toHaveLength(4);
    expect(folded[2]).toMatchObject({ line: 3, endLine: 23, folded: 'docstring', read: 'read 3-23' });
  });
});

describe('show sym: folds a long doc comment above a definition', () => {
  // Java's ThreadPoolExecutor::execute and PHP's Request::getClientIp lost their whole
  // Javadoc and PHPDoc, @throws and @return included, past 12 lines (agent trials).
  const JAVA = [
    'package demo;',
    '',
    'public class Pool {',
    '    /**',
    '     * Executes the given task sometime in the future.',
    '     *',
    ...Array.from({ length: 10 }, (_, i) => `     * Detail ${i} of how a task is queued or run.`),
    '     *',
    '     * @param command the task to execute',
    '     * @throws IllegalStateException if the pool is shut down',
    '     */',
    '    public void execute(Runnable command) {',
    '        command.run();',
    '    }',
    '',
    '    /**',
    '     * Shuts the pool down.',
    '     */',
    '    public void shutdown() {',
    '    }',
    '}',
    '',
  ].join('\n');
  let java: IndexedRepo;
  beforeAll(async () => {
    java = await indexedRepo('tp-nav-fold-java-', { 'src/demo/Pool.java': JAVA });
  });

  it('keeps the summary and the tag block, one row names the read of the rest', async () => {
    const out = lines((await showCommand('sym:Pool::execute', java.at())).stdout);
    expect(out.slice(0, 10)).toEqual([
      expect.stringMatching(/^[0-9a-z]{6,}:1 {2}src\/demo\/Pool\.java:4-23 {2}Pool::execute$/),
      '4\t    /**',
      '5\t     * Executes the given task sometime in the future.',
      '6-17\t… 12 doc comment lines (show path:src/demo/Pool.java:6-17)',
      '18\t     * @param command the task to execute',
      '19\t     * @throws IllegalStateException if the pool is shut down',
      '20\t     */',
      '21\t    public void execute(Runnable command) {',
      '22\t        command.run();',
      '23\t    }',
    ]);
    // A short one prints whole.
    const short = lines((await showCommand('sym:Pool::shutdown', java.at())).stdout);
    expect(short.slice(1, 4)).toEqual(['25\t    /**', '26\t     * Shuts the pool down.', '27\t     */']);
  });
});

describe('show sym: reads a long Lua doc comment above a function, folded', () => {
  // Neovim's `lsp.start_client` has 105 lines of `---` documentation above it: past the old
  // 80-line cap it was left out whole, and `---@param` was no tag (an agent trial).
  const LUA = [
    'local lsp = {}',
    '',
    '--- Starts and initializes a client with the given configuration.',
    '---',
    ...Array.from({ length: 96 }, (_, i) => `--- Detail ${i} of a configuration field.`),
    '---',
    '---@param config table of client options',
    '---@returns Client id.',
    'function lsp.start_client(config)',
    '  return config',
    'end',
    '',
    'return lsp',
    '',
  ].join('\n');
  let lua: IndexedRepo;
  beforeAll(async () => {
    lua = await indexedRepo('tp-nav-fold-lua-', { 'lua/vim/lsp.lua': LUA });
  });

  it('keeps its summary and its tags, one row names the read of the rest', async () => {
    const out = lines((await showCommand('sym:start_client', lua.at())).stdout);
    expect(out.slice(0, 7)).toEqual([
      expect.stringMatching(/^[0-9a-z]{6,}:1 {2}lua\/vim\/lsp\.lua:3-\d+ {2}lsp::start_client$/),
      '3\t--- Starts and initializes a client with the given configuration.',
      '4-101\t… 98 doc comment lines (show path:lua/vim/lsp.lua:4-101)',
      '102\t---@param config table of client options',
      '103\t---@returns Client id.',
      '104\tfunction lsp.start_client(config)',
      '105\t  return config',
    ]);
  });
});
