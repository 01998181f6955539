// Go navigation in one root (navigation/src/go-packages.ts): a call qualified by an import's
// name resolves to the package-level definition in the directory the import path names
// through go.mod's module path, a bare call to its own package's, and anything else stays
// a candidate. Real repository, real tree-sitter-go parses.
import { ctxCommand, mapCommand, refsCommand, showCommand } from '../src';
import { ctxLinesOf, ctxRows, indexedRepo, refsSites, type IndexedRepo } from './ws-helpers';

const FILES = {
  'go.mod': 'module example.com/tool/v2\n\ngo 1.21\n',
  // The root package: a major-version import path binds `tool`, not `v2`.
  'tool.go': 'package tool\n\n// Body is what a file decodes to.\ntype Body interface {\n\tParts() []string\n}\n',
  'dec/decode.go': [
    'package dec',
    '',
    'import "example.com/tool/v2"',
    '',
    '// Decode fills val from body.',
    'func Decode(body tool.Body, val any) error {',
    '\treturn check(body)',
    '}',
    '',
    'func check(body tool.Body) error { return nil }',
    '',
  ].join('\n'),
  'dec/decode_more.go':
    'package dec\n\nimport "example.com/tool/v2"\n\nfunc again(b tool.Body) error {\n\treturn Decode(b, nil)\n}\n',
  'cmd/main.go': [
    'package main',
    '',
    'import (',
    '\t"example.com/tool/v2/dec"',
    '\td2 "example.com/tool/v2/dec"',
    '\tother "other.org/dec"',
    ')',
    '',
    'type runner struct{}',
    '',
    '// Decode on a value: a method, no site of dec.Decode.',
    'func (r runner) Decode() error { return nil }',
    '',
    'func main() {',
    '\tvar r runner',
    '\t_ = dec.Decode(nil, nil)',
    '\t_ = d2.Decode(nil, nil)',
    '\t_ = other.Decode(nil, nil)',
    '\t_ = r.Decode()',
    '}',
    '',
  ].join('\n'),
};

describe('Go refs through packages', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-nav-go-', FILES);
  });

  const sitesOf = (words: string[]) => refsSites(repo, words);

  it('resolves pkg.Name through the import binding pkg, and a bare Name inside its own package', async () => {
    const sites = await sitesOf(['Decode', 'file:dec/', 'file:cmd/']);
    const at = (p: string, line: number) => sites.find((s) => s.path === p && s.start_line === line);
    expect(at('cmd/main.go', 16)).toMatchObject({
      role: 'call',
      resolution: 'resolved',
      definition: 'dec/decode.go:6',
    });
    // An aliased import binds its alias.
    expect(at('cmd/main.go', 17)).toMatchObject({ resolution: 'resolved', definition: 'dec/decode.go:6' });
    // An import of another module's package named like it: none of the index's definitions.
    expect(at('cmd/main.go', 18)).toMatchObject({ resolution: 'unresolved' });
    expect(at('cmd/main.go', 18)?.definition).toBeUndefined();
    // A method on a value is at best the file's own method, never dec.Decode: the value's
    // type, which the index does not know, decides.
    expect(at('cmd/main.go', 19)).toMatchObject({ resolution: 'candidate', definition: 'cmd/main.go:12' });
    expect(at('dec/decode_more.go', 6)).toMatchObject({ resolution: 'resolved', definition: 'dec/decode.go:6' });
  });

  it('a major-version module path binds the package before it: tool.Body resolves to the root package', async () => {
    const sites = await sitesOf(['Body', 'file:dec/']);
    expect(sites.length).toBeGreaterThan(0);
    for (const s of sites) expect(s).toMatchObject({ resolution: 'resolved', definition: 'tool.go:4' });
  });
});

// GOROOT's src: `module std`, standard packages named by import paths without a dot, and
// golang.org/x/net vendored under vendor/. An agent trial on the Go 1.19 source got 200 of
// 210 `io.ReadFull` calls unresolved.
const GOROOT = {
  'go.mod': 'module std\n\ngo 1.19\n',
  'io/io.go': [
    'package io',
    '',
    '// ReadFull reads exactly len(buf) bytes from r into buf.',
    'func ReadFull(r Reader, buf []byte) (n int, err error) {',
    '\treturn 0, nil',
    '}',
    '',
    'type Reader interface{ Read(p []byte) (int, error) }',
    '',
  ].join('\n'),
  'archive/tar/reader.go': [
    'package tar',
    '',
    'import "io"',
    '',
    'func readHeader(r io.Reader, blk []byte) error {',
    '\t_, err := io.ReadFull(r, blk)',
    '\treturn err',
    '}',
    '',
  ].join('\n'),
  'vendor/golang.org/x/net/hpack/hpack.go':
    'package hpack\n\n// NewDecoder returns a new decoder.\nfunc NewDecoder(size uint32) *Decoder { return nil }\n\ntype Decoder struct{}\n',
  'net/http/h2.go': [
    'package http',
    '',
    'import "golang.org/x/net/hpack"',
    '',
    'func newConn() {',
    '\t_ = hpack.NewDecoder(4096)',
    '}',
    '',
  ].join('\n'),
  // A package of another module, vendored nowhere here: none of the index's definitions.
  'net/http/other.go':
    'package http\n\nimport hpack "example.org/hpack"\n\nfunc other() {\n\t_ = hpack.NewDecoder(1)\n}\n',
};

describe('Go refs in the standard library', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-nav-goroot-', GOROOT);
  });

  it('resolves io.ReadFull to the std package io/', async () => {
    const sites = await refsSites(repo, ['ReadFull', 'file:archive/']);
    expect(sites.find((s) => s.start_line === 6)).toMatchObject({
      role: 'call',
      resolution: 'resolved',
      definition: 'io/io.go:4',
    });
  });

  it("resolves a vendored package through the module's vendor/ directory", async () => {
    const sites = await refsSites(repo, ['NewDecoder', 'file:net/']);
    const at = (p: string) => sites.find((s) => s.path === p);
    expect(at('net/http/h2.go')).toMatchObject({
      resolution: 'resolved',
      definition: 'vendor/golang.org/x/net/hpack/hpack.go:4',
    });
    expect(at('net/http/other.go')).toMatchObject({ resolution: 'unresolved' });
  });
});

// The standard library's packages without its go.mod (an agent trial copied a few of its
// directories): import paths still name directories of the tree, and a call on a value
// whose type the index does not know is a guess, even where the file defines the name.
const NO_MODULE = {
  'bufio/bufio.go':
    'package bufio\n\ntype Reader struct{}\n\nfunc (b *Reader) ReadLine() (line []byte, err error) {\n\treturn nil, nil\n}\n',
  'net/textproto/reader.go': [
    'package textproto',
    '',
    'import "bufio"',
    '',
    'type Reader struct {',
    '\tR *bufio.Reader',
    '}',
    '',
    'func (r *Reader) ReadLine() (string, error) {',
    '\tline, _, err := r.R.ReadLine()',
    '\treturn string(line), err',
    '}',
    '',
  ].join('\n'),
  'net/textproto/header.go':
    'package textproto\n\ntype MIMEHeader map[string][]string\n\nfunc (h MIMEHeader) Get(key string) string { return "" }\n',
  'net/http/header.go': [
    'package http',
    '',
    'type Header map[string][]string',
    '',
    'func (h Header) Get(key string) string { return "" }',
    '',
    'type Request struct{ Header Header }',
    '',
    'func (r *Request) host() string { return r.Header.Get("Host") }',
    '',
  ].join('\n'),
  'mime/multipart/multipart.go': [
    'package multipart',
    '',
    'import "net/textproto"',
    '',
    'type Part struct{ Header textproto.MIMEHeader }',
    '',
    'func (p *Part) disposition() string { return p.Header.Get("Content-Disposition") }',
    '',
  ].join('\n'),
  'net/http/transport.go': [
    'package http',
    '',
    'import "time"',
    '',
    'type persistConn struct{}',
    '',
    'func (pc *persistConn) closeConnIfStillIdle() {}',
    '',
    'func (pc *persistConn) arm(d time.Duration) {',
    '\ttime.AfterFunc(d, pc.closeConnIfStillIdle)',
    '}',
    '',
    'func (pc *persistConn) queue() {',
    '\tgo pc.closeConnIfStillIdle()',
    '}',
    '',
  ].join('\n'),
  'net/http/roundtrip.go': 'package http\n\nfunc (pc *persistConn) roundTrip() error { return nil }\n',
  'strings/strings.go': 'package strings\n\nfunc HasPrefix(s, prefix string) bool { return len(s) >= len(prefix) }\n',
  'bytes/bytes.go': 'package bytes\n\nfunc HasPrefix(s, prefix []byte) bool { return len(s) >= len(prefix) }\n',
  'net/http/request.go': [
    'package http',
    '',
    'import (',
    '\t"net/textproto"',
    '\t"strings"',
    ')',
    '',
    'func readRequest(tp *textproto.Reader) error {',
    '\tline, err := tp.ReadLine()',
    '\tif strings.HasPrefix(line, "GET") {',
    '\t\treturn nil',
    '\t}',
    '\treturn err',
    '}',
    '',
  ].join('\n'),
};

describe('Go without a go.mod, and calls on values of unknown type', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-nav-go-nomod-', NO_MODULE);
  });

  it("a call through a field of the receiver is no resolved call of the file's own method", async () => {
    // `r.R.ReadLine()` is bufio's: it had resolved to textproto's own ReadLine, the method
    // it sits in, in refs and in ctx's callees (an agent trial on Go 1.19's net/textproto).
    const sites = await refsSites(repo, ['ReadLine']);
    expect(sites.find((s) => s.path === 'net/textproto/reader.go' && s.start_line === 10)).toMatchObject({
      role: 'call',
      resolution: 'candidate',
    });
    const callees = ctxRows(await ctxLinesOf(repo, ['sym:Reader::ReadLine', 'file:net/textproto/']), 'callee');
    expect(callees).not.toContain('net/textproto/reader.go:9 method Reader::ReadLine');
    // bufio's `refs Reader::ReadLine` had dropped it: `R` read as a type path.
    const bufio = await refsSites(repo, ['Reader::ReadLine', 'file:net/textproto/']);
    expect(bufio.find((s) => s.start_line === 10)).toMatchObject({ role: 'call', resolution: 'candidate' });
  });

  it('ctx lists a method passed as a value among its callers, marked so', async () => {
    // net/http arms its idle timeout with `time.AfterFunc(t.IdleConnTimeout,
    // pconn.closeConnIfStillIdle)`; ctx had listed only the direct call (an agent trial).
    const lines = await ctxLinesOf(repo, ['sym:closeConnIfStillIdle']);
    expect(ctxRows(lines, 'caller')).toEqual([
      'net/http/transport.go:10 in persistConn::arm as value',
      'net/http/transport.go:14 in persistConn::queue',
    ]);
  });

  it("a type's methods in the other files of its package are its members", async () => {
    // net/http's Transport::RoundTrip is in roundtrip.go; ctx and show sym: of Transport
    // listed transport.go's members and pointed to its map for the rest (an agent trial).
    const lines = await ctxLinesOf(repo, ['sym:persistConn']);
    expect(ctxRows(lines, 'member')).toEqual([
      'net/http/transport.go:7 method persistConn::closeConnIfStillIdle',
      'net/http/transport.go:9 method persistConn::arm',
      'net/http/transport.go:13 method persistConn::queue',
      'net/http/roundtrip.go:3 method persistConn::roundTrip',
    ]);
    const shown = (await showCommand('sym:persistConn', repo.at({ format: 'lines' }))).stdout;
    expect(shown).toMatch(/^members: .*, net\/http\/roundtrip\.go:3 pointer roundTrip$/m);
    // A directory's map names such a file by those methods, not by its package alone.
    const rows = (await mapCommand(['net/http/'], repo.at({ format: 'lines' }))).stdout.split('\n');
    expect(rows).toContainEqual(expect.stringMatching(/^\d+ net\/http\/roundtrip\.go 1-3 persistConn::roundTrip$/));
    expect(rows).toContainEqual(expect.stringMatching(/^\d+ net\/http\/transport\.go 1-15 persistConn$/));
  });

  it("a call through a value's field named like a type is a candidate of that type's method", async () => {
    // `p.Header.Get(...)` in multipart, where Header is a textproto.MIMEHeader field, had
    // been a resolved call of http.Header's Get (an agent trial).
    const sites = await refsSites(repo, ['Header::Get']);
    const at = (p: string) => sites.find((s) => s.path === p && s.role === 'call');
    expect(at('mime/multipart/multipart.go')).toMatchObject({ resolution: 'candidate' });
    expect(at('net/http/header.go')).toMatchObject({ resolution: 'candidate' });
  });

  it('pkg.Name reaches the directory the import path names, in refs and in ctx alike', async () => {
    // ctx of net/http's readRequest had `strings.HasPrefix` as bytes' HasPrefix, resolved.
    const callees = ctxRows(await ctxLinesOf(repo, ['sym:readRequest']), 'callee');
    expect(callees).toContain('strings/strings.go:3 function HasPrefix');
    expect(callees.some((c) => c.startsWith('bytes/'))).toBe(false);
    const sites = await refsSites(repo, ['HasPrefix', 'file:net/']);
    expect(sites.find((s) => s.start_line === 10)).toMatchObject({
      resolution: 'resolved',
      definition: 'strings/strings.go:3',
    });
  });
});

// Shaped after zap 1.23 (an agent trial): a method named like a type of another package,
// a struct declared inside a method with a field of the name, and fields of the name
// elsewhere.
const ZAP = {
  'go.mod': 'module example.com/zap\n\ngo 1.19\n',
  'zapcore/level.go': [
    'package zapcore',
    '',
    'type Level int8',
    '',
    'type Entry struct {',
    '\tLevel Level',
    '}',
    '',
  ].join('\n'),
  'level.go': [
    'package zap',
    '',
    'import "example.com/zap/zapcore"',
    '',
    'type AtomicLevel struct{ l int8 }',
    '',
    'func (lvl AtomicLevel) Level() zapcore.Level {',
    '\treturn zapcore.Level(lvl.l)',
    '}',
    '',
    'func (lvl AtomicLevel) String() string { return lvl.Level().String() }',
    '',
  ].join('\n'),
  'http_handler.go': [
    'package zap',
    '',
    'import "example.com/zap/zapcore"',
    '',
    'func (lvl AtomicLevel) ServeHTTP() {',
    '\ttype payload struct {',
    '\t\tLevel zapcore.Level',
    '\t}',
    '\tsend(payload{Level: lvl.Level()})',
    '}',
    '',
    'func levelOf(ent zapcore.Entry) zapcore.Level { return ent.Level }',
    '',
    'func send(v any) {}',
    '',
  ].join('\n'),
  'zapcore/sampler.go': [
    'package zapcore',
    '',
    'type Core interface{ Check() }',
    '',
    'type sampler struct {',
    '\tCore',
    '\tcounts int',
    '}',
    '',
    'var _ Core = (*sampler)(nil)',
    '',
    'func (s *sampler) Check() { s.Core.Check() }',
    '',
    'func (s sampler) Level() Level { return 0 }',
    '',
  ].join('\n'),
  // Another implementation by its own method, an interface declaring the same method, a type without it.
  'zapcore/io.go': [
    'package zapcore',
    '',
    'type ioCore struct{ out int }',
    '',
    'func (c *ioCore) Check() {}',
    '',
    'type Checker interface{ Check() }',
    '',
    'type other struct{}',
    '',
    'func (o other) Sync() {}',
    '',
    'type hooked struct {',
    '\tCore',
    '\tfuncs int',
    '}',
    '',
  ].join('\n'),
  // A contract and one of the methods implementing it; a constant and another package's re-export of it.
  'zapcore/marshaler.go': 'package zapcore\n\ntype ArrayMarshaler interface {\n\tMarshalLogArray() error\n}\n',
  'array.go': 'package zap\n\ntype bools []bool\n\nfunc (b bools) MarshalLogArray() error { return nil }\n',
  'zapcore/levels.go': 'package zapcore\n\nconst (\n\tInfoLevel Level = iota\n\tFatalLevel\n)\n',
  'levels.go': 'package zap\n\nimport "example.com/zap/zapcore"\n\nconst FatalLevel = zapcore.FatalLevel\n',
};

describe('Go refs of a method named like a type', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-nav-go-zap-', ZAP);
  });

  it('refs Type::method: calls only, no type position, package-qualified name, field read or composite key', async () => {
    const sites = (await refsSites(repo, ['AtomicLevel::Level'])).map(
      (s) => `${s.path}:${s.start_line} ${s.role} ${s.resolution}`,
    );
    expect(sites.sort()).toEqual([
      'http_handler.go:9 call resolved',
      'level.go:11 call resolved',
      'level.go:7 declaration resolved',
    ]);
  });

  it("refs Name: a call on the method's own receiver is its type's method, not a field of the same file", async () => {
    const sites = await refsSites(repo, ['Level']);
    expect(sites.find((s) => s.path === 'http_handler.go' && s.start_line === 9 && s.role === 'call')).toMatchObject({
      resolution: 'resolved',
      definition: 'level.go:7',
    });
  });

  it('map: an embedded field is a field, a pointer receiver is marked, the blank identifier is no item', async () => {
    const out = await mapCommand(['zapcore/sampler.go'], repo.at());
    expect(out.stdout.trimEnd().split('\n').slice(1)).toEqual([
      '1 1 module zapcore',
      '2 3 interface Core',
      '3 3 method Check',
      '4 5-8 struct sampler',
      '5 12 pointer method sampler::Check',
      '6 14 method Level',
      '7 6 field Core',
      '8 7 field counts',
      'coverage: 8 items',
    ]);
  });

  it('ctx of an interface lists the types with its methods, and those embedding it, no other interface', async () => {
    const out = await ctxLinesOf(repo, ['sym:Core', 'kind:interface']);
    expect(out.filter((l) => l.startsWith('implementation:')).map((l) => l.split('\t').slice(1).join(' '))).toEqual([
      'zapcore/io.go:3 struct ioCore',
      'zapcore/io.go:13 struct hooked',
      'zapcore/sampler.go:5 struct sampler',
    ]);
  });

  it('show sym: an interface method before its implementations, a constant before a re-export of it', async () => {
    const first = async (name: string) => (await showCommand(`sym:${name}`, repo.at())).stdout.split('\n')[0];
    expect(await first('MarshalLogArray')).toMatch(/ {2}zapcore\/marshaler\.go:4 {2}ArrayMarshaler::MarshalLogArray$/);
    expect(await first('FatalLevel')).toMatch(/ {2}zapcore\/levels\.go:5 {2}FatalLevel$/);
  });
});

describe('Go interfaces satisfied through embedding, and calls on the own receiver', () => {
  // etcd 3.4 (an agent trial): ctx of mvcc's KV listed clientv3's Client, which embeds
  // clientv3's own KV, as an implementation, and missed watchableStore (it embeds *store);
  // ctx of EtcdServer::revokeExpiredLeases gave `s.LeaseRevoke(` to retryLeaseClient.
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-nav-go-embed-', {
      'go.mod': 'module example.com/m\n\ngo 1.21\n',
      'kv/kv.go': [
        'package kv',
        '',
        'type KV interface {',
        '\tRange() int',
        '}',
        '',
        'type store struct{}',
        '',
        'func (s *store) Range() int { return 0 }',
        '',
        'type watchable struct {',
        '\t*store',
        '}',
        '',
      ].join('\n'),
      'client/kv.go': 'package client\n\ntype KV interface {\n\tPut()\n}\n\ntype Client struct {\n\tKV\n}\n',
      'client/wrap.go': 'package client\n\nimport "example.com/m/kv"\n\ntype Wrapped struct {\n\tkv.KV\n}\n',
      'env/env.go': [
        'package env',
        '',
        'import "example.com/m/kv"',
        '',
        'type Storage interface {',
        '\tkv.KV',
        '\tExtra()',
        '}',
        '',
        'type Node struct {',
        '\tStorage',
        '}',
        '',
      ].join('\n'),
      'aaa/other.go': 'package aaa\n\ntype Other struct{}\n\nfunc (o *Other) Revoke() {}\n',
      'server/server.go': 'package server\n\ntype Server struct{}\n\nfunc (s *Server) revoke() {\n\ts.Revoke()\n}\n',
      'server/v3.go': 'package server\n\nfunc (s *Server) Revoke() {}\n',
    });
  });

  it('ctx of an interface: embedders of it, of its implementations and of interfaces embedding it; not of a namesake', async () => {
    const rows = ctxRows(await ctxLinesOf(repo, ['sym:KV', 'file:kv/']), 'implementation');
    expect(rows.sort()).toEqual([
      'client/wrap.go:5 struct Wrapped',
      'env/env.go:10 struct Node',
      'kv/kv.go:11 struct watchable',
      'kv/kv.go:7 struct store',
    ]);
  });

  it('ctx sym: says when the name has other definitions, and where they are listed', async () => {
    // etcd: `ctx sym:Storage file:raft/` answered for rafttest's Storage and said nothing of raft's.
    const lines = (await ctxCommand('sym:KV', repo.at())).stdout.split('\n');
    expect(lines.filter((l) => l.startsWith('also: '))).toEqual(['also: 3 more definitions (show sym:KV lists them)']);
    const one = (await ctxCommand('sym:KV file:kv/', repo.at())).stdout.split('\n');
    expect(one.filter((l) => l.startsWith('also: '))).toEqual([]);
  });

  it("show's refs line counts what the refs it names lists", async () => {
    // etcd: `refs: 212 sites in 43 files (refs KV kind:interface)`, whose refs answered 177.
    const shown = (await showCommand('sym:KV file:kv/ kind:interface', repo.at())).stdout;
    const line = shown.split('\n').find((l) => l.startsWith('refs: '));
    expect(line).toMatch(/^refs: \d+ sites? in \d+ files? \(refs KV file:kv\/\)$/);
    const counted = (await refsCommand(['KV', 'file:kv/'], repo.at({ budget: 5000 }))).stdout;
    const [, sites, files] = /^refs: (\d+) sites? in (\d+) files?/.exec(line!)!;
    expect(counted).toContain(`coverage: ${sites} site${sites === '1' ? '' : 's'} in ${files} file`);
  });

  it("ctx: a call on the method's own receiver is its type's method in another file of the package", async () => {
    expect(ctxRows(await ctxLinesOf(repo, ['sym:Server::revoke']), 'callee')).toEqual([
      'server/v3.go:3 method Server::Revoke',
    ]);
  });
});
