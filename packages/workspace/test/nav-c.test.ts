// C navigation in one root: show sym: lands on definitions (not on prototypes or the files
// using a struct most), and refs resolves a name through `#include`: quoted relative to the
// including file, system includes under the nearest include/ directory, a header's paired
// source where the function it declares is defined.
import * as path from 'node:path';
import { parseQuery } from '@trufflepig/index';
import { cacheDirForRoot } from '@trufflepig/member-root';
import { ctxCommand, mapCommand, refsCommand, searchCommand, showCommand, type CommandOptions } from '../src';
import { referenceSites } from '@trufflepig/navigation';
import { openReader } from '../src/core/search';
import { CLIENT_HOST } from '../src/core/host';
import { indexedRepo, json, type IndexedRepo } from './ws-helpers';

const FILES = {
  'include/linux/sched.h': [
    '#ifndef _LINUX_SCHED_H',
    '#define _LINUX_SCHED_H',
    '',
    'struct task_struct {',
    '\tunsigned int __state;',
    '\tstruct task_struct *parent;',
    '};',
    '',
    'asmlinkage void schedule(void);',
    'extern int wake_up_process(struct task_struct *p);',
    '',
    'static inline int task_nice(const struct task_struct *p)',
    '{',
    '\treturn p->static_prio - 120;',
    '}',
    '#define task_is_running(task) (READ_ONCE((task)->__state) == 0)',
    '#endif',
    '',
  ].join('\n'),
  'kernel/sched/core.c': [
    '#include <linux/sched.h>',
    '',
    'asmlinkage __visible void __sched schedule(void)',
    '{',
    '\tstruct task_struct *tsk = current;',
    '}',
    '',
    'int wake_up_process(struct task_struct *p)',
    '{',
    '\treturn 1;',
    '}',
    '',
  ].join('\n'),
  'kernel/fork.c': [
    '#include <linux/sched.h>',
    '',
    'static struct task_struct *dup(struct task_struct *orig)',
    '{',
    '\tstruct task_struct *p = orig;',
    '\tstruct task_struct *q = orig->parent;',
    '\tschedule();',
    '\twake_up_process(p);',
    '\treturn q;',
    '}',
    '',
  ].join('\n'),
  // A second copy of the header for the tools/ tree: its own includes find it first.
  'tools/include/linux/sched.h':
    '#ifndef TOOLS_SCHED_H\n#define TOOLS_SCHED_H\nint tools_yield(void);\nint tools_wait(void);\n#endif\n',
  'tools/perf/bench.c': '#include <linux/sched.h>\nint bench(void) { return tools_yield() + tools_wait(); }\n',
  // A prototype with two definitions, one per architecture: the build chooses, the site keeps the prototype.
  'include/linux/delay.h': '#pragma once\nvoid udelay(unsigned long usecs);\n',
  'arch/x86/lib/delay.c': '#include <linux/delay.h>\nvoid udelay(unsigned long usecs) { }\n',
  'arch/arm/lib/delay.c': '#include <linux/delay.h>\nvoid udelay(unsigned long usecs) { }\n',
  'drivers/char/tick.c': '#include <linux/delay.h>\nvoid tick(void) { udelay(10); }\n',
  'tools/perf/yield.c': 'int tools_yield(void) { return 0; }\n',
  // Two `conf.h` in two directories, each leading on to its own limits.h: a refs answer
  // reuses trails (resolve.ts ImportTrailMemo) by the files an include names, never by its spelling.
  'net/conf.h': '#pragma once\n#include "limits.h"\n',
  'net/limits.h': '#pragma once\nint max_limit(void);\n',
  'net/a.c': '#include "conf.h"\nint a(void) { return max_limit(); }\n',
  'disk/conf.h': '#pragma once\n#include "limits.h"\n',
  'disk/limits.h': '#pragma once\nint max_limit(void);\n',
  'disk/b.c': '#include "conf.h"\nint b(void) { return max_limit(); }\n',
  'disk/c.c': '#include "conf.h"\nint c(void) { return max_limit() + 1; }\n',
  // A C++ method declared in its class and defined out of it, in a file the header is not paired with.
  'geo/point.hpp': 'namespace geo {\nclass Point {\n public:\n  double norm() const;\n};\n}\n',
  'geo/norm.cpp': '#include "point.hpp"\nnamespace geo {\ndouble Point::norm() const { return 1.0; }\n}\n',
  'app/use.cpp': '#include "../geo/point.hpp"\ndouble use(const geo::Point &p) { return p.norm(); }\n',
  'lib/util.h': '#pragma once\nint util_sum(int a, int b);\n',
  'lib/util.c': '#include "util.h"\nint util_sum(int a, int b) { return a + b; }\n',
  'app/main.c': '#include "../lib/util.h"\nint main(void) { return util_sum(1, 2); }\n',
  // A file the grammar reads only in part: its #include still makes its call certain.
  'app/partial.c':
    '#include "../lib/util.h"\nint broken(void) { return (1 + ; }\nint caller(void) { return util_sum(3, 4); }\n',
  // A header the grammar reads only in part (fs/ext4/ext4.h): its prototypes parse whole, its
  // broken inline function does not.
  'fs/ext4/ext4.h':
    '#ifndef _EXT4_H\n#define _EXT4_H\nextern int ext4_read_bitmap(int sb,\n\t\tint group);\n\nstatic inline int ext4_broken(int a {\n\treturn a;\n}\n#endif\n',
  'fs/ext4/ialloc.c':
    '#include "ext4.h"\nint ext4_new_inode(int sb)\n{\n\treturn ext4_read_bitmap(sb, 1) + ext4_broken(sb);\n}\n',
  // lib/kstrtox.c: a static helper called beside its definition, in a file the grammar reads
  // only in part.
  'lib/kstrtox.c':
    'static int _kstrtoull(int s) { return s; }\nint kstrtoull(int s) { return _kstrtoull(s); }\nint bad(void) { return (_kstrtoull(1) + ; }\n',
  // A vendored copy (redis's deps/hiredis) of a name the project defines itself.
  'deps/hiredis/dict.c': 'static int dictFind(int key) { return key; }\nint use(void) { return dictFind(1); }\n',
  'src/dict.c': 'int dictFind(int key) { return key + 1; }\n',
  // `extern` variables: one a linker script defines (no C definition anywhere), one a source file does.
  'include/asm-generic/sections.h': '#pragma once\nextern char _stext[], _etext[];\n',
  'include/linux/jiffies.h': '#pragma once\nextern unsigned long volatile jiffies;\n',
  'kernel/time/timer.c': '#include <linux/jiffies.h>\nunsigned long volatile jiffies = 0;\n',
  'kernel/time/tick.c': '#include <linux/jiffies.h>\nint tick_age(unsigned long t) { return jiffies - t; }\n',
  // The kernel's mm_struct: its fields in one anonymous struct, closed by an attribute macro.
  'include/linux/mm_types.h': [
    'struct mm_struct {',
    '\tstruct {',
    ...Array.from({ length: 45 }, (_, i) => `\t\tunsigned long field_${i};`),
    '\t} __randomize_layout;',
    '\tunsigned long cpu_bitmap[];',
    '};',
    '',
  ].join('\n'),
};

describe('C navigation: show sym: and refs through #include', () => {
  let root: string;
  let repo: IndexedRepo;
  const at = (more: Partial<CommandOptions> = {}) => repo.at(more);

  beforeAll(async () => {
    repo = await indexedRepo('tp-nav-c-', FILES, { format: 'json', budget: 5000 });
    root = repo.root;
  });

  it('show sym:schedule reads the definition, not the prototype, and lists the prototype as another', async () => {
    const page = json(await showCommand('sym:schedule', at()));
    expect(page).toMatchObject({ path: 'kernel/sched/core.c', name: 'schedule', kind: 'function', start_line: 3 });
    expect(page.rows.map((r: { text: string }) => r.text)).toEqual([
      'asmlinkage __visible void __sched schedule(void)',
      '{',
      '\tstruct task_struct *tsk = current;',
      '}',
    ]);
    expect(page.also).toEqual([expect.objectContaining({ path: 'include/linux/sched.h', kind: 'prototype' })]);
  });

  it('show sym:task_struct reads the struct in the header; the static inline function and the macro land in it too', async () => {
    const page = json(await showCommand('sym:task_struct', at()));
    expect(page).toMatchObject({ path: 'include/linux/sched.h', kind: 'struct', start_line: 4 });
    // Whole lines: the struct's span ends at `}`, its row is the line `};`.
    expect(page.rows.map((r: { text: string }) => r.text)).toEqual([
      'struct task_struct {',
      '\tunsigned int __state;',
      '\tstruct task_struct *parent;',
      '};',
    ]);
    expect(json(await showCommand('sym:task_nice', at()))).toMatchObject({
      path: 'include/linux/sched.h',
      kind: 'function',
      start_line: 12,
    });
    expect(json(await showCommand('sym:task_is_running', at()))).toMatchObject({
      path: 'include/linux/sched.h',
      kind: 'macro',
      start_line: 16,
    });
  });

  it('show sym: of a long struct whose members outline nothing reads its body', async () => {
    const page = json(await showCommand('sym:mm_struct', at()));
    expect(page).toMatchObject({ path: 'include/linux/mm_types.h', kind: 'struct', start_line: 1 });
    expect(page.rows.length).toBeGreaterThan(40);
    expect(page.rows[2].text).toBe('\t\tunsigned long field_0;');
    expect(page.members).toBeUndefined();
  });

  it("refs resolves a call through a quoted include to the definition in the header's paired source", async () => {
    const page = json(await refsCommand(['util_sum', 'file:app/main.c'], at()));
    expect(page.hits).toEqual([
      expect.objectContaining({ path: 'app/main.c', role: 'call', resolution: 'resolved', definition: 'lib/util.c:2' }),
    ]);
  });

  it('refs keeps a call certain in a file parsed partially when its #include resolves it', async () => {
    const outline = await mapCommand(['app/partial.c'], at({ format: 'lines' }));
    expect(outline.stdout).toMatch(/parsed partially/);
    const page = json(await refsCommand(['util_sum', 'file:app/partial.c'], at()));
    expect(page.hits).toEqual([
      expect.objectContaining({ role: 'call', resolution: 'resolved', definition: 'lib/util.c:2' }),
    ]);
  });

  it('refs resolves through a header parsed partially to the definitions whose names parsed whole', async () => {
    // Before: every call through the kernel's ext4.h was a candidate (the C trial, 12 of 14 rows).
    const outline = await mapCommand(['fs/ext4/ext4.h'], at({ format: 'lines' }));
    expect(outline.stdout).toMatch(/parsed partially/);
    const page = json(await refsCommand(['ext4_read_bitmap', 'file:fs/ext4/ialloc.c'], at()));
    expect(page.hits).toEqual([
      expect.objectContaining({ role: 'call', resolution: 'resolved', definition: 'fs/ext4/ext4.h:3' }),
    ]);
    // An error in a definition's parameters or body leaves its name, and so what it is, whole.
    const broken = json(await refsCommand(['ext4_broken', 'file:fs/ext4/ialloc.c'], at()));
    expect(broken.hits).toEqual([
      expect.objectContaining({ role: 'call', resolution: 'resolved', definition: 'fs/ext4/ext4.h:6' }),
    ]);
  });

  it('refs in a C file parsed partially: certain outside the part the grammar could not read, a candidate inside it', async () => {
    // Before: all three rows candidates (the C trial's `refs _kstrtoull`).
    const page = json(await refsCommand(['_kstrtoull'], at()));
    const rows = page.hits.map((h: { start_line: number; role: string; resolution: string }) => [
      h.start_line,
      h.role,
      h.resolution,
    ]);
    expect(rows).toEqual([
      [2, 'call', 'resolved'],
      [3, 'call', 'candidate'],
      [1, 'declaration', 'resolved'],
    ]);
  });

  it('show sym: of an extern variable reads its definition, else its declaration; refs resolves through the header', async () => {
    // Before: `show sym:_stext` answered no_definition (an abseil trial: `kEmptyGroup`).
    const stext = json(await showCommand('sym:_stext', at()));
    expect(stext).toMatchObject({
      path: 'include/asm-generic/sections.h',
      name: '_stext',
      kind: 'extern',
      start_line: 2,
    });
    const jiffies = json(await showCommand('sym:jiffies', at()));
    expect(jiffies).toMatchObject({ path: 'kernel/time/timer.c', kind: 'variable', start_line: 2 });
    expect(jiffies.also).toEqual([expect.objectContaining({ path: 'include/linux/jiffies.h', kind: 'extern' })]);
    // The header declares it, the linker binds it to the one definition.
    const use = json(await refsCommand(['jiffies', 'file:kernel/time/tick.c'], at()));
    expect(use.hits).toEqual([
      expect.objectContaining({
        path: 'kernel/time/tick.c',
        resolution: 'resolved',
        definition: 'kernel/time/timer.c:2',
      }),
    ]);
  });

  it("show sym: reads the project's own definition before a vendored copy under deps/", async () => {
    const page = json(await showCommand('sym:dictFind', at()));
    expect(page).toMatchObject({ path: 'src/dict.c', kind: 'function' });
    expect(page.also).toEqual([expect.objectContaining({ path: 'deps/hiredis/dict.c' })]);
  });

  it('refs resolves a call through a system include to the one function its prototype declares', async () => {
    // The linker binds kernel/fork.c's call to kernel/sched/core.c's schedule, the tree's only
    // one; before, the site resolved to include/linux/sched.h's prototype (an agent trial:
    // `refs out_of_memory → include/linux/oom.h:103`).
    const page = json(await refsCommand(['schedule', 'file:kernel/fork.c'], at()));
    expect(page.hits).toEqual([
      expect.objectContaining({
        path: 'kernel/fork.c',
        role: 'call',
        resolution: 'resolved',
        definition: 'kernel/sched/core.c:3',
      }),
    ]);
    // Two definitions (one per architecture) are the build's choice: the prototype it is.
    const delay = json(await refsCommand(['udelay', 'file:drivers/char/'], at()));
    expect(delay.hits).toEqual([
      expect.objectContaining({ path: 'drivers/char/tick.c', role: 'call', definition: 'include/linux/delay.h:2' }),
    ]);
    // A method's declaration in its class: the one out-of-class definition of it.
    const norm = json(await refsCommand(['norm', 'file:app/'], at()));
    expect(norm.hits).toEqual([
      expect.objectContaining({ path: 'app/use.cpp', role: 'call', definition: 'geo/norm.cpp:3' }),
    ]);
    // In the defining file the name resolves to its own definition.
    const own = json(await refsCommand(['wake_up_process', 'file:kernel/sched/core.c'], at()));
    expect(own.hits[0]).toMatchObject({
      role: 'declaration',
      resolution: 'resolved',
      definition: 'kernel/sched/core.c:8',
    });
  });

  it('refs stops reading files at its deadline and counts the files it left unread', async () => {
    const cacheDir = cacheDirForRoot(root, { cacheOverride: path.join(root, '..', 'cache') });
    const reader = await openReader(CLIENT_HOST, root, cacheDir);
    if (!reader.ok) throw new Error(reader.error.message);
    const q = parseQuery(['task_struct']);
    if (!q.ok) throw new Error(q.error.message);
    const targets = [{ root, cacheDir, reader: reader.value }];
    const all = referenceSites(targets, q.value);
    expect({ files: all.files, unread: all.unread, truncated: all.truncated }).toEqual({
      files: 3,
      unread: 0,
      truncated: false,
    });
    // A clock that has always run past the deadline: one file is read (a page is never empty for want of time), the other counted.
    let tick = 0;
    const late = referenceSites(targets, q.value, { deadlineMs: 10, now: () => (tick += 100) });
    expect({ files: late.files, unread: late.unread, truncated: late.truncated }).toEqual({
      files: 1,
      unread: 2,
      truncated: true,
    });
    expect(late.sites.every((s) => s.file.path === 'include/linux/sched.h')).toBe(true);
    const page = json(await refsCommand(['task_struct'], at()));
    expect(page.coverage).not.toHaveProperty('unread_files');
  });

  it('ctx names a callee by its definition, not its prototype', async () => {
    const hit = json(await searchCommand(['sym:dup'], at())).hits[0];
    const c = json(await ctxCommand(hit.handle, at()));
    expect(c.symbol).toMatchObject({ name: 'dup', kind: 'function' });
    expect(c.callees.map((s: { name: string; path: string; kind: string }) => `${s.name} ${s.path} ${s.kind}`)).toEqual(
      ['schedule kernel/sched/core.c function', 'wake_up_process kernel/sched/core.c function'],
    );
  });

  it("ctx of a function lists the callers resolved to its header's prototype", async () => {
    // Before: none (the kernel's out_of_memory: 4 callers, each resolved to oom.h's prototype).
    const hit = json(await searchCommand(['sym:wake_up_process', 'kind:function'], at())).hits[0];
    expect(hit).toMatchObject({ path: 'kernel/sched/core.c' });
    const c = json(await ctxCommand(hit.handle, at()));
    expect(c.callers).toEqual([expect.objectContaining({ path: 'kernel/fork.c', within: 'dup' })]);
    expect(c.callers_more).toBeUndefined();
  });

  it("refs resolves each call through its own directory's headers when two includes are spelled alike", async () => {
    const page = json(await refsCommand(['max_limit'], at()));
    const calls = page.hits
      .filter((h: { role: string }) => h.role === 'call')
      .map(
        (h: { path: string; resolution: string; definition: string }) => `${h.path} ${h.resolution} ${h.definition}`,
      );
    expect(calls).toEqual([
      'disk/b.c resolved disk/limits.h:2',
      'disk/c.c resolved disk/limits.h:2',
      'net/a.c resolved net/limits.h:2',
    ]);
  });

  it('a system include finds the include/ directory nearest the including file', async () => {
    // tools_wait is only declared: the site lands on the declaration of the nearest include/.
    const page = json(await refsCommand(['tools_wait', 'file:tools/perf/bench.c'], at()));
    expect(page.hits).toEqual([
      expect.objectContaining({
        path: 'tools/perf/bench.c',
        resolution: 'resolved',
        definition: 'tools/include/linux/sched.h:4',
      }),
    ]);
  });
});

describe("a directory's map of namespaced C++", () => {
  // Eigen (an agent trial): every row of `map Eigen/` named the file `Eigen` and nothing
  // else, its items all inside `namespace Eigen { … }`.
  it("names a file's items inside its namespaces, nested ones too, not the namespaces", async () => {
    const repo = await indexedRepo('tp-map-namespaces-', {
      'src/Cholesky/LDLT.h': [
        'namespace Eigen {',
        'namespace internal {',
        'template<typename T> struct ldlt_traits {};',
        '}',
        'template<typename MatrixType> class LDLT {',
        ' public:',
        '  void compute();',
        '};',
        'inline int ldlt_size() { return 1; }',
        '}',
        '',
      ].join('\n'),
      'src/Core/Forward.h': 'namespace Eigen {\nnamespace internal {\n}\n}\n',
    });
    const page = (await mapCommand(['src/'], repo.at())).stdout.split('\n');
    expect(page.find((l) => l.includes('src/Cholesky/LDLT.h'))).toMatch(/ ldlt_traits LDLT ldlt_size$/);
    // A file of namespaces alone keeps naming them.
    expect(page.find((l) => l.includes('src/Core/Forward.h'))).toMatch(/ Eigen$/);
  });
});
