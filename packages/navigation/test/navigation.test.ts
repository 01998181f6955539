// Navigation over a real index: a small TypeScript repository in a temp directory,
// indexed by @trufflepig/index (real tree-sitter parses), read through NavTargets the way
// the facade hands them over. The package opens nothing itself.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FACTS_PER_FILE_MAX, IndexReader, parseQuery, reconcile, type ParsedQuery } from '@trufflepig/index';
import {
  bestDefinition,
  definitionBody,
  definitionCandidates,
  noDefinition,
  outline,
  referenceCount,
  referenceSites,
  refsMainDefinition,
  renderNavPage,
  spanEntry,
  SYM_BODY_MAX_LINES,
  type NavTarget,
} from '../src';

const FILES: Record<string, string> = {
  'src/store.ts': [
    'export class Store {',
    '  static create(): Store {',
    '    return new Store();',
    '  }',
    '  async load(key: string): Promise<string> {',
    '    return key;',
    '  }',
    '  #secret(): number {',
    '    return 1;',
    '  }',
    '  secret(): number {',
    '    return this.#secret();',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/app.ts':
    "import { Store } from './store';\n\nexport function boot(): Store {\n  const s = Store.create();\n  return s;\n}\n",
  'src/consts.ts': 'export const LIMIT = 10;\nexport const NAME = "n";\n',
  // Tab-aligned code, as C is written: a refs row keeps the tab (one token), never `\x09`.
  'src/tabbed.ts': "import { Store } from './store';\n\nexport const made =\tStore.create();\n",
  'src/big.ts': `export class Big {\n${Array.from({ length: SYM_BODY_MAX_LINES + 20 }, (_, i) => `  m${i}(): number {\n    return ${i};\n  }`).join('\n')}\n}\n`,
};

let target: NavTarget;

/** A repository of `files` in a temp directory, indexed, as the NavTarget the facade would hand over. */
async function indexedTarget(label: string, files: Record<string, string>): Promise<NavTarget> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `tp-nav-${label}-`)));
  const root = path.join(base, 'repo');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  const cacheDir = path.join(base, 'cache');
  const rec = await reconcile(root, { cacheDir, parallelism: 1 });
  if (!rec.ok) throw new Error(rec.error.message);
  const reader = await IndexReader.open(cacheDir, root);
  if (!reader.ok) throw new Error(reader.error.message);
  return { root, cacheDir, reader: reader.value, here: '' };
}

beforeAll(async () => {
  target = await indexedTarget('ts', FILES);
});

afterAll(() => target?.reader.close());

function query(words: string[]): ParsedQuery {
  const q = parseQuery(words);
  if (!q.ok) throw new Error(q.error.message);
  return q.value;
}

describe('@trufflepig/navigation over a real index', () => {
  it('show sym: chooses the class over the import binding that names it', () => {
    const found = definitionCandidates([target], query(['sym:Store']), true);
    expect(found[0].def).toMatchObject({ name: 'Store', kind: 'class' });
    expect(found[0].def.file.path).toBe('src/store.ts');
    const best = bestDefinition([target], query(['sym:Store']));
    expect(best.ok && best.value.def.file.path).toBe('src/store.ts');
  });

  it('a long definition is its head and its members, the rest left to a continuation', () => {
    const big = definitionCandidates([target], query(['sym:Big']), true)[0];
    const bytes = fs.readFileSync(path.join(target.root, 'src/big.ts'));
    const body = definitionBody(target, big.def, bytes);
    expect(body.restStart).toBeGreaterThan(0);
    expect(body.rows.length).toBeLessThan(SYM_BODY_MAX_LINES);
    expect(body.members.map((m) => m.name)).toContain('m0');
    const small = definitionCandidates([target], query(['sym:boot']), true)[0];
    const whole = definitionBody(target, small.def, fs.readFileSync(path.join(target.root, 'src/app.ts')));
    expect(whole.restStart).toBeUndefined();
  });

  it('an unknown name is no_definition with the nearest defined names', () => {
    const miss = noDefinition([target], query(['sym:Stor']));
    expect(miss.ok).toBe(false);
    if (!miss.ok) {
      expect(miss.error.code).toBe('no_definition');
      expect(miss.error.message).toContain('Store');
    }
  });

  it('refs lists the call site with its text and enclosing definition, and counts agree', () => {
    const refs = referenceSites([target], query(['create']));
    const call = refs.sites.find((s) => s.file.path === 'src/app.ts');
    expect(call).toMatchObject({ line: 4, within: 'boot' });
    expect(call?.text).toContain('Store.create()');
    expect(refs.truncated).toBe(false);
    const counted = referenceCount([target], 'create');
    expect(counted.files).toBeGreaterThanOrEqual(1);
  });

  it('a refs row keeps a tab of its source line as a tab', () => {
    const refs = referenceSites([target], query(['create']));
    const page = renderNavPage(
      {
        verb: 'refs',
        query: 'refs create',
        setId: 'bamkot',
        offset: 0,
        entries: refs.sites.map((site) =>
          spanEntry(
            site.target,
            site.file,
            { start: site.start, end: site.end, startLine: site.line, endLine: site.line },
            { role: site.role, resolution: site.resolution, text: site.text },
          ),
        ),
        coverage: {},
        coverageLine: 'complete',
        truncated: false,
      },
      { format: 'lines', budget: 10_000 },
    ).stdout;
    expect(page).toContain('export const made =\tStore.create();');
    expect(page).not.toContain('\\x09');
  });

  it("refs heads its page with the hand-written definition over a build copy's, in a workspace member too", () => {
    const file = target.reader.fileByPath('src/store.ts')!;
    const base = spanEntry(target, file, { start: 0, end: 1, startLine: 1, endLine: 1 }, { role: 'call' });
    const rows = (member: string | undefined, definitions: string[]) =>
      definitions.map((definition) => ({ ...base, ...(member ? { member } : {}), definition }));
    const copy = 'trpc/dist/initTRPC.cjs:153';
    // `trpc/` had been read as the path's top directory: the bundle's copy, with the most sites, headed it.
    expect(refsMainDefinition(rows('trpc', [copy, copy, copy, 'trpc/src/parser.ts:84']))).toBe('trpc/src/parser.ts:84');
    expect(
      refsMainDefinition(rows(undefined, ['build/legacy/utils.js:1', 'build/legacy/utils.js:1', 'src/utils.ts:9'])),
    ).toBe('src/utils.ts:9');
    // A member named like a build directory holds hand-written code.
    expect(refsMainDefinition(rows('dist', ['dist/src/a.ts:1', 'dist/src/a.ts:1', 'dist/build/a.js:1']))).toBe(
      'dist/src/a.ts:1',
    );
  });

  it('map keeps modifiers and tells a #private method from its public namesake', () => {
    const file = target.reader.fileByPath('src/store.ts');
    if (!file) throw new Error('store.ts is not indexed');
    const rows = outline(target, file).map((r) => [r.entry.name, r.entry.modifiers ?? []]);
    expect(rows).toEqual([
      ['Store', []],
      ['Store::create', ['static']],
      ['Store::load', ['async']],
      ['Store::secret', ['#']],
      ['Store::secret', []],
    ]);
  });

  it('a map page prints a one-line item as its line alone, a longer one as START-END', () => {
    const rowsOf = (rel: string) => {
      const file = target.reader.fileByPath(rel);
      if (!file) throw new Error(`${rel} is not indexed`);
      return outline(target, file).map((r) => r.entry);
    };
    const page = (rel: string) =>
      renderNavPage(
        {
          verb: 'map',
          query: `map ${rel}`,
          setId: 'bamkot',
          offset: 0,
          entries: rowsOf(rel),
          coverage: {},
          coverageLine: 'complete',
          truncated: false,
        },
        { format: 'lines', budget: 10_000 },
      ).stdout.split('\n');
    // Before: `1 1-1 constant LIMIT`.
    expect(page('src/consts.ts')).toEqual(expect.arrayContaining(['1 1 constant LIMIT', '2 2 constant NAME']));
    expect(page('src/store.ts')).toContain('1 1-14 class Store');
  });
});

// Files whose structure the index holds in part: a C function lost in a partial parse (a
// brace opened in one `#if` block and closed in another, as binutils' tc-arm.c does), and
// a use past the per-file fact limit. Neither may be answered as if the name were absent.
describe('names in files the index holds only in part', () => {
  // A brace opened under one condition and closed under another: no preprocessor reading
  // balances it, and no repair pairs the halves (binutils' tc-arm.c pairs `OBJ_ELF` with
  // `OBJ_ELF`, which the C repairs now read; c-repair.ts pairedHalves).
  const SPLIT = [
    'void',
    'md_begin (void)',
    '{',
    '#if defined OBJ_COFF || defined OBJ_ELF',
    '  {',
    '#if defined OBJ_ELF',
    '      {',
    '#endif',
    '#if defined OBJ_AOUT',
    '\tif (ARM_CPU_HAS_FEATURE (cpu_variant, fpu_arch_maverick))',
    '      }',
    '#endif',
    '  }',
    '#endif',
    '}',
    '',
  ].join('\n');
  // Three uses a line: the fact limit is met well before the last function.
  const lines = Math.ceil(FACTS_PER_FILE_MAX / 3) + 100;
  const GENERATED = `void gen(void)\n{\n${'\ta = b + c;\n'.repeat(lines)}}\n\nint tail(void)\n{\n\treturn hidden_tail_call();\n}\n`;
  let t: NavTarget;

  beforeAll(async () => {
    // A tool's private copies before the library's own (binutils' bfd/doc/chew.c, gprofng).
    const files: Record<string, string> = {
      'bfd/doc/chew.c': '#define ELF_ST_TYPE(v) ((v) & 0xf)\nstatic void *xmalloc (unsigned long n) { return 0; }\n',
      'libiberty/xmalloc.c': 'void *xmalloc (unsigned long n) { return 0; }\n',
      'include/elf/common.h': '#define ELF_ST_TYPE(val) ((val) & 0xF)\n',
      // JUCE: its String in a namespace, in a file with the project's prefix; a vendored
      // SDK's Component in another namespace; a class's local alias of the name.
      'modules/juce_core/text/juce_String.h':
        'namespace juce\n{\nclass String\n{\npublic:\n    int length() const;\n};\n}\n',
      'modules/juce_gui/juce_Component.h': 'namespace juce\n{\nclass Component\n{\n    int x;\n};\n}\n',
      'modules/format/sdk/vstcomponent.h': 'namespace Vst\n{\nclass Component\n{\n    int y;\n};\n}\n',
      'modules/format/attribute.hpp': 'class Attribute\n{\n    using String = int;\n};\n',
      // Flag macros between the fields, as binutils' struct bfd_section holds them.
      'include/section.h': `struct section\n{\n${Array.from({ length: 30 }, (_, i) => `  int field${i};\n#define SEC_FLAG${i} (1 << ${i})`).join('\n')}\n};\n`,
    };
    t = await indexedTarget('partial', {
      'src/split.c': SPLIT,
      'src/generated.c': GENERATED,
      'src/other.c': 'int md_begin_other(void) { return 0; }\n',
      ...files,
    });
  }, 60_000);
  afterAll(() => t?.reader.close());

  it('the fixture is what it stands for: a definition the parse lost, a use past the fact limit', () => {
    expect(t.reader.fileByPath('src/split.c')).toMatchObject({ parse: 'partial' });
    expect(t.reader.definitions('md_begin')).toEqual([]);
    expect(t.reader.fileByPath('src/generated.c')).toMatchObject({ factLimited: true });
    expect(t.reader.nameUses('hidden_tail_call')).toEqual([]);
  });

  it('no_definition names the file that holds the name in part, where to read it, and why', () => {
    const filtered = noDefinition([t], query(['sym:md_begin', 'file:src/split.c']));
    expect(filtered.ok).toBe(false);
    if (!filtered.ok)
      expect(filtered.error.message).toContain(
        'md_begin occurs in 1 file the index holds only in part, where a definition may be missing: src/split.c:2 (parsed partially); read it: show path:src/split.c:2-41',
      );
    const anywhere = noDefinition([t], query(['sym:hidden_tail_call']));
    if (!anywhere.ok) expect(anywhere.error.message).toContain('src/generated.c:');
    expect(anywhere.ok || /uses cut at the fact limit/.test(anywhere.error.message)).toBe(true);
  });

  /** Where `show sym:NAME` lands: `path:line` of the best candidate. */
  const best = (name: string) => {
    const c = definitionCandidates([t], query([`sym:${name}`]), true)[0];
    return c && `${c.def.file.path}:${c.def.startLine}`;
  };

  it("show sym: prefers the file named after the definition, and a header macro over a source file's own", () => {
    expect(best('xmalloc')).toBe('libiberty/xmalloc.c:1');
    expect(best('ELF_ST_TYPE')).toBe('include/elf/common.h:1');
  });

  it("show sym: takes a namespace's class as top-level, and a file named after it behind a project prefix", () => {
    expect(best('String')).toBe('modules/juce_core/text/juce_String.h:3');
    expect(best('Component')).toBe('modules/juce_gui/juce_Component.h:3');
  });

  it('a long struct of fields alone is read whole, its flag macros among them, and no macro is a member', () => {
    const c = definitionCandidates([t], query(['sym:section', 'kind:struct']), true)[0];
    const body = definitionBody(t, c.def, fs.readFileSync(path.join(t.root, c.def.file.path)));
    // Before: its head and a members line of bare names (`3 field0, 5 field1, …`), no types.
    expect(body.restStart).toBeUndefined();
    const texts = body.rows.map((r) => ('text' in r ? r.text : ''));
    expect(texts).toContain('  int field29;');
    expect(texts[texts.length - 1]).toBe('};');
    expect(body.members.some((m) => m.kind === 'macro')).toBe(false);
  });

  it('refs reads a file whose uses were cut at the fact limit for the name', () => {
    const refs = referenceSites([t], query(['hidden_tail_call']));
    expect(refs.sites.map((s) => [s.file.path, s.line])).toEqual([['src/generated.c', lines + 7]]);
    expect(refs.truncated).toBe(false);
  });
});

describe('a C# solution with a test project beside the library (an agent trial on newtonsoft-json)', () => {
  // `Src/Lib.Tests/` sorts before `Src/Lib/`: while the test project's files were code, its
  // callers of `JToken::FromObject` came first in refs and filled ctx's ten callers.
  const lib = [
    'namespace Lib.Linq',
    '{',
    '    public class JToken',
    '    {',
    '        public static JToken FromObject(object o) { return null; }',
    '    }',
    '}',
    '',
  ].join('\n');
  const caller = (ns: string, cls: string) =>
    [
      `namespace ${ns}`,
      '{',
      `    public class ${cls}`,
      '    {',
      '        public void Run() { var t = JToken.FromObject(1); }',
      '    }',
      '}',
      '',
    ].join('\n');
  let t: NavTarget;

  beforeAll(async () => {
    t = await indexedTarget('cs', {
      'Src/Lib/Linq/JToken.cs': lib,
      'Src/Lib/Schema/Generator.cs': caller('Lib.Schema', 'Generator'),
      'Src/Lib.Tests/Linq/JTokenTests.cs': caller('Lib.Tests.Linq', 'JTokenTests'),
      'Src/Lib.UnitTests/MergeTests.cs': caller('Lib.UnitTests', 'MergeTests'),
    });
  });
  afterAll(() => t?.reader.close());

  it("refs lists the library's caller before the test projects' callers", () => {
    const refs = referenceSites([t], query(['JToken::FromObject']));
    expect(refs.sites.filter((s) => s.role === 'call').map((s) => s.file.path)).toEqual([
      'Src/Lib/Schema/Generator.cs',
      'Src/Lib.Tests/Linq/JTokenTests.cs',
      'Src/Lib.UnitTests/MergeTests.cs',
    ]);
  });
});
