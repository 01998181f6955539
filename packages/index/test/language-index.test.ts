// The stored facts of the new languages: definitions, imports and lang: filters through a real index.
import { canonicalQueryLanguage, languageOf, queryLanguageOf } from '../src';
import { cleanIndexReader, Fixture } from './helpers';

describe('languages through the index', () => {
  const fx = new Fixture('languages', {
    'app/Models/User.php':
      '<?php\nnamespace App\\Models;\nuse App\\Contracts\\Repo as R;\nclass User { public function save(): void {} }\n',
    'src/Shop/Cart.cs': 'using System.Text;\nnamespace Shop;\npublic class Cart { public void Add(int n) {} }\n',
    'pkg/billing.py': 'from .models import Invoice\nclass Billing:\n    def charge(self): pass\n',
    'cmd/main.go': 'package main\nimport "fmt"\nfunc main() { fmt.Println("x") }\n',
    'src/Main.java': 'import java.util.List;\nclass Main { void run() {} }\n',
    'src/Signal.luau':
      'local Types = require(script.Types)\nexport type S = { n: number }\nlocal function fire(): () end\n',
    'code/crayon.dm': '/obj/item/crayon\n\tproc/draw()\n\t\treturn\n',
    'station.dme': '#include "code\\\\crayon.dm"\n',
  });
  const reader = cleanIndexReader(fx);

  it('classifies every extension', () => {
    expect(
      ['a.cs', 'a.php', 'a.phtml', 'a.py', 'a.go', 'a.java', 'a.lua', 'a.luau', 'a.dm', 'a.dme'].map(languageOf),
    ).toEqual(['csharp', 'php', 'php', 'python', 'go', 'java', 'luau', 'luau', 'dreammaker', 'dreammaker']);
    expect(queryLanguageOf('luau')).toBe('luau');
    expect(
      ['cs', 'C#', 'csharp', 'php', 'py', 'python', 'go', 'golang', 'java', 'lua', 'luau', 'dm', 'DreamMaker'].map(
        canonicalQueryLanguage,
      ),
    ).toEqual([
      'csharp',
      'csharp',
      'csharp',
      'php',
      'python',
      'python',
      'go',
      'go',
      'java',
      'luau',
      'luau',
      'dreammaker',
      'dreammaker',
    ]);
  });

  it('answers definitions by name and owner', () => {
    expect(
      reader()
        .definitions('save')
        .map((d) => `${d.file.path} ${d.kind} ${d.container}`),
    ).toEqual(['app/Models/User.php method User']);
    expect(
      reader()
        .definitions('draw', { container: '/obj/item/crayon' })
        .map((d) => d.kind),
    ).toEqual(['method']);
    expect(reader().definitions('draw', { container: 'nobody' })).toEqual([]);
    expect(
      reader()
        .fileDefinitions('src/Signal.luau')
        .map((d) => `${d.kind} ${d.name}`),
    ).toEqual(['variable Types', 'type S', 'function fire']);
  });

  it('answers imports per file and per bound name', () => {
    const show = (path: string) =>
      reader()
        .fileImports(path)
        .map((i) => `${i.spelled}|${i.name ?? ''}|${i.alias ?? ''}`);
    expect(show('app/Models/User.php')).toEqual(['App\\Contracts\\Repo|Repo|R']);
    expect(show('src/Shop/Cart.cs')).toEqual(['System.Text||']);
    expect(show('pkg/billing.py')).toEqual(['.models|Invoice|']);
    expect(show('cmd/main.go')).toEqual(['fmt||']);
    expect(show('src/Main.java')).toEqual(['java.util.List|List|']);
    expect(show('src/Signal.luau')).toEqual(['script.Types||Types']);
    expect(show('station.dme')).toEqual(['code\\\\crayon.dm||']);
    expect(
      reader()
        .importsOf('R')
        .map((i) => i.file.path),
    ).toEqual(['app/Models/User.php']);
    expect(reader().importsOf('Invoice')[0].line).toBe(1);
  });

  it('filters by the new lang: values', async () => {
    expect(await fx.paths('kind:file lang:cs')).toEqual(['src/Shop/Cart.cs']);
    expect(await fx.paths('kind:file lang:lua')).toEqual(['src/Signal.luau']);
    expect((await fx.paths('kind:file lang:dm')).sort()).toEqual(['code/crayon.dm', 'station.dme']);
    expect(await fx.paths('sym:charge lang:python')).toEqual(['pkg/billing.py']);
  });
});
