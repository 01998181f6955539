// Django 3.2 (an agent trial, the tree rooted at the `django` package itself): every
// absolute `from django.… import` was unresolved, so `ctx` of constant_time_compare listed
// none of its callers and said nothing of them, `ctx` of Model::full_clean said
// `overridden by 145` (the classes past the override walk's cap, counted as overrides) of
// a method no subclass overrides. Real repositories, real tree-sitter parses.
import { ctxCommand, searchCommand } from '../src';
import { ctxLinesOf, ctxRows, indexedRepo, refsSites, type IndexedRepo } from './ws-helpers';

/** 34 models deriving from Model, past the 30 classes the override walk reads downward. */
function models(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 34; i++)
    files[`apps/m${i}.py`] = `from repo.db.base import Model\n\nclass M${i}(Model):\n    name = ${i}\n`;
  // Below the last of them: overrides, found upward from the name's methods.
  files['apps/special.py'] =
    'from repo.apps.m33 import M33\n\nclass Special(M33):\n    def full_clean(self):\n        return 1\n';
  return files;
}

describe('Python packages and wide hierarchies', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    // The repository root is the package `repo` (its directory's name, with __init__.py).
    repo = await indexedRepo('tp-nav-pypkg-', {
      '__init__.py': '',
      'db/__init__.py': '',
      'db/base.py':
        'class Model:\n    def full_clean(self):\n        return 0\n\n    def save(self):\n        self.full_clean()\n',
      'utils/__init__.py': '',
      'utils/crypto.py': 'def constant_time_compare(a, b):\n    return a == b\n',
      'middleware/__init__.py': '',
      'middleware/csrf.py':
        'from repo.utils.crypto import constant_time_compare\n\n\ndef check(a, b):\n    return constant_time_compare(a, b)\n',
      // A package below the root (a `src/` layout): `shop` is a top-level package there.
      'src/shop/__init__.py': '',
      'src/shop/money.py': 'def rounded(x):\n    return round(x)\n',
      'src/shop/cart.py': 'from shop.money import rounded\n\n\ndef total(xs):\n    return rounded(sum(xs))\n',
      // `import json` is the standard library's, never a package's module of the name.
      'utils/json.py': 'def dumps(x):\n    return str(x)\n',
      'views.py': 'import json\n\n\ndef render(x):\n    return json.dumps(x)\n',
      // A constant's readers, and a call through an import the index cannot follow.
      'conf.py': 'MAX_FIELDS = 1000\n',
      'forms.py':
        'from repo.conf import MAX_FIELDS\nfrom vendored.lib import helper\n\n\ndef check(n):\n    helper()\n    return n < MAX_FIELDS\n',
      'utils/helpers.py': 'def helper():\n    return None\n',
      // Another object's method of the name, called beside the file's own.
      'forms/__init__.py': '',
      'forms/formsets.py': [
        'from repo.forms.forms import ManagementForm',
        '',
        'class BaseFormSet:',
        '    def management_form(self):',
        '        form = ManagementForm()',
        '        form.full_clean()',
        '        self.full_clean()',
        '',
        '    def full_clean(self):',
        '        return 2',
        '',
      ].join('\n'),
      'forms/forms.py': 'class ManagementForm:\n    def full_clean(self):\n        return 3\n',
      ...models(),
    });
  });

  it('resolves an absolute import of the package the root is', async () => {
    const callers = ctxRows(await ctxLinesOf(repo, ['sym:constant_time_compare']), 'caller');
    expect(callers).toEqual(['middleware/csrf.py:5 in check']);
  });

  it('resolves an absolute import of a package below the root', async () => {
    const sites = await refsSites(repo, ['rounded']);
    expect(sites.filter((s) => s.role === 'call').map((s) => `${s.path}:${s.start_line} ${s.resolution}`)).toEqual([
      'src/shop/cart.py:5 resolved',
    ]);
  });

  it('never reads a standard module as a package module of its name', async () => {
    const call = (await refsSites(repo, ['dumps'])).find((s) => s.path === 'views.py');
    expect(call?.resolution).toBe('unresolved');
  });

  it('lists overrides past the downward walk, and counts none that are not there', async () => {
    const lines = await ctxLinesOf(repo, ['sym:Model::full_clean']);
    expect(ctxRows(lines, 'override')).toEqual(['apps/special.py:4 method Special::full_clean']);
    expect(lines.filter((l) => l.startsWith('omitted:') && l.includes('overridden by'))).toEqual([]);
  });

  it('says callers are incomplete when refs holds sites ctx cannot list', async () => {
    const hint = (lines: string[]) => lines.filter((l) => l.startsWith('callers:'));
    expect(hint(await ctxLinesOf(repo, ['sym:MAX_FIELDS']))).toEqual([
      'callers: more than listed (refs MAX_FIELDS lists every site)',
    ]);
    expect(hint(await ctxLinesOf(repo, ['sym:helper']))).toEqual([
      'callers: more than listed (refs helper lists every site)',
    ]);
    expect(hint(await ctxLinesOf(repo, ['sym:constant_time_compare']))).toEqual([]);
  });

  it("reads another object's call of a name as no certain call of the file's own method", async () => {
    const rows = (await refsSites(repo, ['full_clean']))
      .filter((s) => s.path === 'forms/formsets.py' && s.role === 'call')
      .map((s) => `${s.start_line} ${s.resolution}`);
    expect(rows).toEqual(['7 resolved', '6 candidate']);
  });
});

describe('a call the name alone chose among many owners', () => {
  // Django (the same trial): `queryset.get(...)` was `AutocompleteJsonView::get candidate`,
  // one of 30 classes' `get`.
  let repo: IndexedRepo;
  beforeAll(async () => {
    const owners = (names: string[], method: string) =>
      names.map((n) => `class ${n}:\n    def ${method}(self):\n        return 0\n`).join('\n');
    repo = await indexedRepo('tp-nav-guessed-', {
      'views.py': owners(['View', 'Cache', 'Query', 'Form'], 'get') + '\n' + owners(['Page', 'Book'], 'render'),
      'shortcuts.py': 'def fetch(source, page):\n    page.render()\n    return source.get()\n',
    });
  });

  it('is an unresolved callee past a few owners, a candidate below', async () => {
    const lines = await ctxLinesOf(repo, ['sym:fetch']);
    expect(ctxRows(lines, 'callee')).toEqual(['views.py:18 method Page::render candidate']);
    expect(lines).toContain('unresolved callees: get');
  });
});

describe("ctx's callers", () => {
  // Twisted (an agent trial): `ctx` of tcp.py's `Connection::connectionLost` listed ten
  // `protocol.connectionLost()` candidates of other files and none of tcp.py's resolved calls.
  let repo: IndexedRepo;
  beforeAll(async () => {
    const files: Record<string, string> = {
      'zz/conn.py': 'class Conn:\n    def lost(self):\n        return 0\n\n    def read(self):\n        self.lost()\n',
    };
    for (let i = 0; i < 6; i++) files[`aa/p${i}.py`] = `def on_close(proto):\n    proto.lost()\n`;
    repo = await indexedRepo('tp-nav-callers-', files);
  });

  it('lists the resolved callers before candidates, however the files are ordered', async () => {
    const page = (await searchCommand(['sym:Conn::lost'], repo.at({ format: 'lines' }))).stdout;
    const handle = page.split('\n')[0].split(/ {2}/)[0];
    const lines = (await ctxCommand(handle, repo.at({ format: 'lines', limit: 2 }))).stdout.split('\n');
    expect(ctxRows(lines, 'caller')).toEqual(['zz/conn.py:6 in Conn::read', 'aa/p0.py:2 in on_close candidate']);
  });
});
