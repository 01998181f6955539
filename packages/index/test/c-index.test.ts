// C and C++ through a real index: sym: lands on definitions (a prototype ranks after the
// function it declares), lang: and its aliases, kind:, test paths, the stored language of a
// C++ header named .h, and the bad inputs (a 1.9 MB one-line generated file, a header
// with unbalanced #if blocks) indexed without a hang.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { canonicalQueryLanguage, languageOf, pathClass, type IndexReader } from '../src';
import { cleanIndexReader, Fixture } from './helpers';

const SCHED_H = `#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H
#include <linux/list.h>

#define TASK_RUNNING 0x0000
#define task_is_running(task) (READ_ONCE((task)->__state) == TASK_RUNNING)

struct task_struct;
struct sched_entity { unsigned long weight; };

struct task_struct {
	unsigned int __state;
	struct task_struct *real_parent;
	struct task_struct *group_leader;
	struct list_head children;
	struct sched_entity se;
};

extern struct task_struct *find_task_by_vpid(int nr);
asmlinkage void schedule(void);
extern int wake_up_process(struct task_struct *tsk);

static inline int task_nice(const struct task_struct *p)
{
	return p->static_prio - 120;
}
#endif
`;

const SLAB_H = `#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H
void *__kmalloc(size_t size, gfp_t flags) __alloc_size(1);
static __always_inline __alloc_size(1) void *kmalloc(size_t size, gfp_t flags)
{
	return __kmalloc(size, flags);
}
#endif
`;

const CORE_C = `#include <linux/sched.h>
#include <linux/slab.h>

static void __sched notrace __schedule(unsigned int sched_mode)
{
	struct task_struct *prev = current;
	struct task_struct *next = pick_next_task(prev);
	context_switch(prev, next);
}

asmlinkage __visible void __sched schedule(void)
{
	struct task_struct *tsk = current;
	__schedule(0);
}

int wake_up_process(struct task_struct *p)
{
	struct task_struct *leader = p->group_leader;
	return try_to_wake_up(leader, 0);
}
`;

const FORK_C = `#include <linux/sched.h>
#include <linux/slab.h>

static struct task_struct *dup_task_struct(struct task_struct *orig)
{
	struct task_struct *tsk = kmalloc(sizeof(struct task_struct), 0);
	tsk->real_parent = orig;
	schedule();
	return tsk;
}

static void copy_children(struct task_struct *p, struct task_struct *parent)
{
	struct task_struct *child;
	schedule();
}
`;

const SLAB_COMMON_C = `#include <linux/slab.h>
void *__kmalloc(size_t size, gfp_t flags)
{
	return kmalloc_large(size, flags);
}
`;

// A header named like kmalloc that neither declares nor uses it (the kernel's arch/mips ones).
const MIPS_KMALLOC_H = `#ifndef __ASM_MACH_GENERIC_KMALLOC_H
#define __ASM_MACH_GENERIC_KMALLOC_H

#ifdef CONFIG_DMA_NONCOHERENT
#define ARCH_DMA_MINALIGN	128
#endif

#endif /* __ASM_MACH_GENERIC_KMALLOC_H */
`;

// A selftest defining a function named like the kernel's: a test file ranks after code.
const SELFTEST_C = `#include <stdio.h>
void schedule(void) { }
int main(void) { schedule(); return 0; }
`;

const WIDGET_HPP = `#pragma once
namespace ui {
class Widget {
 public:
  void draw();
};
}
`;
const WIDGET_CPP = `#include "widget.hpp"
namespace ui {
void Widget::draw() {}
}
`;
// A C++ header named .h: stored as cpp.
const LEGACY_H = `#pragma once
#include <string>
class Legacy {
 public:
  std::string name() const;
};
`;

describe('C and C++ through the index', () => {
  const fx = new Fixture('c-family', {
    'include/linux/sched.h': SCHED_H,
    'include/linux/slab.h': SLAB_H,
    'kernel/sched/core.c': CORE_C,
    'kernel/fork.c': FORK_C,
    'mm/slab_common.c': SLAB_COMMON_C,
    'arch/mips/include/asm/mach-generic/kmalloc.h': MIPS_KMALLOC_H,
    'tools/testing/selftests/sched/sched_test.c': SELFTEST_C,
    'ui/widget.hpp': WIDGET_HPP,
    'ui/widget.cpp': WIDGET_CPP,
    'ui/legacy.h': LEGACY_H,
  });
  const reader = cleanIndexReader(fx);

  it('classifies the extensions, lang: values and aliases, and C test paths', () => {
    expect(['a.c', 'a.h', 'a.cc', 'a.cpp', 'a.cxx', 'a.hpp', 'a.hh', 'a.hxx'].map(languageOf)).toEqual([
      'c',
      'c',
      'cpp',
      'cpp',
      'cpp',
      'cpp',
      'cpp',
      'cpp',
    ]);
    expect(['c', 'h', 'C', 'cpp', 'cc', 'cxx', 'hpp', 'c++'].map(canonicalQueryLanguage)).toEqual([
      'c',
      'c',
      'c',
      'cpp',
      'cpp',
      'cpp',
      'cpp',
      'cpp',
    ]);
    expect(pathClass('tools/testing/selftests/sched/sched_test.c')).toBe('test');
    expect(pathClass('lib/list_test.c')).toBe('test');
    expect(pathClass('kernel/sched/core.c')).toBe('code');
  });

  it('show sym:schedule shape: the definition in the .c file ranks before the prototype in the header, and before the test', async () => {
    const hits = (await fx.search('sym:schedule')).hits;
    expect(hits.map((h) => `${h.path} ${h.kind}`)).toEqual([
      'kernel/sched/core.c function',
      'include/linux/sched.h prototype',
      'tools/testing/selftests/sched/sched_test.c function',
      'kernel/fork.c undefined', // a file that only calls it
    ]);
    expect(hits[0].startLine).toBe(11);
    expect(
      reader()
        .definitions('schedule')
        .map((d) => `${d.file.path}:${d.startLine} ${d.kind}`)
        .sort(),
    ).toEqual([
      'include/linux/sched.h:20 prototype',
      'kernel/sched/core.c:11 function',
      'tools/testing/selftests/sched/sched_test.c:2 function',
    ]);
  });

  it("a prototype and a definition in one file: the definition is the file's hit", async () => {
    const hits = (await fx.search('sym:wake_up_process')).hits;
    expect(hits.map((h) => `${h.path}:${h.startLine} ${h.kind}`)).toEqual([
      'kernel/sched/core.c:17 function',
      'include/linux/sched.h:21 prototype',
    ]);
  });

  it('sym:task_struct lands on the struct in its header, not on the files that use it most', async () => {
    const hits = (await fx.search('sym:task_struct')).hits;
    expect(`${hits[0].path}:${hits[0].startLine} ${hits[0].kind}`).toBe('include/linux/sched.h:11 struct');
    expect(
      reader()
        .definitions('task_struct')
        .map((d) => `${d.file.path}:${d.startLine}-${d.endLine} ${d.kind}`),
    ).toEqual(['include/linux/sched.h:11-17 struct']);
  });

  it('sym:kmalloc lands on the static inline function in the header; sym:__kmalloc on its definition', async () => {
    expect((await fx.search('sym:kmalloc')).hits.map((h) => `${h.path}:${h.startLine} ${h.kind}`)[0]).toBe(
      'include/linux/slab.h:4 function',
    );
    expect((await fx.search('sym:__kmalloc')).hits.map((h) => `${h.path} ${h.kind}`)).toEqual([
      'mm/slab_common.c function',
      'include/linux/slab.h prototype',
    ]);
  });

  it('a plain word that names a definition ranks its definitions first, the exact spelling before __kmalloc and __schedule', async () => {
    // `kmalloc` has no hump or underscore, yet it is a name: the any-term lane alone would
    // rank mm/slab_common.c (its __kmalloc, kmalloc_large) above the header that defines it.
    const kmalloc = (await fx.search('kmalloc')).hits.map((h) => `${h.path} ${h.name ?? ''}`);
    expect(kmalloc[0]).toBe('include/linux/slab.h kmalloc');
    // A file named like the word leads only when it declares it: this one (before,
    // first) now stands after the definitions, with the files that call kmalloc.
    expect(kmalloc).toContain('arch/mips/include/asm/mach-generic/kmalloc.h ');
    const schedule = (await fx.search('schedule')).hits.map((h) => `${h.path} ${h.name ?? ''}`);
    expect(schedule[0]).toBe('kernel/sched/core.c schedule');
    // A word no definition is named is still free text.
    expect((await fx.search('children')).hits.map((h) => h.path)).toContain('include/linux/sched.h');
  });

  it('a function-like macro is a macro definition', async () => {
    expect((await fx.search('sym:task_is_running')).hits.map((h) => `${h.path}:${h.startLine} ${h.kind}`)).toEqual([
      'include/linux/sched.h:6 macro',
    ]);
  });

  it('kind: selects C kinds', async () => {
    expect(await fx.paths('kind:prototype schedule')).toEqual(['include/linux/sched.h']);
    // `fn` and `union` are other spellings of `function` and `struct`.
    expect(await fx.paths('kind:fn task nice')).toEqual(['include/linux/sched.h']);
    expect(await fx.paths('kind:union sched entity')).toEqual(['include/linux/sched.h']);
    expect((await fx.paths('kind:function schedule')).slice(0, 2)).toEqual([
      'kernel/sched/core.c',
      'tools/testing/selftests/sched/sched_test.c',
    ]);
    expect(await fx.paths('kind:struct sched entity')).toEqual(['include/linux/sched.h']);
    expect(await fx.paths('kind:macro task running')).toEqual(['include/linux/sched.h']);
    expect((await fx.search('kind:method draw')).hits.map((h) => `${h.path} ${h.name}`)).toEqual([
      'ui/widget.cpp Widget::draw',
    ]);
  });

  it('lang:c and lang:cpp with their aliases; a C++ header named .h is cpp', async () => {
    const c = [
      'arch/mips/include/asm/mach-generic/kmalloc.h',
      'include/linux/sched.h',
      'include/linux/slab.h',
      'kernel/fork.c',
      'kernel/sched/core.c',
      'mm/slab_common.c',
      'tools/testing/selftests/sched/sched_test.c',
    ];
    const cpp = ['ui/legacy.h', 'ui/widget.cpp', 'ui/widget.hpp'];
    expect((await fx.paths('kind:file lang:c')).sort()).toEqual(c);
    expect((await fx.paths('kind:file lang:h')).sort()).toEqual(c);
    for (const alias of ['cpp', 'cc', 'cxx', 'hpp', 'c++'])
      expect((await fx.paths(`kind:file lang:${alias}`)).sort()).toEqual(cpp);
    expect(reader().fileByPath('ui/legacy.h')?.lang).toBe('cpp');
    expect(
      reader()
        .fileDefinitions('ui/legacy.h')
        .map((d) => `${d.kind} ${d.container ? d.container + '::' : ''}${d.name}`),
    ).toEqual(['class Legacy', 'prototype Legacy::name']);
    expect(await fx.paths('sym:Legacy lang:cpp')).toEqual(['ui/legacy.h']);
    expect(await fx.paths('sym:Legacy lang:c')).toEqual([]);
  });

  it('a renamed C++ header keeps its language: its facts are copied from the old row with it', async () => {
    fs.renameSync(path.join(fx.root, 'ui/legacy.h'), path.join(fx.root, 'ui/old_legacy.h'));
    const report = await fx.index();
    expect(report.reused).toBe(1);
    const after = await fx.open();
    try {
      expect(after.fileByPath('ui/old_legacy.h')?.lang).toBe('cpp');
      expect(after.fileDefinitions('ui/old_legacy.h').map((d) => d.name)).toEqual(['Legacy', 'name']);
    } finally {
      after.close();
    }
  });

  it('stores includes as imports', () => {
    expect(
      reader()
        .fileImports('kernel/fork.c')
        .map((i) => `${i.spelled}|${i.name}`),
    ).toEqual(['<linux/sched.h>|*', '<linux/slab.h>|*']);
    expect(
      reader()
        .fileImports('ui/widget.cpp')
        .map((i) => `${i.spelled}|${i.name}`),
    ).toEqual(['widget.hpp|*']);
  });
});

/** Generated C on one line: a data table of 1.9 MB, as firmware blobs and font tables are committed. */
function generatedTable(bytes: number): string {
  const parts: string[] = ['static const unsigned char fw_blob[] = {'];
  let length = parts[0].length;
  for (let i = 0; length < bytes; i++) {
    const v = `0x${(i % 256).toString(16).padStart(2, '0')},`;
    parts.push(v);
    length += v.length;
  }
  parts.push('0};');
  return parts.join('');
}

/** Generated code on one line with a syntax error in every function: nothing for a repair to mend. */
function generatedBroken(bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const v = `int gen_${i}(int a){return a*${i} +;}asmlinkage void __sched h_${i}(void){ q( }`;
    parts.push(v);
    length += v.length;
  }
  return parts.join('');
}

const UNBALANCED_H = `#ifndef CFG_H
#if defined(CONFIG_64BIT)
struct cfg { long value;
#else
struct cfg { int value;
#endif
};
#if CONFIG_DEBUG
int cfg_debug(void);
#endif
#endif
#endif
#endif
int cfg_load(struct cfg *c) { return c->value; }
#if CONFIG_TRACE
int cfg_trace_marker(void);
`;

describe('bad C input', () => {
  const table = generatedTable(1_900_000);
  const broken = generatedBroken(1_900_000);
  const fx = new Fixture('c-bad', {
    'gen/fw_table.c': table,
    'gen/broken.c': broken,
    'include/cfg.h': UNBALANCED_H,
    'src/ok.c': 'int fine(void) { return 0; }\n',
  });
  let indexMs = 0;
  let reader: IndexReader;

  beforeAll(async () => {
    expect(table.length).toBeGreaterThanOrEqual(1_900_000);
    expect(table.includes('\n')).toBe(false);
    const started = Date.now();
    const report = await fx.index();
    indexMs = Date.now() - started;

    console.log(`indexed 2 × 1.9 MB one-line C files and the unbalanced header in ${indexMs} ms`);
    expect(report.files).toBe(4);
    reader = await fx.open();
  }, 120_000);
  afterAll(() => reader.close());

  it('indexes both generated files within a bound, the table cleanly and the broken one as partial', () => {
    expect(indexMs).toBeLessThan(60_000);
    expect(reader.fileByPath('gen/fw_table.c')).toMatchObject({ parse: 'ok', excluded: null });
    expect(reader.fileDefinitions('gen/fw_table.c').map((d) => `${d.kind} ${d.name}`)).toEqual(['constant fw_blob']);
    expect(reader.fileByPath('gen/broken.c')).toMatchObject({ parse: 'partial', excluded: null });
  });

  it('keeps lexical coverage of both', async () => {
    expect(await fx.paths('fw_blob')).toEqual(['gen/fw_table.c']);
    expect(await fx.paths('gen_4242')).toContain('gen/broken.c');
  });

  it('the unbalanced #if header: definitions the grammar recovers, lexical coverage of the rest', async () => {
    const f = reader.fileByPath('include/cfg.h')!;
    expect(f.excluded).toBeNull();
    const names = reader.fileDefinitions('include/cfg.h').map((d) => `${d.kind} ${d.name}`);
    expect(names).toEqual(expect.arrayContaining(['struct cfg', 'function cfg_load']));
    expect(await fx.paths('sym:cfg_load')).toEqual(['include/cfg.h']);
    expect(await fx.paths('cfg_trace_marker')).toEqual(['include/cfg.h']);
  });
});

// binutils (an agent trial): a doc tool's private xmalloc and a .c file's own ELF_ST_TYPE
// sorted before the library's and the header's by path.
describe('the sym: lane: where a definition is at home', () => {
  const fx = new Fixture('c-home', {
    'bfd/doc/chew.c': '#define ELF_ST_TYPE(v) ((v) & 0xf)\nstatic void *xmalloc (unsigned long n) { return 0; }\n',
    'libiberty/xmalloc.c': 'void *xmalloc (unsigned long n) { return 0; }\n',
    'include/elf/common.h': '#define ELF_ST_TYPE(val) ((val) & 0xF)\n',
  });
  beforeAll(async () => {
    await fx.index();
  });

  it('ranks the file named after the definition, then a header macro, before path order', async () => {
    expect((await fx.search('sym:xmalloc')).hits.map((h) => h.path)).toEqual(['libiberty/xmalloc.c', 'bfd/doc/chew.c']);
    expect((await fx.search('sym:ELF_ST_TYPE')).hits.map((h) => h.path)).toEqual([
      'include/elf/common.h',
      'bfd/doc/chew.c',
    ]);
  });
});
