// Path classification shared by the indexer (file classes, source tags) and the ranker
// (path prior). Paths are root-relative, '/'-separated, percent-encoded.

// `selftests`: the Linux kernel's tools/testing/selftests.
const TEST_DIRS = new Set(['tests', '__tests__', 'spec', 'testdata', 'selftests']);
const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown', 'mdx']);

export function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

/** The basename without its last extension (`src/lib.rs` → `lib`, `.env` → `.env`). */
export function stem(path: string): string {
  const base = basename(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

export function extension(path: string): string {
  const base = basename(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The test-path rule of retrieval.md §2. */
export function isTestPath(path: string): boolean {
  const parts = path.split('/');
  const dirs = parts.slice(0, -1);
  for (let i = 0; i < dirs.length; i++) {
    const dir = dirs[i].toLowerCase();
    if (TEST_DIRS.has(dir)) return true;
    if (dir === 'test' && parts[i + 1] !== 'src') return true;
  }
  const base = parts[parts.length - 1];
  const lowerStem = stem(base).toLowerCase();
  if (lowerStem === 'tests' || lowerStem.endsWith('_tests')) return true;
  if (/\.(test|spec)\./i.test(base)) return true;
  if (/_test\.(go|py)$/.test(base)) return true;
  // C and C++: `list_test.c` (KUnit), `parser_test.cc`, `parser_unittest.cc` (GoogleTest).
  if (/_(test|unittest)\.(c|cc|cpp|cxx)$/.test(base)) return true;
  if (/^test_.*\.py$/.test(base)) return true;
  if (/_spec\.rb$/.test(base)) return true;
  return false;
}

export function isMarkdownPath(path: string): boolean {
  return MARKDOWN_EXTENSIONS.has(extension(path));
}

/** A path under a `docs/` (or `doc/`) directory, or a Markdown file. */
export function isDocPath(path: string): boolean {
  if (isMarkdownPath(path)) return true;
  return path.split('/').slice(0, -1).some((d) => d === 'docs' || d === 'doc');
}

/** True when the path has a directory component that the test rule treats as a test directory. */
export function isTestDirectoryComponent(component: string): boolean {
  const c = component.toLowerCase();
  return TEST_DIRS.has(c) || c === 'test';
}
