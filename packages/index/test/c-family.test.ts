// C and C++ extraction from real tree-sitter parses: every definition kind with its name,
// owner and span, prototypes apart from definitions, the .h dialect choice, and the repairs
// of kernel-style declaration heads and preprocessor idioms.
import { definitionsParsedCleanly, extractFile, extractOccurrences, type Extraction } from '../src';
import { looksLikeCpp } from '../src/extract/lang/c-family';
import { defs, expectExactSpans, roles } from './extraction';
import { roleNames } from '../src/extract/facts';

function spanText(bytes: Buffer, x: Extraction, name: string, kind?: string): string {
  const d = x.definitions.find((e) => e.name === name && (kind === undefined || e.kind === kind));
  if (!d) throw new Error(`no definition of ${name}`);
  return bytes.subarray(d.start, d.end).toString('utf8');
}

const SCHED_H = `#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H
#include <linux/types.h>
#include "sched/prio.h"

#define TASK_RUNNING 0x0000
#define task_is_running(task) (READ_ONCE((task)->__state) == TASK_RUNNING)

struct task_struct;

struct task_struct {
	unsigned int __state;
	struct task_struct *parent;
	int (*fn)(void *arg);
	union {
		int prio;
		long weight;
	};
};

typedef struct task_struct task_t;
typedef int (*task_fn)(struct task_struct *p);
typedef struct { int lo, hi; } pid_range_t;
union sigval { int sival_int; void *sival_ptr; };
enum pid_type { PIDTYPE_PID, PIDTYPE_TGID, PIDTYPE_MAX };
typedef enum { SCHED_NORMAL, SCHED_FIFO } policy_t;

extern int nr_threads;
static const int max_prio = 140;
extern void schedule(void);
extern struct task_struct *find_task_by_pid(int pid);
char **task_names(void);

static inline int task_nice(const struct task_struct *p)
{
	return p->static_prio - 120;
}
#endif
`;

describe('C extraction', () => {
  const bytes = Buffer.from(SCHED_H);
  const x = extractFile('c', bytes);

  it('finds macros, structs, unions, enums, typedefs, fields, prototypes and functions', () => {
    expect(x.parse).toBe('ok');
    expect(x.lang).toBeUndefined();
    expect(defs(x)).toEqual([
      'TASK_RUNNING:macro',
      'task_is_running:macro',
      'task_struct:struct',
      'task_struct::__state:field',
      'task_struct::parent:field',
      'task_struct::fn:field',
      'task_struct::prio:field',
      'task_struct::weight:field',
      'task_t:type',
      'task_fn:type',
      'pid_range_t:struct',
      'pid_range_t::lo:field',
      'pid_range_t::hi:field',
      'sigval:struct',
      'sigval::sival_int:field',
      'sigval::sival_ptr:field',
      'pid_type:enum',
      'pid_type::PIDTYPE_PID:variant',
      'pid_type::PIDTYPE_TGID:variant',
      'pid_type::PIDTYPE_MAX:variant',
      'policy_t:enum',
      'policy_t::SCHED_NORMAL:variant',
      'policy_t::SCHED_FIFO:variant',
      'nr_threads:extern',
      'max_prio:constant',
      'schedule:prototype',
      'find_task_by_pid:prototype',
      'task_names:prototype',
      'task_nice:function',
    ]);
    expectExactSpans(bytes, x.definitions);
  });

  it('spans whole items: the struct body, the macro line, the inline function with its body', () => {
    expect(spanText(bytes, x, 'task_struct', 'struct')).toMatch(/^struct task_struct \{\n[\s\S]*\n\}$/);
    const ts = x.definitions.find((d) => d.name === 'task_struct')!;
    expect([ts.startLine, ts.endLine]).toEqual([11, 19]);
    expect(spanText(bytes, x, 'task_is_running')).toBe(
      '#define task_is_running(task) (READ_ONCE((task)->__state) == TASK_RUNNING)\n',
    );
    expect(spanText(bytes, x, 'task_nice')).toBe(
      'static inline int task_nice(const struct task_struct *p)\n{\n\treturn p->static_prio - 120;\n}',
    );
    expect(spanText(bytes, x, 'schedule')).toBe('extern void schedule(void);');
  });

  it('skips forward declarations and the include guard', () => {
    expect(x.definitions.filter((d) => d.name === 'task_struct')).toHaveLength(1);
    expect(x.definitions.some((d) => d.name === '_LINUX_SCHED_H')).toBe(false);
  });

  it('reads extern variables as declarations of kind extern, unless they initialize or are local', () => {
    const src = [
      'extern char _stext[], _etext[];',
      'extern const unsigned long volatile jiffies;',
      'extern int initialized = 3;',
      'int defined;',
      'void f(void) { extern int inside; }',
      '',
    ].join('\n');
    const c = extractFile('c', Buffer.from(src));
    expect(defs(c)).toEqual([
      '_stext:extern',
      '_etext:extern',
      'jiffies:extern',
      'initialized:variable',
      'defined:variable',
      'f:function',
    ]);
    // abseil's headers: the namespace owns them; `extern "C"` alone declares too, its block does not.
    const cpp = [
      'namespace absl {',
      'extern const ctrl_t kEmptyGroup[16];',
      'ABSL_DLL extern const ctrl_t kSentinel;',
      'extern "C" int c_linkage;',
      'extern "C" { int in_block; extern int in_block_decl; }',
      '}',
      '',
    ].join('\n');
    expect(defs(extractFile('cpp', Buffer.from(cpp)))).toEqual([
      'absl:module',
      'absl::kEmptyGroup:extern',
      'absl::kSentinel:extern',
      'absl::c_linkage:extern',
      'absl::in_block:variable',
      'absl::in_block_decl:extern',
    ]);
  });

  it('records includes as spelled, system ones in brackets', () => {
    expect(x.imports.map((i) => `${i.spelled}|${i.name}|${i.line}`)).toEqual([
      '<linux/types.h>|*|3',
      'sched/prio.h|*|4',
    ]);
  });

  it('gives identifiers their roles', () => {
    expect(roles(x, 'task_struct')).toEqual(['declaration', 'type']);
    expect(roles(x, 'schedule')).toEqual(['declaration']);
    expect(roles(x, 'static_prio')).toEqual(['member']);
    expect(roles(x, 'p')).toContain('local');
  });

  it("reads the names a macro's body uses: calls, members, references; not its parameters, keywords or comments", () => {
    // task_is_running's body: before, none of READ_ONCE, __state, TASK_RUNNING was a site
    // (the C trial's `refs EXT4_LINK_MAX` missed EXT4_DIR_LINK_MAX's body).
    expect(roles(x, 'READ_ONCE')).toEqual(['call']);
    expect(roles(x, '__state')).toEqual(['declaration', 'member']);
    expect(roles(x, 'TASK_RUNNING')).toEqual(['declaration', 'reference']);
    const src =
      '#define wait_ev(wq, cond)\t\\\n\tdo { /* wake_up */ if (cond) break; schedule(); wq.count++; puts("cond"); } while (0)\n';
    const m = extractFile('c', Buffer.from(src));
    expect(m.names.map((n) => `${n.name}:${roleNames(n.roles).join('+')}`)).toEqual([
      'wait_ev:declaration',
      'wq:local',
      'cond:local',
      'schedule:call',
      'count:member',
      'puts:call',
    ]);
  });
});

const CORE_C = `#include "sched.h"
int nr_threads = 0;
static int helper(struct task_struct *p, int x);

asmlinkage __visible void __sched schedule(void)
{
	struct task_struct *tsk = current;
	helper(tsk, 1);
}

static void __sched notrace __schedule(unsigned int sched_mode)
{
}

static __always_inline __alloc_size(1) void *kmalloc(size_t size, gfp_t flags)
{
	return __kmalloc(size, flags);
}

static __always_inline struct rq *
context_switch(struct rq *rq, struct task_struct *prev)
{
	return rq;
}

__printf(2, 3) void sched_log(int level, const char *fmt, ...);
long copy_task(void __user *to, const void __user *from, unsigned long n);
int __read_mostly sysctl_sched_rt_runtime = 950000;
static int helper(struct task_struct *p, int x) { return x; }
`;

describe('C declaration heads with annotation macros', () => {
  const bytes = Buffer.from(CORE_C);
  const x = extractFile('c', bytes);

  it('reads the name past the annotations, on the head line', () => {
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'nr_threads:variable',
      'helper:prototype',
      'schedule:function',
      '__schedule:function',
      'kmalloc:function',
      'context_switch:function',
      'sched_log:prototype',
      'copy_task:prototype',
      'sysctl_sched_rt_runtime:variable',
      'helper:function',
    ]);
    expectExactSpans(bytes, x.definitions);
    expect(spanText(bytes, x, 'schedule')).toMatch(/^asmlinkage __visible void __sched schedule\(void\)\n\{/);
    expect(x.definitions.find((d) => d.name === 'context_switch')!.startLine).toBe(20);
  });

  it('reads the name before an annotation that follows it, not the annotation', () => {
    // The kernel's `static int x __read_mostly = 1;` had been a variable `__read_mostly`, `x`
    // blanked as an annotation; `unsigned long max_pfn __ro_after_init;` parses without an
    // error as a sized type `unsigned long max_pfn` (an agent trial on glibc met the same).
    const src = Buffer.from(
      [
        'static int x __read_mostly = 1;',
        'int y __initdata;',
        'struct page *mem_map __read_mostly;',
        'static struct kmem_cache *task_cachep __ro_after_init = NULL;',
        'unsigned long max_pfn __ro_after_init;',
        'mytype_t q __read_mostly;',
        'void __user *buf;',
        'unsigned int __x;',
        '',
      ].join('\n'),
    );
    const y = extractFile('c', src);
    expect(defs(y)).toEqual([
      'x:variable',
      'y:variable',
      'mem_map:variable',
      'task_cachep:variable',
      'max_pfn:variable',
      'q:variable',
      'buf:variable',
      '__x:variable',
    ]);
    expectExactSpans(src, y.definitions);
  });

  it('a head the grammar misreads and the repair cannot mend yields no definitions at all', () => {
    // After `@@@` the repair finds no head to rewrite: `asmlinkage __visible` and `void __sched`
    // parse as variables ended by invented semicolons, `schedule(void)` as a function named `void`.
    const broken = extractFile(
      'c',
      Buffer.from('int x;\n@@@ asmlinkage __visible void __sched schedule(void)\n{\n}\n'),
    );
    expect(broken.parse).toBe('partial');
    expect(defs(broken)).toEqual(['x:variable']);
  });
});

describe('library header idioms', () => {
  it('JUCE: an #ifndef block holding its #define alone is a default, a definition; the file guard is not', () => {
    const src = [
      '#ifndef JUCE_AUDIO_FORMATS_H_INCLUDED',
      '#define JUCE_AUDIO_FORMATS_H_INCLUDED',
      '',
      '/** Config: JUCE_USE_FLAC',
      '    Enables the FLAC audio codec classes.',
      '*/',
      '#ifndef JUCE_USE_FLAC',
      ' #define JUCE_USE_FLAC 1',
      '#endif',
      '',
      '#ifndef JUCE_USE_MP3AUDIOFORMAT',
      ' // off unless a build asks for it',
      ' #define JUCE_USE_MP3AUDIOFORMAT 0',
      '#endif',
      '',
      'int flacVersion (void);',
      '',
      '#endif',
      '',
    ].join('\n');
    const x = extractFile('c', Buffer.from(src));
    expect(defs(x)).toEqual(['JUCE_USE_FLAC:macro', 'JUCE_USE_MP3AUDIOFORMAT:macro', 'flacVersion:prototype']);
  });

  it('glibc: __BEGIN_DECLS lines, trailing __THROW and __nonnull, a guard defined as 1', () => {
    const src = [
      '#ifndef _SCHED_H',
      '#define _SCHED_H 1',
      '#include <features.h>',
      '',
      '__BEGIN_DECLS',
      '',
      'extern int sched_setparam (__pid_t __pid, const struct sched_param *__param)',
      '     __THROW;',
      'extern int unshare (int __flags) __THROW __nonnull ((1));',
      'void *__kmalloc(size_t size, gfp_t flags) __assume_kmalloc_alignment __alloc_size(1);',
      '__END_DECLS',
      '',
      '#endif',
      '',
    ].join('\n');
    const x = extractFile('c', Buffer.from(src));
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual(['sched_setparam:prototype', 'unshare:prototype', '__kmalloc:prototype']);
    expect(spanText(Buffer.from(src), x, 'sched_setparam')).toBe(
      'extern int sched_setparam (__pid_t __pid, const struct sched_param *__param)\n     __THROW;',
    );
  });

  it('libxml2: an export macro before the type and a calling-convention macro after the pointer', () => {
    const x = extractFile(
      'c',
      Buffer.from(
        'XMLPUBFUN const xmlChar * XMLCALL\n\t\thtmlGetMetaEncoding\t(htmlDocPtr doc);\nXMLPUBFUN int XMLCALL\n\t\thtmlSetMetaEncoding\t(htmlDocPtr doc, const xmlChar *encoding);\n',
      ),
    );
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual(['htmlGetMetaEncoding:prototype', 'htmlSetMetaEncoding:prototype']);
  });

  it('leaves C++ operators alone', () => {
    const src =
      'class It {\n public:\n  LLVM_ABI value_type *operator->() const { return &operator*(); }\n  value_type &operator*() const;\n};\n';
    const x = extractFile('cpp', Buffer.from(src));
    expect(defs(x)).toEqual(expect.arrayContaining(['It::operator->:method', 'It::operator*:prototype']));
  });

  it('reads conversion operators as definitions, and names every operator in one spelling', () => {
    // `explicit operator bool() const` was no definition: the grammar's operator_cast has no name node.
    const src = [
      'struct Handle {',
      '  explicit operator bool() const { return p != nullptr; }',
      '  operator const char *() const;',
      '  template <typename T> operator T&() const;',
      '  bool operator == (const Handle& o) const { return p == o.p; }',
      '  void* p;',
      '};',
      'Handle::operator int() const { return 1; }',
      '',
    ].join('\n');
    const bytes = Buffer.from(src);
    const x = extractFile('cpp', bytes);
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'Handle:struct',
      'Handle::operator bool:method',
      'Handle::operator const char*:prototype',
      'Handle::operator T&:prototype',
      'Handle::operator==:method',
      'Handle::p:field',
      'Handle::operator int:method',
    ]);
    const spelled = x.definitions.map((d) => bytes.subarray(d.nameStart, d.nameEnd).toString('utf8'));
    expect(spelled).toEqual([
      'Handle',
      'operator bool',
      'operator const char *',
      'operator T&',
      'operator ==',
      'p',
      'operator int',
    ]);
  });
});

describe('C preprocessor idioms', () => {
  it('keeps an extern "C" header whole: the #ifdef __cplusplus braces are blanked', () => {
    const src =
      '#ifndef FOO_H\n#define FOO_H\n#ifdef __cplusplus\nextern "C" {\n#endif\n\nint foo_open(const char *path);\nstruct foo { int a; };\n\n#ifdef __cplusplus\n}\n#endif\n#endif\n';
    const x = extractFile('c', Buffer.from(src));
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual(['foo_open:prototype', 'foo:struct', 'foo::a:field']);
  });

  it("a C header's C++-only branches are C++ to neither the sniff nor the C parse", () => {
    const src =
      '#ifdef __cplusplus\n#include <cstddef>\nextern "C++" {\ntemplate <class T> T fabs_of(T v);\n}\n#else\n#include <stddef.h>\n#endif\ndouble fabs(double x);\n#if !defined(__cplusplus)\ntypedef int bool_t;\n#else\nnamespace std { using ::fabs; }\n#endif\n';
    expect(looksLikeCpp(src)).toBe(false);
    const x = extractFile('c', Buffer.from(src));
    expect(x.lang).toBeUndefined();
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual(['fabs:prototype', 'bool_t:type']);
    // What a C compiler includes.
    expect(x.imports.map((i) => i.spelled)).toEqual(['<stddef.h>']);
  });

  it('recovers definitions from branches that each open the same brace', () => {
    const src =
      '#if defined(BIG)\nstruct cfg { long v;\n#else\nstruct cfg { int v;\n#endif\n};\nint cfg_load(struct cfg *c) { return 0; }\n';
    const x = extractFile('c', Buffer.from(src));
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual(['cfg:struct', 'cfg::v:field', 'cfg_load:function']);
  });

  it('an annotation after a body names nothing; a reserved name there is a field', () => {
    // 7,201 kernel files held 218 variables and fields named `__packed`, `__randomize_layout`
    // or `____cacheline_aligned_in_smp`; glibc's `union { … } __space;` is a real field.
    const src = [
      'struct ec_params {',
      '\tint a;',
      '} __packed;',
      'struct task {',
      '\tstruct {',
      '\t\tint b;',
      '\t} ____cacheline_aligned_in_smp;',
      '\tunion { char c[8]; long l; } __space;',
      '} __randomize_layout;',
      '#define inline inline __attribute__((gnu_inline))',
      'typedef int wchar_t;',
      '',
    ].join('\n');
    const x = extractFile('c', Buffer.from(src));
    expect(defs(x)).toEqual([
      'ec_params:struct',
      'ec_params::a:field',
      'task:struct',
      'task::b:field',
      'task::__space:field',
      'task::c:field',
      'task::l:field',
      'inline:macro',
      'wchar_t:type',
    ]);
  });

  it('keeps an if-chain whole across conditionals that continue it or that an else follows', () => {
    // googletest's DefaultDeathTestFactory::Create ended at the `#endif` before its `else`;
    // the kernel's f2fs `__struct_ptr` continues an if-chain in two `#ifdef` blocks, and the
    // file lost 8 functions after it.
    const src = [
      'bool create(int style)',
      '{',
      '#if OS_WINDOWS',
      '  if (style == 1) {',
      '    return true;',
      '  }',
      '#elif OS_FUCHSIA',
      '  if (style == 2) {',
      '    return true;',
      '  }',
      '#else',
      '  if (style == 3) {',
      '    return true;',
      '  }',
      '#endif',
      '  else {',
      '    return false;',
      '  }',
      '  return true;',
      '}',
      'static unsigned char *struct_ptr(int type)',
      '{',
      '\tif (type == 1)',
      '\t\treturn 0;',
      '#ifdef CONFIG_FAULT_INJECTION',
      '\telse if (type == 2)',
      '\t\treturn 0;',
      '#endif',
      '#ifdef CONFIG_STAT_FS',
      '\telse if (type == 3)',
      '\t\treturn 0;',
      '#endif',
      '\telse if (type == 4)',
      '\t\treturn 0;',
      '\treturn 0;',
      '}',
      'int after(void) { return 0; }',
      '',
    ].join('\n');
    const bytes = Buffer.from(src);
    const x = extractFile('c', bytes);
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual(['create:function', 'struct_ptr:function', 'after:function']);
    expect(spanText(bytes, x, 'create')).toMatch(/else \{\n {4}return false;\n {2}}\n {2}return true;\n}$/);
  });

  it('reads a function whose braces balance only across two blocks of one condition', () => {
    // glibc's _int_malloc: `#if USE_TCACHE` … `else {` ⏎ `#endif`, shared lines, then
    // `#if USE_TCACHE` ⏎ `}` ⏎ `#endif`. Before, the whole function was lost and its locals
    // were listed as the file's variables.
    const src = [
      'static void *',
      'int_malloc (int av, int bytes)',
      '{',
      '  int victim = 0;',
      '  for (;;)',
      '    {',
      '#if USE_TCACHE',
      '      if (av)',
      '        {',
      '          victim = 1;',
      '          continue;',
      '        }',
      '      else',
      '        {',
      '#endif',
      '          victim = 2;',
      '          return 0;',
      '#if USE_TCACHE',
      '        }',
      '#endif',
      '    }',
      '}',
      '',
      'int after (void) { return 3; }',
      '',
    ].join('\n');
    const bytes = Buffer.from(src);
    const x = extractFile('c', bytes);
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual(['int_malloc:function', 'after:function']);
    expect(spanText(bytes, x, 'int_malloc')).toMatch(/^static void \*\nint_malloc [\s\S]*return 0;[\s\S]*\n}$/);
    // The kernel's ip_set_hash_gen.h: the opening half has an `#else` that opens nothing, and
    // a block of another condition opens and closes in two halves inside the same function.
    const kernel = [
      'static int',
      'test_cidrs(int *nets, int n)',
      '{',
      '\tint j, k;',
      '\tfor (j = 0; j < n; j++) {',
      '#if NET_COUNT == 2',
      '\t\tfor (k = 0; k < n; k++) {',
      '\t\t\treset(nets, k);',
      '#else',
      '\t\treset(nets, j);',
      '#endif',
      '\t\tlookup(nets, j);',
      '#if NET_COUNT == 2',
      '\t\t}',
      '#endif',
      '\t}',
      '#ifndef PROTO_UNDEF',
      '\tif (n == 4) {',
      '#endif',
      '\t\tj = 4;',
      '#ifndef PROTO_UNDEF',
      '\t} else {',
      '\t\tj = 6;',
      '\t}',
      '#endif',
      '\treturn j;',
      '}',
      '',
    ].join('\n');
    const k = extractFile('c', Buffer.from(kernel));
    expect(k.parse).toBe('ok');
    expect(defs(k)).toEqual(['test_cidrs:function']);
  });

  it("reads one body under alternative function heads, by each head's name", () => {
    // glibc's vfscanf-internal.c and the kernel's `#ifdef CONFIG_…` heads: before, two
    // prototypes and a stray block, and no function at all.
    const src = [
      '#ifdef COMPILE_WSCANF',
      'int',
      '__vfwscanf_internal (FILE *s, const wchar_t *format, int flags)',
      '#else',
      'int',
      '__vfscanf_internal (FILE *s, const char *format, int flags)',
      '#endif',
      '{',
      '  return flags;',
      '}',
      '',
      'static int',
      '#if defined(WIDE)',
      'twohead(int a, int b)',
      '#elif defined(NARROW)',
      'twohead_narrow(int a)',
      '#else',
      'twohead(void)',
      '#endif',
      '{',
      '  return 0;',
      '}',
      '',
    ].join('\n');
    const bytes = Buffer.from(src);
    const x = extractFile('c', bytes);
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      '__vfwscanf_internal:function',
      '__vfscanf_internal:function',
      'twohead:function',
      'twohead_narrow:function',
    ]);
    expect(spanText(bytes, x, '__vfscanf_internal')).toMatch(/^int\n__vfwscanf_internal[\s\S]*return flags;\n}$/);
    expect(spanText(bytes, x, 'twohead')).toMatch(/^static int\n#if defined\(WIDE\)\ntwohead[\s\S]*return 0;\n}$/);
    // A prototype's head split so is left as it is: no body follows.
    const proto = extractFile('c', Buffer.from('#ifdef W\nint f(int a)\n#else\nint f(void)\n#endif\n;\n'));
    expect(defs(proto).every((d) => d.endsWith(':prototype') || d.endsWith(':function'))).toBe(true);
    expect(defs(proto).some((d) => d.endsWith(':function'))).toBe(false);
  });

  it('spans a macro whose continued body holds block comments to its last line', () => {
    // The kernel's ___wait_event and kstrto_from_user: before, each macro ended at its first
    // comment and its body's statements became a variable and a prototype.
    const src = [
      '#define wait_ev(wq, cond, ret)\t\t\\',
      '({\t\t\t\t\t\\',
      '\tlong __ret = ret;\t/* explicit shadow */\t\\',
      '\t/* a comment that runs \\',
      '\t   over two lines */\t\t\t\\',
      '\tfor (;;) {\t\t\t\t\\',
      '\t\tif (cond)\t\t\t\\',
      '\t\t\tbreak;\t\t\t\\',
      '\t}\t\t\t\t\t\\',
      '\t__ret;\t\t\t\t\t\\',
      '})',
      '',
      '#define kstrto_from_user(f, g, type)\t\t\\',
      'int f(const char __user *s, size_t count, type *res)\t\\',
      '{\t\t\t\t\t\t\\',
      '\t/* sign, base 2 representation, newline, terminator */\t\\',
      '\tchar buf[1 + sizeof(type) * 8 + 1 + 1];\t\t\\',
      '\treturn g(buf, res);\t\t\t\\',
      '}',
      '',
      'int after(void) { return 0; }',
      '',
    ].join('\n');
    const bytes = Buffer.from(src);
    const x = extractFile('c', bytes);
    expect(defs(x)).toEqual(['wait_ev:macro', 'kstrto_from_user:macro', 'after:function']);
    // A macro's span ends with its line break, as a one-line macro's does.
    const lines = (name: string) => x.definitions.find((d) => d.name === name)!;
    expect([lines('wait_ev').startLine, lines('wait_ev').endLine]).toEqual([1, 11]);
    expect(spanText(bytes, x, 'wait_ev').endsWith('})\n')).toBe(true);
    expect([lines('kstrto_from_user').startLine, lines('kstrto_from_user').endLine]).toEqual([13, 19]);
    expect(spanText(bytes, x, 'after')).toBe('int after(void) { return 0; }');
  });

  it('finds the one macro holding a comment among macros and comments that do not', () => {
    // The comment openers are looked for in one forward pass over all macros: a comment
    // between two macros, or far below one, is not inside it; the third macro's is.
    const src = [
      '/* a header comment */',
      '#define ONE 1',
      '/* between */',
      '#define TWO 2',
      '#define wait_ev(cond)\t\\',
      '({\t\t\\',
      '\t/* inside */\t\\',
      '\tfor (;;) {\t\\',
      '\t\tif (cond)\t\\',
      '\t\t\tbreak;\t\\',
      '\t}\t\t\\',
      '})',
      '',
      'int after(void) { return 0; }',
      '/* a trailing comment */',
      '',
    ].join('\n');
    const x = extractFile('c', Buffer.from(src));
    expect(defs(x)).toEqual(['ONE:macro', 'TWO:macro', 'wait_ev:macro', 'after:function']);
    const wait = x.definitions.find((d) => d.name === 'wait_ev')!;
    expect([wait.startLine, wait.endLine]).toEqual([5, 12]);
  });

  it('keeps an __init function of a file whose loop macros over member lists err', () => {
    // The kernel's drivers/net/team/team.c: each `list_for_each_entry(x, &team->list, l) {`
    // errs for its missing `;`. Read as a function head, `team` was blanked as an annotation
    // there, the rewrite erred more than the file and was dropped, and `__init` functions
    // (whose annotation only the rewrite reads) were lost with it.
    const loop = (k: number) =>
      [
        `static struct team_option *lookup${k}(struct team *team, const char *name)`,
        '{',
        '\tstruct team_option *option;',
        '',
        '\tlist_for_each_entry(option, &team->option_list, list) {',
        '\t\tif (strcmp(option->name, name) == 0)',
        '\t\t\treturn option;',
        '\t}',
        '\treturn NULL;',
        '}',
        '',
      ].join('\n');
    const src = [
      ...[1, 2, 3, 4].map(loop),
      'static int __init team_module_init(void)',
      '{',
      '\treturn register_netdevice_notifier(&team_notifier_block);',
      '}',
      '',
      'static void __exit team_module_exit(void)',
      '{',
      '\tunregister_netdevice_notifier(&team_notifier_block);',
      '}',
      '',
      'module_init(team_module_init);',
      '',
    ].join('\n');
    const x = extractFile('c', Buffer.from(src));
    expect(defs(x)).toEqual([
      'lookup1:function',
      'lookup2:function',
      'lookup3:function',
      'lookup4:function',
      'team_module_init:function',
      'team_module_exit:function',
    ]);
  });

  it('reads a function defined through a DEFINE macro followed by a block as a function named by its first argument', () => {
    // fs/read_write.c: before, map listed none of its 28 syscalls.
    const src = [
      'SYSCALL_DEFINE3(read, unsigned int, fd, char __user *, buf, size_t, count)',
      '{',
      '\treturn ksys_read(fd, buf, count);',
      '}',
      '',
      'COMPAT_SYSCALL_DEFINE5(preadv, compat_ulong_t, fd,',
      '\t\tconst struct iovec __user *, vec,',
      '\t\tcompat_ulong_t, vlen, u32, pos_low, u32, pos_high)',
      '{',
      '\treturn do_compat_preadv64(fd, vec, vlen, pos_low, 0);',
      '}',
      '',
      'DEFINE_MUTEX(read_lock);',
      'SYSCALL_DEFINE0(sync)',
      '{',
      '\treturn 0;',
      '}',
      '',
    ].join('\n');
    const bytes = Buffer.from(src);
    const x = extractFile('c', bytes);
    expectExactSpans(bytes, x.definitions);
    // A macro of its name alone, read as the grammar reads it: a type and the name in parentheses.
    expect(defs(x)).toEqual(['read:function', 'preadv:function', 'sync:function']);
    expect(spanText(bytes, x, 'read').split('\n')).toHaveLength(4);
    const preadv = x.definitions.find((d) => d.name === 'preadv')!;
    expect([preadv.startLine, preadv.endLine]).toEqual([6, 11]);
    expect(roles(x, 'ksys_read')).toEqual(['call']);
  });

  it('tells the spans whose names lie in no part the grammar could not read', () => {
    const src = 'int ok(void) { return 1; }\nint bad(void) { return (helper(2) + ; }\n';
    const at = (w: string) => ({ start: src.indexOf(w), end: src.indexOf(w) + w.length });
    expect(definitionsParsedCleanly('c', Buffer.from(src), [at('ok'), at('helper'), at('bad')])).toEqual([
      true,
      false,
      true,
    ]);
    expect(definitionsParsedCleanly('text', Buffer.from(src), [at('ok')])).toEqual([false]);
  });

  it('marks the occurrences that lie inside what the grammar could not read', () => {
    const src =
      'int ok(void) { return helper(1); }\nint bad(void) { return (helper(2) + ; }\nint later(void) { return helper(3); }\n';
    const occ = extractOccurrences('c', Buffer.from(src), 'helper');
    expect(occ.map((o) => [o.line, o.role, o.inError ?? false])).toEqual([
      [1, 'call', false],
      [2, 'call', true],
      [3, 'call', false],
    ]);
  });

  it('starts a definition at an annotation line above its head, so its doc comment stays adjacent', () => {
    // lib/kstrtox.c: before, kstrtoull spanned from `int`, without `noinline` and its kerneldoc.
    const src =
      '/**\n * kstrtoull - convert a string\n */\nnoinline\nint kstrtoull(const char *s)\n{\n\treturn 0;\n}\n\n__BEGIN_DECLS\n\nint later(void) { return 1; }\n';
    const bytes = Buffer.from(src);
    const x = extractFile('c', bytes);
    expect(spanText(bytes, x, 'kstrtoull')).toBe('noinline\nint kstrtoull(const char *s)\n{\n\treturn 0;\n}');
    // A blanked line set apart by an empty one is no part of the definition below it.
    expect(spanText(bytes, x, 'later')).toBe('int later(void) { return 1; }');
  });
});

const WIDGET_HPP = `#pragma once
#include <vector>
#include "base/object.h"

namespace ui {
namespace detail { int clamp(int v); }

template <typename T>
class Box : public Base {
 public:
  Box();
  explicit Box(T v) : value_(v) {}
  ~Box();
  T get() const { return value_; }
  virtual void draw() = 0;
  static int count;
 private:
  T value_;
  enum class Mode { On, Off };
  using Ptr = Box*;
};

template <typename T>
T Box<T>::peek() const { return value_; }

struct Point { double x, y; double norm() const; };
double Point::norm() const { return x * y; }
int detail::clamp(int v) { return v; }
template <class T> T max_of(T a, T b) { return a > b ? a : b; }
constexpr int kLimit = 10;
}  // namespace ui
`;

describe('C++ extraction', () => {
  it('reads (min)() and (max)() as methods named min and max, not functions named by their type', () => {
    // abseil's numeric_limits<absl::uint128> listed `function absl::uint128` twice.
    const src = [
      'template <>',
      'class numeric_limits<absl::uint128> {',
      ' public:',
      '  static constexpr absl::uint128 (min)() { return 0; }',
      '  static constexpr absl::uint128 (max)() { return absl::Uint128Max(); }',
      '};',
      'int smaller(int a, int b) { return (std::min)(a, b) + (min)(a, b); }',
      '',
    ].join('\n');
    const bytes = Buffer.from(src);
    const x = extractFile('cpp', bytes);
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'numeric_limits:class',
      'numeric_limits::min:method',
      'numeric_limits::max:method',
      'smaller:function',
    ]);
    expectExactSpans(bytes, x.definitions);
    expect(spanText(bytes, x, 'min')).toBe('static constexpr absl::uint128 (min)() { return 0; }');
  });

  it('an annotated forward declaration of a class declares no variable; a variable of a capitalised struct stays', () => {
    // abseil's statusor.h: `class ABSL_MUST_USE_RESULT StatusOr;` was a variable StatusOr.
    const x = extractFile(
      'cpp',
      Buffer.from('class ABSL_MUST_USE_RESULT StatusOr;\nstruct FOO_T x;\nclass Plain y;\n'),
    );
    expect(defs(x)).toEqual(['x:variable', 'y:variable']);
  });

  it('a bodiless function the grammar reads inside a method body is a statement, not a definition', () => {
    // abseil's raw_hash_set: after `Deallocate<alignof(slot_type)>(…)`, `growth_left() = 0;`
    // was a function destroy_slots::growth_left, read by show sym: before the real method.
    const src = [
      'class Set {',
      ' public:',
      '  void destroy_slots() {',
      '    Deallocate<alignof(slot_type)>(',
      '        &alloc_ref(), ctrl_, AllocSize(capacity_, sizeof(slot_type), alignof(slot_type)));',
      '    growth_left() = 0;',
      '  }',
      '  size_t& growth_left() { return left_; }',
      '};',
      '',
    ].join('\n');
    const x = extractFile('cpp', Buffer.from(src));
    expect(defs(x).filter((d) => d.includes('growth_left'))).toEqual(['Set::growth_left:method']);
  });

  it('reads a class whose head holds a conditional of one branch, below a long comment', () => {
    // abseil's int128.h: `class` ⏎ `#if …` ⏎ `alignas(unsigned __int128)` ⏎ `#endif` ⏎ `uint128 {`,
    // under 40 lines of comment: the class was lost, its members read as the namespace's.
    const src = [
      'namespace absl {',
      ...Array.from(
        { length: 40 },
        (_, k) => `// line ${k} of a comment that explains uint128 at some length, as abseil does`,
      ),
      'class',
      '#if defined(ABSL_HAVE_INTRINSIC_INT128)',
      '    alignas(unsigned __int128)',
      '#endif  // ABSL_HAVE_INTRINSIC_INT128',
      '        uint128 {',
      ' public:',
      '  uint128() = default;',
      '  constexpr explicit operator bool() const;',
      ' private:',
      '  uint64_t lo_;',
      '};',
      '}  // namespace absl',
      '',
    ].join('\n');
    const x = extractFile('cpp', Buffer.from(src));
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'absl:module',
      'absl::uint128:class',
      'uint128::uint128:method',
      'uint128::operator bool:prototype',
      'uint128::lo_:field',
    ]);
  });

  it('keeps the names a repair blanked as uses: annotation macros, a macro line, a definition macro', () => {
    // An abseil trial: `refs ABSL_NAMESPACE_BEGIN` found its definitions and none of its 287
    // files' uses, `refs ABSL_MUST_USE_RESULT` 7 of 99, each with nothing said of the rest.
    const src = [
      'namespace absl {',
      'ABSL_NAMESPACE_BEGIN',
      'class ABSL_MUST_USE_RESULT Status {',
      ' public:',
      '  Status() {}',
      '};',
      'static int __init setup_status(void) { return 0; }',
      '#define WRAP(x) /* OLD_NAME_IN_COMMENT */ \\',
      '  (x)',
      'ABSL_NAMESPACE_END',
      '}  // namespace absl',
      '',
    ].join('\n');
    const x = extractFile('cpp', Buffer.from(src));
    expect(defs(x)).toEqual([
      'absl:module',
      'absl::Status:class',
      'Status::Status:method',
      'absl::setup_status:function',
      'WRAP:macro',
    ]);
    for (const name of ['ABSL_NAMESPACE_BEGIN', 'ABSL_MUST_USE_RESULT', '__init'])
      expect(roles(x, name)).toEqual(['reference']);
    // Read by the grammar, not blanked: a use as before.
    expect(roles(x, 'ABSL_NAMESPACE_END')).toEqual(['type']);
    expect(x.names.some((n) => n.name === 'OLD_NAME_IN_COMMENT')).toBe(false);
    // A syscall's macro is a use too; its argument types are no names.
    const c = extractFile(
      'c',
      Buffer.from('SYSCALL_DEFINE3(read, unsigned int, fd, char __user *, buf, size_t, count)\n{\n\treturn 0;\n}\n'),
    );
    expect(defs(c)).toEqual(['read:function']);
    expect(roles(c, 'SYSCALL_DEFINE3')).toEqual(['reference']);
    expect(c.names.some((n) => n.name === 'unsigned' || n.name === 'char')).toBe(false);
  });

  it('reads googletest tests as functions named by the test and owned by the suite', () => {
    // Before: every `TEST(Suite, Name) {` was a function named TEST (a C++ trial: `map` of a
    // test file listed TEST forty times, `show sym:TEST` counted 1,960 definitions).
    const src = [
      '#include "gtest/gtest.h"',
      'namespace {',
      'class FooTest : public testing::Test {};',
      'TEST_F(FooTest, Abc) { FAIL() << "Expected failure."; }',
      'TEST(BarTest, TestOne)',
      '{',
      '  EXPECT_EQ(1, helper());',
      '}',
      '// TEST(Commented, Out) {',
      'TYPED_TEST_P(TypedTest, Works) {',
      '  const char* s = "}";',
      '}',
      'int helper(int a, int b) { return a + b; }',
      '}  // namespace',
      '#define TEST(test_suite_name, test_name) GTEST_TEST(test_suite_name, test_name)',
      '',
    ].join('\n');
    const bytes = Buffer.from(src);
    const x = extractFile('cpp', bytes);
    expect(defs(x)).toEqual([
      'FooTest:class',
      'FooTest::Abc:function',
      'BarTest::TestOne:function',
      'TypedTest::Works:function',
      'helper:function',
      'TEST:macro',
    ]);
    expect(spanText(bytes, x, 'TestOne')).toBe('TEST(BarTest, TestOne)\n{\n  EXPECT_EQ(1, helper());\n}');
    expect(spanText(bytes, x, 'Works')).toBe('TYPED_TEST_P(TypedTest, Works) {\n  const char* s = "}";\n}');
  });

  it('googletest idioms: an exported specialization, annotations after a body and after a destructor, a macro call of a keyword', () => {
    // A C++ trial on googletest 1.12: the four `class GTEST_API_ Matcher<…>` specializations
    // were lost (their constructors read as free functions), `} GTEST_ATTRIBUTE_UNUSED_;` was a
    // variable, a destructor's body a method named GTEST_LOCK_EXCLUDED_, and
    // `GTEST_IMPL_FORMAT_C_STRING_AS_POINTER_(char);` a variable `char`.
    const src = [
      'namespace testing {',
      'template <typename T>',
      'class Matcher {',
      ' public:',
      '  Matcher() {}',
      '};',
      'template <>',
      'class GTEST_API_ Matcher<const std::string&>',
      '    : public internal::MatcherBase<const std::string&> {',
      ' public:',
      '  Matcher() {}',
      '};',
      'namespace internal {',
      'GTEST_IMPL_FORMAT_C_STRING_AS_POINTER_(char);',
      'GTEST_IMPL_FORMAT_C_STRING_AS_POINTER_(char16_t);',
      'class ScopedTrace {',
      ' public:',
      '  ScopedTrace() {}',
      '} GTEST_ATTRIBUTE_UNUSED_;',
      'template <typename F>',
      'class FunctionMocker {',
      ' public:',
      '  ~FunctionMocker() override GTEST_LOCK_EXCLUDED_(g_gmock_mutex) {',
      '    Verify();',
      '  }',
      '};',
      '}  // namespace internal',
      '}  // namespace testing',
      '',
    ].join('\n');
    const bytes = Buffer.from(src);
    const x = extractFile('cpp', bytes);
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'testing:module',
      'testing::Matcher:class',
      'Matcher::Matcher:method',
      'testing::Matcher:class',
      'Matcher::Matcher:method',
      'testing::internal:module',
      'internal::ScopedTrace:class',
      'ScopedTrace::ScopedTrace:method',
      'internal::FunctionMocker:class',
      'FunctionMocker::~FunctionMocker:method',
    ]);
    expect(spanText(bytes, x, '~FunctionMocker')).toMatch(
      /^~FunctionMocker\(\) override GTEST_LOCK_EXCLUDED_[\s\S]*Verify\(\);\n {2}}$/,
    );
  });

  const bytes = Buffer.from(WIDGET_HPP);
  const x = extractFile('cpp', bytes);

  it('finds namespaces, classes, methods, prototypes, fields, templates and aliases with owners', () => {
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'ui:module',
      'ui::detail:module',
      'detail::clamp:prototype',
      'ui::Box:class',
      'Box::Box:prototype',
      'Box::Box:method',
      'Box::~Box:prototype',
      'Box::get:method',
      'Box::draw:prototype',
      'Box::count:field',
      'Box::value_:field',
      'Box::Mode:enum',
      'Mode::On:variant',
      'Mode::Off:variant',
      'Box::Ptr:type',
      'Box::peek:method',
      'ui::Point:struct',
      'Point::x:field',
      'Point::y:field',
      'Point::norm:prototype',
      'Point::norm:method',
      'detail::clamp:function',
      'ui::max_of:function',
      'ui::kLimit:constant',
    ]);
    expectExactSpans(bytes, x.definitions);
  });

  it('spans a template from its template head', () => {
    expect(spanText(bytes, x, 'Box', 'class')).toMatch(
      /^template <typename T>\nclass Box : public Base \{[\s\S]*\n\};$/,
    );
    expect(spanText(bytes, x, 'peek')).toBe('template <typename T>\nT Box<T>::peek() const { return value_; }');
    expect(spanText(bytes, x, 'max_of')).toBe('template <class T> T max_of(T a, T b) { return a > b ? a : b; }');
  });

  it('an out-of-line definition in a file that defines neither scope: a namespace by its lower-case name, a class otherwise', () => {
    const y = extractFile(
      'cpp',
      Buffer.from(
        '#include "widget.hpp"\nint detail::clamp(int v) { return v; }\ndouble Point::norm() const { return 0; }\ntemplate <class T> void vec<T>::push(T v) {}\nstruct impl {};\nvoid impl::run() {}\n',
      ),
    );
    expect(defs(y)).toEqual([
      'detail::clamp:function',
      'Point::norm:method',
      'vec::push:method',
      'impl:struct',
      'impl::run:method',
    ]);
  });

  it('reads an export macro between class and name', () => {
    const y = extractFile(
      'cpp',
      Buffer.from(
        'namespace llvm {\nclass LLVM_ABI Foo : public Bar {\npublic:\n  LLVM_ABI static Foo *create(int N);\n};\n}\n',
      ),
    );
    expect(y.parse).toBe('ok');
    expect(defs(y)).toEqual(['llvm:module', 'llvm::Foo:class', 'Foo::create:prototype']);
  });

  // The grammar reads `class SPDLOG_API logger` ⏎ `{` without any error as a function named
  // logger returning `class SPDLOG_API`: the class and its bodiless members vanished silently.
  it('reads an export macro between class and name when the head parses without errors (brace on the next line)', () => {
    const src = [
      'namespace ns {',
      'class MYLIB_API widget',
      '{',
      'public:',
      '    void resize(int w);',
      '    int width() const { return w_; }',
      'private:',
      '    int w_{0};',
      '};',
      'struct MYLIB_API EXTRA_ALIGN(8) config final : base {',
      '    int level;',
      '};',
      '}',
      '',
    ].join('\n');
    const y = extractFile('cpp', Buffer.from(src));
    expect(y.parse).toBe('ok');
    expect(defs(y)).toEqual([
      'ns:module',
      'ns::widget:class',
      'widget::resize:prototype',
      'widget::width:method',
      'widget::w_:field',
      'ns::config:struct',
      'config::level:field',
    ]);
    expect(spanText(Buffer.from(src), y, 'widget', 'class')).toMatch(/^class MYLIB_API widget\n\{[\s\S]*\};?$/);
  });

  it('leaves a variable of an annotation-named tag type alone: no body follows the name', () => {
    const src = 'struct __kernel_timespec ts;\nstruct FOO_T\nvalue = { 0 };\nstatic struct __wait_queue_head q;\n';
    const y = extractFile('c', Buffer.from(src));
    expect(y.definitions.filter((d) => d.kind === 'struct')).toEqual([]);
    expect(roles(y, '__kernel_timespec')).toEqual(['type']);
  });

  it('spdlog idioms: a macro before a constructor or destructor, a statement-like macro around a block', () => {
    const src = [
      'namespace spdlog {',
      'SPDLOG_INLINE thread_pool::thread_pool(size_t n)',
      '    : q_(n)',
      '{}',
      '',
      'SPDLOG_INLINE thread_pool::~thread_pool()',
      '{',
      '    SPDLOG_TRY',
      '    {',
      '        for (size_t i = 0; i < threads_.size(); i++)',
      '        {',
      '            post_async_msg_(async_msg(async_msg_type::terminate), async_overflow_policy::block);',
      '        }',
      '    }',
      '    SPDLOG_CATCH_STD',
      '}',
      '',
      'void SPDLOG_INLINE thread_pool::post_async_msg_(async_msg &&new_msg, async_overflow_policy overflow_policy)',
      '{',
      '    q_.enqueue(std::move(new_msg));',
      '}',
      '} // namespace spdlog',
      '',
    ].join('\n');
    const y = extractFile('cpp', Buffer.from(src));
    expect(defs(y)).toEqual([
      'spdlog:module',
      'thread_pool::thread_pool:function',
      'thread_pool::~thread_pool:function',
      'thread_pool::post_async_msg_:function',
    ]);
  });
});

describe('JUCE idioms, in CRLF as JUCE ships them', () => {
  const src = [
    'namespace juce',
    '{',
    '#define jassert(x) do { if (! (x)) jassertfalse; } while (false)',
    'class JUCE_API  AudioProcessor',
    '{',
    'public:',
    '    class JUCE_API  Bus',
    '    {',
    '    public:',
    '        int getNumberOfChannels() const noexcept;',
    '    private:',
    '        int cachedChannelCount;',
    '',
    '        JUCE_DECLARE_NON_COPYABLE (Bus)',
    '    };',
    '',
    '    static void JUCE_CALLTYPE setTypeOfNextNewPlugin (int);',
    '    virtual void releaseResources() = 0;',
    '',
    '    JUCE_DECLARE_NON_COPYABLE_WITH_LEAK_DETECTOR (AudioProcessor)',
    '};',
    '',
    'static int countChannels (AudioProcessor& p)',
    '{',
    '    return p.getTotalNumInputChannels();',
    '}',
    '} // namespace juce',
    '',
  ].join('\r\n');

  it('finds an exported class whose members end with a macro call without ;', () => {
    const x = extractFile('cpp', Buffer.from(src));
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'juce:module',
      // A macro has no namespace, wherever it is written.
      'jassert:macro',
      'juce::AudioProcessor:class',
      'AudioProcessor::Bus:class',
      'Bus::getNumberOfChannels:prototype',
      'Bus::cachedChannelCount:field',
      'AudioProcessor::setTypeOfNextNewPlugin:prototype',
      'AudioProcessor::releaseResources:prototype',
      'juce::countChannels:function',
    ]);
  });

  it('reads enumerators under #if, an anonymous enum with a base type, a convention in a function pointer', () => {
    const src = [
      'namespace juce',
      '{',
      'JUCE_BEGIN_IGNORE_WARNINGS_GCC_LIKE ("-Wlanguage-extension-token")',
      'class File',
      '{',
      'public:',
      '    enum SpecialLocationType',
      '    {',
      '        userHomeDirectory,',
      '       #if JUCE_WINDOWS',
      '        windowsLocalAppData',
      '       #endif',
      '    };',
      '    static File getSpecialLocation (SpecialLocationType type);',
      '};',
      'namespace gl',
      '{',
      'enum : GLenum',
      '{',
      '    GL_FALSE = 0,',
      '    GL_TRUE = 1,',
      '};',
      'extern void (KHRONOS_APIENTRY* const& glCullFace) (GLenum mode);',
      '}',
      '}',
      '',
    ].join('\r\n');
    const x = extractFile('cpp', Buffer.from(src));
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual(
      expect.arrayContaining([
        'File::SpecialLocationType:enum',
        'SpecialLocationType::windowsLocalAppData:variant',
        'File::getSpecialLocation:prototype',
        'gl::GL_TRUE:variant',
      ]),
    );
  });

  it('keeps a loop macro call that heads a block where nothing errs', () => {
    const loop = [
      'void f (List& l)',
      '{',
      '    FOR_EACH_ITEM (l, item)',
      '    {',
      '        use (item);',
      '    }',
      '}',
      '',
    ];
    const x = extractFile('cpp', Buffer.from(loop.join('\r\n')));
    expect(x.names.some((n) => n.name === 'FOR_EACH_ITEM')).toBe(true);
  });
});

describe('the grammar of a .h file', () => {
  it('is C++ when the syntax says so, else C', () => {
    expect(looksLikeCpp(WIDGET_HPP)).toBe(true);
    expect(looksLikeCpp('class Foo {\n int x;\n};\n')).toBe(true);
    // Allman braces: the head alone on its line (JUCE).
    expect(looksLikeCpp('namespace juce\r\n{\r\nint x;\r\n}\r\n')).toBe(true);
    expect(looksLikeCpp('class JUCE_API  Component\n{\n int x;\n};\n')).toBe(true);
    expect(looksLikeCpp('struct class_info\n{\n int class;\n};\n')).toBe(false);
    expect(looksLikeCpp('#include <string>\nstd::string name();\n')).toBe(true);
    expect(looksLikeCpp(SCHED_H)).toBe(false);
    // C that uses C++ keywords as names, and C++ only inside comments and strings.
    expect(
      looksLikeCpp('static inline void list_add(struct list_head *new, struct list_head *head);\nint class;\n'),
    ).toBe(false);
    expect(
      looksLikeCpp('/* see Foo::bar and\n class Foo { */\nconst char *s = "a::b";\n// namespace x {\nint f(void);\n'),
    ).toBe(false);
  });

  it('a C++ header named .h is extracted as C++ and says so', () => {
    const x = extractFile('c', Buffer.from(WIDGET_HPP));
    expect(x.lang).toBe('cpp');
    expect(defs(x)).toContain('ui::Box:class');
    const c = extractFile(
      'c',
      Buffer.from(
        'struct list_head { struct list_head *next; };\nstatic inline void list_add(struct list_head *new, struct list_head *head) { head->next = new; }\n',
      ),
    );
    expect(c.lang).toBeUndefined();
    expect(c.parse).toBe('ok');
    expect(defs(c)).toEqual(['list_head:struct', 'list_head::next:field', 'list_add:function']);
  });
});
