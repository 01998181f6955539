// Navigation when one name has several owners (an agent trial on HCL, 2026-12-03): `refs`
// never resolves a use to the first of a file's same-name definitions, and `ctx` gives a
// call through a receiver the method, not a free function of the name elsewhere.
// Real repository, real tree-sitter parses (Go).
import { ctxCommand, refsCommand, searchCommand } from '../src';
import { indexedRepo, type IndexedRepo } from './ws-helpers';

const SPEC_GO = [
  'package spec',
  '',
  'type ListSpec struct {',
  '\tMaxItems int',
  '}',
  '',
  'type SetSpec struct {',
  '\tMaxItems int',
  '}',
  '',
  'func (s *ListSpec) tooMany(n int) bool { return n > s.MaxItems }',
  '',
  'func (s *SetSpec) tooMany(n int) bool { return n > s.MaxItems }',
  '',
].join('\n');

const ATTRIBUTE_GO = [
  'package write',
  '',
  'type Attribute struct{ name string }',
  '',
  'func (a *Attribute) init(name string) { a.name = name }',
  '',
].join('\n');

const BODY_GO = [
  'package write',
  '',
  'func SetAttribute(name string) *Attribute {',
  '\tattr := &Attribute{}',
  '\tattr.init(name)',
  '\treturn attr',
  '}',
  '',
].join('\n');

// A free function of the same name in another package.
const MAIN_GO = ['package main', '', 'func init() {', '\tprintln("ready")', '}', '', 'func main() {}', ''].join('\n');

let repo: IndexedRepo;
beforeAll(async () => {
  repo = await indexedRepo('tp-nav-same-name-', {
    'spec/spec.go': SPEC_GO,
    'write/attribute.go': ATTRIBUTE_GO,
    'write/body.go': BODY_GO,
    'cmd/tool/main.go': MAIN_GO,
  });
});

describe('one name, several owners', () => {
  it('refs leaves a use a candidate when its file defines the name in two types', async () => {
    const rows = (await refsCommand(['MaxItems'], repo.at())).stdout.split('\n');
    const uses = rows.filter((r) => / (11|13) member/.test(r));
    expect(uses).toHaveLength(2);
    for (const row of uses) expect(row).toMatch(/ member candidate in /);
  });

  it('ctx gives a call through a receiver the method of that name, not a free function', async () => {
    const page = (await searchCommand(['sym:SetAttribute', 'kind:function'], repo.at())).stdout;
    const handle = page.split('\n')[0].split(/ {2}/)[0];
    const out = (await ctxCommand(handle, repo.at())).stdout.split('\n');
    const callees = out.filter((l) => l.startsWith('callee:'));
    // Through `attr`, whose type the index does not know: the method of that name, as a candidate.
    expect(callees.some((l) => /write\/attribute\.go:5\tmethod Attribute::init\tcandidate$/.test(l))).toBe(true);
    expect(callees.some((l) => /cmd\/tool\/main\.go/.test(l))).toBe(false);
  });
});
