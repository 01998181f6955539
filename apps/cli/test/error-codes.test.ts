// docs/cli.md lists every error code the sources can emit (issue 10, finding 10): codes
// are read from the exported code unions (`type …Code = 'a' | 'b'`) and from every literal
// error site (`code: 'x'`, `fail('x', …)`, `failure('x', …)`, `configError('x', …)`,
// `errorReply(id, 'x', …)`) in packages/*/src and apps/cli/src.
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');

function* sources(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')) yield p;
  }
}

/** Every code the sources can emit, with the files that name it. */
function emittedCodes(): Map<string, Set<string>> {
  const dirs = [
    ...fs.readdirSync(path.join(REPO, 'packages')).map((p) => path.join(REPO, 'packages', p, 'src')),
    path.join(REPO, 'apps', 'cli', 'src'),
  ].filter((d) => fs.existsSync(d));
  const codes = new Map<string, Set<string>>();
  const add = (code: string, file: string) => {
    if (!codes.has(code)) codes.set(code, new Set());
    codes.get(code)!.add(path.relative(REPO, file));
  };
  for (const dir of dirs) {
    for (const file of sources(dir)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const union of text.matchAll(/\btype \w*Code\s*=([^;]*);/g))
        for (const q of union[1].matchAll(/'([a-z][a-z_]*)'/g)) add(q[1], file);
      for (const m of text.matchAll(
        /(?:\bcode:\s*|\b(?:fail|failure|configError)(?:<[^>()]*>)?\(\s*)'([a-z][a-z_]*)'/g,
      ))
        add(m[1], file);
      for (const m of text.matchAll(/\berrorReply\([^,()]+,\s*'([a-z][a-z_]*)'/g)) add(m[1], file);
    }
  }
  return codes;
}

function documentedCodes(): Set<string> {
  const doc = fs.readFileSync(path.join(REPO, 'docs', 'cli.md'), 'utf8');
  const errors = doc.slice(doc.indexOf('## Errors'));
  return new Set([...errors.matchAll(/`([a-z][a-z_]*)`/g)].map((m) => m[1]));
}

describe('documented error codes', () => {
  it('finds the codes of every layer (the extraction works)', () => {
    const codes = emittedCodes();
    for (const known of [
      'bad_query',
      'unknown_result',
      'config_invalid_name',
      'root_not_found',
      'daemon_busy',
      'internal_error',
      'bad_arguments',
      'no_workspace',
      'result_store_error',
    ]) {
      expect({ known, found: codes.has(known) }).toEqual({ known, found: true });
    }
    expect(codes.size).toBeGreaterThan(60);
  });

  it('docs/cli.md lists every code the sources emit', () => {
    const documented = documentedCodes();
    const missing = [...emittedCodes()]
      .filter(([code]) => !documented.has(code))
      .map(([code, files]) => `${code} (${[...files].join(', ')})`);
    expect(missing).toEqual([]);
  });
});
