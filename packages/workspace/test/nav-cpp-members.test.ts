// C++ callees of a method (a trial on googletest 1.12): a bare call inside a method reaches its
// own class's method first, through the implicit `this`, wherever that method is defined; a
// method of another class reached by a bare call or through a receiver that is no word is a
// candidate, never a resolved callee.
import { ctxCommand, refsCommand, searchCommand, showCommand, type CommandOptions } from '../src';
import { indexedRepo, json, type IndexedRepo } from './ws-helpers';

const FILES = {
  'src/impl.h': [
    '#pragma once',
    'namespace testing {',
    'namespace internal {',
    'class Listeners {};',
    'class UnitTestImpl {',
    ' public:',
    '  bool RunAllTests();',
    '  int ListTestsMatchingFilter();',
    '  Listeners* listeners() { return &listeners_; }',
    ' private:',
    '  Listeners listeners_;',
    '};',
    '}  // namespace internal',
    '}  // namespace testing',
    '',
  ].join('\n'),
  'src/unit.cc': [
    '#include "impl.h"',
    'namespace testing {',
    'class UnitTest {',
    ' public:',
    '  static UnitTest* GetInstance();',
    '  Listeners& listeners();',
    '  internal::UnitTestImpl* impl() { return impl_; }',
    '  int Run();',
    ' private:',
    '  internal::UnitTestImpl* impl_;',
    '};',
    'class XmlPrinter {',
    ' public:',
    '  int ListTestsMatchingFilter() { return 0; }',
    '};',
    'Listeners& UnitTest::listeners() { return *impl()->listeners(); }',
    'int UnitTest::Run() { return impl()->RunAllTests() ? 0 : 1; }',
    'namespace internal {',
    'bool UnitTestImpl::RunAllTests() {',
    '  listeners();',
    '  return ListTestsMatchingFilter() > 0;',
    '}',
    'int UnitTestImpl::ListTestsMatchingFilter() { return 1; }',
    'UnitTestImpl* GetUnitTestImpl() { return UnitTest::GetInstance()->impl(); }',
    '}  // namespace internal',
    '}  // namespace testing',
    '',
  ].join('\n'),
  // Two classes of one name in one file, and a template's specializations: each owns its body.
  'src/mock.h': [
    '#pragma once',
    'namespace testing {',
    'namespace internal {',
    'template <typename F>',
    'class MockFunction;',
    'template <typename R, typename... Args>',
    'class MockFunction<R(Args...)> {',
    ' public:',
    '  MockFunction() {}',
    '  R Call(Args... args) { return R(); }',
    '};',
    'template <typename T>',
    'class UniversalPrinter {',
    ' public:',
    '  static void Print(const T& value) {}',
    '};',
    'template <typename T>',
    'class UniversalPrinter<T&> {',
    ' public:',
    '  static void PrintRef(const T& value) {}',
    '};',
    '}  // namespace internal',
    'template <typename F>',
    'class MockFunction : public internal::MockFunction<F> {',
    '  using Base = internal::MockFunction<F>;',
    ' public:',
    '  using Base::Base;',
    '};',
    '}  // namespace testing',
    '',
  ].join('\n'),
  // abseil's node_hash_map: a long template head, and a base qualified through namespaces
  // whose argument list runs over lines.
  'src/raw_hash_map.h': [
    '#pragma once',
    'namespace absl {',
    'namespace container_internal {',
    'template <class Policy, class Hash, class Eq, class Alloc>',
    'class raw_hash_map {',
    ' public:',
    '  int size() const { return 0; }',
    '};',
    'struct HashEq {',
    '  using Hash = int;',
    '  using Eq = int;',
    '};',
    '}  // namespace container_internal',
    'template <class Key, class Value,',
    '          class Hash = absl::container_internal::hash_default_hash<Key>,',
    '          class Eq = absl::container_internal::hash_default_eq<Key>,',
    '          class Alloc = std::allocator<std::pair<const Key, Value>>>',
    'class node_hash_map',
    '    : public absl::container_internal::raw_hash_map<',
    '          absl::container_internal::NodeHashMapPolicy<Key, Value>, Hash, Eq,',
    '          Alloc> {',
    '  using Base = typename node_hash_map::raw_hash_map;',
    '};',
    '}  // namespace absl',
    '',
  ].join('\n'),
  // abseil's kMaxInline: a namespace's constant, and a class's of the same name defined from it.
  'src/cord_internal.h': ['#pragma once', 'namespace cord_internal {', 'enum { kMaxInline = 15 };', '}', ''].join('\n'),
  'src/cord.h': [
    '#pragma once',
    '#include "cord_internal.h"',
    'class InlineRep {',
    ' public:',
    '  static constexpr unsigned char kMaxInline = cord_internal::kMaxInline;',
    '  int remaining() const { return kMaxInline; }',
    '};',
    'inline int TestCordSize() { return cord_internal::kMaxInline / 2 + 1; }',
    '',
  ].join('\n'),
  'src/matchers.h': [
    '#pragma once',
    'template <typename Tuple, typename Func>',
    'class TransformHelper {',
    ' public:',
    '  static int Run(Func f, const Tuple& t) { return f(t); }',
    '};',
    'template <typename Tuple, typename Func>',
    'int Transform(Func f, const Tuple& t) { return TransformHelper<Tuple, Func>::Run(f, t); }',
    'template <class Impl>',
    'class PolymorphicMatcher {',
    ' public:',
    '  Impl& impl() { return impl_; }',
    ' private:',
    '  Impl impl_;',
    '};',
    '',
  ].join('\n'),
};

interface Callee {
  name: string;
  path: string;
  line: number;
  kind: string;
  resolution?: string;
}

describe("C++ navigation: the implicit this, one file's namesakes, template-argument paths", () => {
  let repo: IndexedRepo;
  const at = (more: Partial<CommandOptions> = {}) => repo.at(more);
  const callees = async (query: string[]): Promise<string[]> => {
    const hit = json(await searchCommand(query, at())).hits[0];
    const c = json(await ctxCommand(hit.handle, at()));
    return (c.callees as Callee[]).map((s) => `${s.name} ${s.path}:${s.line}${s.resolution ? ` ${s.resolution}` : ''}`);
  };

  beforeAll(async () => {
    repo = await indexedRepo('tp-nav-cpp-', FILES, { format: 'json', budget: 5000 });
  });

  it("a bare call inside a method is its own class's method, in the file or in a header", async () => {
    // Before: XmlPrinter's ListTestsMatchingFilter (the same file's first of the name) and
    // UnitTest::listeners, both resolved.
    expect(await callees(['sym:RunAllTests', 'kind:method', 'file:src/unit.cc'])).toEqual([
      'UnitTestImpl::listeners src/impl.h:9',
      'UnitTestImpl::ListTestsMatchingFilter src/unit.cc:23',
    ]);
  });

  it('a call through a receiver that is no word is a candidate when another class owns the method', async () => {
    // `UnitTest::GetInstance()->impl()`: the name alone chose among the methods called impl.
    const list = await callees(['sym:GetUnitTestImpl']);
    expect(list).toEqual(['UnitTest::GetInstance src/unit.cc:5', 'UnitTest::impl src/unit.cc:7 candidate']);
  });

  it("a bare call of the method's own class stays resolved; another class's method through `impl()->` is a candidate", async () => {
    expect(await callees(['sym:Run', 'kind:method', 'file:src/unit.cc'])).toEqual([
      'UnitTest::impl src/unit.cc:7',
      'UnitTestImpl::RunAllTests src/unit.cc:19 candidate',
    ]);
  });

  it("show sym: lists no member of another class of the same name, nor of a template's specialization", async () => {
    // Before: `members: 25 Base` under internal::MockFunction (testing::MockFunction's), and
    // the specialization's PrintRef under the primary UniversalPrinter.
    for (const name of ['MockFunction', 'UniversalPrinter']) {
      const out = await showCommand(`sym:${name} file:src/mock.h`, at({ format: 'lines', budget: 2000 }));
      expect(out.stdout).toMatch(new RegExp(`^\\w+:1  src/mock\\.h:\\d+-\\d+  internal::${name}$`, 'm'));
      expect(out.stdout).not.toMatch(/^members:/m);
    }
    const hit = json(await searchCommand(['sym:MockFunction', 'file:src/mock.h'], at())).hits[0];
    const c = json(await ctxCommand(hit.handle, at()));
    expect(c.symbol).toMatchObject({ name: 'internal::MockFunction', line: 6 });
    expect((c.members as Callee[]).map((m) => m.name)).toEqual(['MockFunction::MockFunction', 'MockFunction::Call']);
  });

  it("refs A::f leaves out a call qualified through another type's template arguments", async () => {
    // Before: `TransformHelper<Tuple, Func>::Run(f, t)` was a candidate site of UnitTest::Run.
    const sites = json(await refsCommand(['UnitTest::Run'], at())).hits as { path: string; start_line: number }[];
    expect(sites.map((x) => `${x.path}:${x.start_line}`)).not.toContain('src/matchers.h:8');
    const own = json(await refsCommand(['TransformHelper::Run'], at())).hits as {
      path: string;
      start_line: number;
      resolution: string;
    }[];
    expect(own.filter((x) => x.start_line === 8)).toEqual([
      expect.objectContaining({ path: 'src/matchers.h', resolution: 'resolved' }),
    ]);
  });

  it('ctx reads a base qualified through namespaces after a long template head, not its arguments', async () => {
    // Before: node_hash_map's bases were HashEq::Hash and HashEq::Eq (candidates), its real
    // base missing: the head was cut 400 bytes from the template line, inside the arguments.
    const hit = json(await searchCommand(['sym:node_hash_map'], at())).hits[0];
    const c = json(await ctxCommand(hit.handle, at()));
    expect(
      (c.bases as Callee[]).map((b) => `${b.name} ${b.path}:${b.line}${b.resolution ? ` ${b.resolution}` : ''}`),
    ).toEqual(['container_internal::raw_hash_map src/raw_hash_map.h:4']);
  });

  it("refs reads `ns::name` as the namespace's definition, not a class's of the same name", async () => {
    // Before: both `cord_internal::kMaxInline` sites resolved to InlineRep::kMaxInline.
    const page = json(await refsCommand(['kMaxInline'], at()));
    const at8 = (page.hits as { path: string; start_line: number; role: string; definition?: string }[])
      .filter((h) => h.path === 'src/cord.h' && h.role !== 'declaration')
      .map((h) => `${h.start_line} ${h.definition}`);
    expect(at8).toEqual(
      expect.arrayContaining(['5 src/cord_internal.h:3', '6 src/cord.h:5', '8 src/cord_internal.h:3']),
    );
  });
});

describe('ctx callees through a receiver that is no word', () => {
  // Doctrine DBAL (a PHP trial): `Connection::quoteIdentifier` "called itself", resolved, in
  // `return $this->getDatabasePlatform()->quoteIdentifier($str);`, which calls the platform's.
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo(
      'tp-nav-php-chain-',
      {
        'src/Connection.php': [
          '<?php',
          'namespace App;',
          '',
          'class Connection',
          '{',
          '    public function getDatabasePlatform() { return new Platform(); }',
          '',
          '    public function quoteIdentifier($str)',
          '    {',
          '        return $this->getDatabasePlatform()->quoteIdentifier($str);',
          '    }',
          '}',
          '',
        ].join('\n'),
      },
      { format: 'json', budget: 5000 },
    );
  });

  it('is a candidate, even when it is the caller itself by name', async () => {
    const hit = json(await searchCommand(['sym:Connection::quoteIdentifier'], repo.at())).hits[0];
    const c = json(await ctxCommand(hit.handle, repo.at()));
    expect((c.callees as Callee[]).map((s) => `${s.name} ${s.line}${s.resolution ? ` ${s.resolution}` : ''}`)).toEqual([
      'Connection::getDatabasePlatform 6',
      'Connection::quoteIdentifier 8 candidate',
    ]);
  });
});

describe('ctx callees of a bare call follow the file imports', () => {
  // FastAPI (a Python trial): `raise HTTPException(...)` in fastapi/routing.py, which imports
  // it from starlette, was fastapi/exceptions.py's HTTPException, resolved; refs had it right.
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo(
      'tp-nav-py-imports-',
      {
        'fastapi/exceptions.py': 'class HTTPException(Exception):\n    pass\n',
        'starlette/exceptions.py': 'class HTTPException(Exception):\n    pass\n',
        'fastapi/encoders.py': 'def loads(s):\n    return s\n',
        'fastapi/routing.py': [
          'from json import loads',
          'from starlette.exceptions import HTTPException',
          '',
          'def handler(body):',
          '    data = loads(body)',
          '    raise HTTPException(data)',
          '',
        ].join('\n'),
      },
      { format: 'json', budget: 5000 },
    );
  });

  it("is the imported definition, and a library's name is no callee of the index's namesake", async () => {
    const hit = json(await searchCommand(['sym:handler'], repo.at())).hits[0];
    const c = json(await ctxCommand(hit.handle, repo.at()));
    expect(
      (c.callees as Callee[]).map((s) => `${s.name} ${s.path}:${s.line}${s.resolution ? ` ${s.resolution}` : ''}`),
    ).toEqual(['HTTPException starlette/exceptions.py:1']);
    // `from json import loads`: the standard library's, not fastapi/encoders.py's.
    expect(c.unresolved_callees).toContain('loads');
  });
});
