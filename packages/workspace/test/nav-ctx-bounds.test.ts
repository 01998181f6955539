// ctx's bounds say what they cut: callees and a type's members past CTX_LIST_MAX are
// counted (`omitted`), call sites stopped at it point to `refs`, and a hit that no
// definition holds says so instead of printing nothing.
import { ctxCommand, searchCommand, type CommandOptions } from '../src';
import { CTX_LIST_MAX } from '@trufflepig/navigation';
import { json, indexedRepo, type IndexedRepo } from './ws-helpers';

const N = CTX_LIST_MAX + 3;
const helpers = Array.from(
  { length: N },
  (_, i) => `export function helper${i}(): number {\n  return leaf() + ${i};\n}\n`,
).join('\n');
const FILES = {
  'src/leaf.ts': 'export function leaf(): number {\n  return 1;\n}\n',
  'src/helpers.ts': `import { leaf } from './leaf';\n\n${helpers}`,
  'src/hub.ts': `import { ${Array.from({ length: N }, (_, i) => `helper${i}`).join(', ')} } from './helpers';\n\nexport function hub(): number {\n  return ${Array.from({ length: N }, (_, i) => `helper${i}()`).join(' + ')};\n}\n`,
  // A blank line apart: the note documents nothing (one right above `unrelated` would be its doc comment).
  'src/notes.ts': '// a module-level note about quartz crystals\n\nexport const unrelated = 1;\n',
  // A struct whose fields outnumber ctx's list, and a method far below them that uses one.
  'cmd/command.go': [
    'package cmd',
    '',
    'type Command struct {',
    ...Array.from({ length: CTX_LIST_MAX + 4 }, (_, i) => `\tField${i} string`),
    '\tArgs func(c *Command, args []string) error',
    '}',
    '',
    ...Array.from({ length: 6 }, (_, i) => `func (c *Command) Early${i}() string {\n\treturn c.Field${i}\n}\n`),
    'func (c *Command) ValidateArgs(args []string) error {',
    '\tif c.Args == nil {',
    '\t\treturn nil',
    '\t}',
    '\treturn c.Args(c, args)',
    '}',
    '',
    'func (c *Command) Later() string {\n\treturn "later"\n}',
    '',
  ].join('\n'),
  // Six callers of ValidateArgs, in another file.
  'cmd/run.go': [
    'package cmd',
    '',
    ...Array.from({ length: 6 }, (_, i) => `func (c *Command) Run${i}() error {\n\treturn c.ValidateArgs(nil)\n}\n`),
  ].join('\n'),
  // A call through another object's receiver reaches a method by its name alone.
  'cmd/render.go': [
    'package cmd',
    '',
    'type Canvas struct{}',
    '',
    'func (v *Canvas) Width() int { return 1 }',
    '',
    'func (c *Command) Draw(img *Image) int {',
    '\treturn img.Width() + c.Early0Len()',
    '}',
    '',
    'func (c *Command) Early0Len() int { return 0 }',
    '',
  ].join('\n'),
};

describe('ctx bounds', () => {
  let repo: IndexedRepo;
  const at = (more: Partial<CommandOptions> = {}) => repo.at(more);

  beforeAll(async () => {
    repo = await indexedRepo('tp-ctx-bounds-', FILES, { format: 'json', budget: 5000 });
  });

  it('counts the callees past the cap and points to refs for the callers past it', async () => {
    const hub = json(await searchCommand(['sym:hub'], at({ format: 'json' as const }))).hits[0];
    const out = json(await ctxCommand(hub.handle, at({ format: 'json' as const })));
    expect(out.callees).toHaveLength(CTX_LIST_MAX);
    expect(out.omitted).toBe(N - CTX_LIST_MAX);
    // Which list the count is of (a JDK trial read a bare `omitted: 16` as nothing in particular).
    expect(out.omitted_by).toEqual({ callees: N - CTX_LIST_MAX });
    expect((await ctxCommand(hub.handle, at({ format: 'lines' as const }))).stdout).toContain(
      `omitted: ${N - CTX_LIST_MAX} (callees ${N - CTX_LIST_MAX})\n`,
    );
    expect(out.callers_more).toBeUndefined();
    const leaf = json(await searchCommand(['sym:leaf'], at({ format: 'json' as const }))).hits[0];
    const callers = json(await ctxCommand(leaf.handle, at({ format: 'json' as const })));
    expect(callers.callers).toHaveLength(CTX_LIST_MAX);
    expect(callers.callers_more).toBe('refs leaf');
    const lines = await ctxCommand(leaf.handle, at({ format: 'lines' as const }));
    expect(lines.stdout).toContain('callers: more than listed (refs leaf lists every site)\n');
  });

  it("a type's members past the cap point to the maps of the files holding them", async () => {
    const type = json(await searchCommand(['sym:Command', 'kind:struct'], at({ format: 'json' as const }))).hits[0];
    const out = json(await ctxCommand(type.handle, at({ format: 'json' as const })));
    expect(out.members).toHaveLength(CTX_LIST_MAX);
    // Command's methods in run.go and render.go are members too: each file's map lists some.
    expect(out.members_more).toBe('map cmd/command.go, map cmd/render.go, map cmd/run.go');
    const lines = await ctxCommand(type.handle, at({ format: 'lines' as const }));
    expect(lines.stdout).toContain(
      'members: more than listed (map cmd/command.go, map cmd/render.go, map cmd/run.go list them all)\n',
    );
    // A method's siblings past the cap are no type's members: no pointer.
    const method = json(await searchCommand(['sym:ValidateArgs'], at({ format: 'json' as const }))).hits[0];
    expect(json(await ctxCommand(method.handle, at({ format: 'json' as const }))).members_more).toBeUndefined();
  });

  it('a tight budget cuts siblings before callers, and points to refs for callers it cuts', async () => {
    const { countTokens } = await import('@trufflepig/render');
    const rowsOf = (text: string, kind: string) => text.split('\n').filter((l) => l.startsWith(`${kind}:`));
    const hit = json(await searchCommand(['sym:ValidateArgs'], at({ format: 'json' as const }))).hits[0];
    const full = (await ctxCommand(hit.handle, at({ format: 'lines' as const }))).stdout;
    expect(rowsOf(full, 'caller')).toHaveLength(6);
    expect(rowsOf(full, 'sibling')).toHaveLength(CTX_LIST_MAX);
    // What ctx is asked for comes first: callers and callees, then the siblings.
    const lines = full.split('\n');
    expect(lines.findIndex((l) => l.startsWith('caller:'))).toBeLessThan(
      lines.findIndex((l) => l.startsWith('sibling:')),
    );
    // Six sibling rows short of the whole answer: siblings give way, every caller stays (cut
    // evenly, each list kept 4 rows and two callers went).
    const budget = countTokens(full) - countTokens(rowsOf(full, 'sibling').slice(0, 6).join('\n')) + 2;
    const cut = (await ctxCommand(hit.handle, at({ format: 'lines' as const, budget }))).stdout;
    expect(rowsOf(cut, 'caller')).toHaveLength(6);
    expect(rowsOf(cut, 'sibling').length).toBeLessThan(CTX_LIST_MAX);
    expect(cut).not.toContain('callers: more than listed');
    // Callers cut by the budget say where the rest are.
    const tight = (await ctxCommand(hit.handle, at({ format: 'lines' as const, budget: countTokens(full) / 3 })))
      .stdout;
    expect(rowsOf(tight, 'caller').length).toBeLessThan(6);
    expect(tight).toContain('callers: more than listed (refs Command::ValidateArgs lists every site)\n');
  });

  it("a free function's siblings are only the ones its body uses that no callee row names: the rest is the file's map", async () => {
    const hit = json(await searchCommand(['sym:helper5'], at({ format: 'json' as const }))).hits[0];
    const out = json(await ctxCommand(hit.handle, at({ format: 'json' as const })));
    expect(out.callees.map((c: { name: string }) => c.name)).toEqual(['leaf']);
    expect(out.siblings ?? []).toEqual([]);
    const lines = (await ctxCommand(hit.handle, at({ format: 'lines' as const }))).stdout;
    expect(lines).not.toMatch(/^sibling:/m);
  });

  it("a method's siblings: the ones its body uses first, then the nearest, not the struct's first fields", async () => {
    const hit = json(await searchCommand(['sym:ValidateArgs'], at({ format: 'json' as const }))).hits[0];
    const out = json(await ctxCommand(hit.handle, at({ format: 'json' as const })));
    const names = out.siblings.map((s: { name: string }) => s.name);
    expect(names).toHaveLength(CTX_LIST_MAX);
    expect(names[0]).toBe('Command::Args');
    // Then the nearest on either side: the methods right above and right below it.
    expect(names.slice(1, 3).sort()).toEqual(['Command::Early5', 'Command::Later']);
    expect(names[3]).toBe('Command::Early4');
    expect(names).not.toContain('Command::Field0');
  });

  it("a member call through another object's receiver is a candidate callee; the caller's own type's method is not", async () => {
    const hit = json(await searchCommand(['sym:Draw'], at({ format: 'json' as const }))).hits[0];
    const out = json(await ctxCommand(hit.handle, at({ format: 'json' as const })));
    const callees = out.callees.map((c: { name: string; resolution?: string }) => [c.name, c.resolution ?? 'resolved']);
    expect(callees).toEqual(
      expect.arrayContaining([
        ['Canvas::Width', 'candidate'],
        ['Command::Early0Len', 'resolved'],
      ]),
    );
    const lines = await ctxCommand(hit.handle, at({ format: 'lines' as const }));
    expect(lines.stdout).toMatch(/^callee: \S+\tcmd\/render\.go:5\tmethod Canvas::Width\tcandidate$/m);
  });

  it('a hit no definition holds says so, in both formats, instead of printing nothing', async () => {
    const hit = json(await searchCommand(['quartz', 'crystals'], at({ format: 'json' as const }))).hits[0];
    expect(hit.path).toBe('src/notes.ts');
    const out = json(await ctxCommand(hit.handle, at({ format: 'json' as const })));
    expect(out.note).toMatch(/^no definition holds this span.*map src\/notes\.ts outlines the file$/);
    const lines = await ctxCommand(hit.handle, at({ format: 'lines' as const }));
    expect(lines.exitCode).toBe(0);
    expect(lines.stdout).toMatch(/^ctx: no definition holds this span/m);
  });
});
