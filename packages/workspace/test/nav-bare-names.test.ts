// A bare name never means a member in languages that reach members only through a receiver
// (navigation/src/refs.ts RECEIVER_ONLY_MEMBERS): rich's `return cell_len(self.plain)` inside
// the property `Text.cell_len` calls the `cell_len` that text.py imports from cells.py. Real
// git repository, real tree-sitter parses.
import { showCommand } from '../src';
import { errorCode, indexedRepo, refsSites, type IndexedRepo } from './ws-helpers';

const FILES = {
  'rich/__init__.py': '',
  'rich/cells.py': 'def cell_len(text):\n    return len(text)\n',
  'rich/text.py': [
    'from .cells import cell_len',
    '',
    '',
    'class Text:',
    '    def __init__(self, plain):',
    '        self.plain = plain',
    '',
    '    @property',
    '    def cell_len(self):',
    '        return cell_len(self.plain)',
    '',
    '    def width(self):',
    '        return self.cell_len',
    '',
  ].join('\n'),
};

describe('bare names and members', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-nav-bare-', FILES);
  });

  it("resolves a bare call through the file's import, not to the file's own member of that name", async () => {
    const sites = await refsSites(repo, ['cell_len', 'file:rich/text.py']);
    const at = (line: number) => sites.find((s) => s.start_line === line);
    // Before: `call → rich/text.py:9`, the property.
    expect(at(10)).toMatchObject({ role: 'call', resolution: 'resolved', definition: 'rich/cells.py:1' });
    // Through the receiver: the property.
    expect(at(13)?.definition).toBe('rich/text.py:9');
  });

  it('show sym:A.b, as Python spells a member, reads A::b', async () => {
    const out = await showCommand('sym:Text.cell_len', repo.at({ format: 'json' }));
    expect(errorCode(out)).toBeUndefined();
    expect(JSON.parse(out.stdout).name).toBe('Text::cell_len');
  });
});
