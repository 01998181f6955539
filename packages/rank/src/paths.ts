// Path classification shared by the indexer (file classes, source tags) and the ranker
// (path prior). Paths are root-relative, '/'-separated, percent-encoded.

// `selftests`: the Linux kernel's tools/testing/selftests; `unittests`, `integrationtests`,
// `functionaltests`: .NET's bare test folders.
const TEST_DIRS = new Set([
  'tests',
  '__tests__',
  'spec',
  'testdata',
  'selftests',
  'unittests',
  'integrationtests',
  'functionaltests',
]);
/**
 * .NET test projects: a directory named for the project it tests plus a test word
 * (`Newtonsoft.Json.Tests`, `Serilog.Tests.Common`, `Foo.UnitTests`, `Foo.Specs`), and the
 * bare `UnitTests`/`IntegrationTests` folders; their files were code, so `ctx` listed ten
 * test callers of `JToken::FromObject` and none of the library's (an agent trial).
 */
const DOTNET_TEST_WORDS = new Set([
  'test',
  'tests',
  'unittest',
  'unittests',
  'integrationtests',
  'functionaltests',
  'specs',
]);

/** A directory name of the test rule: `tests/`, `spec/`, …, or a .NET test project's. */
function isTestDirName(lowerDir: string): boolean {
  if (TEST_DIRS.has(lowerDir)) return true;
  const segments = lowerDir.split('.');
  return segments.length > 1 && segments[0] !== '' && segments.slice(1).some((s) => DOTNET_TEST_WORDS.has(s));
}
const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown', 'mdx']);
/**
 * Prose: markup, plain text, Texinfo manuals, gettext catalogs (binutils' `.texi` and `.po`
 * files answered plain-words searches before its code). Markdown is prose too.
 */
const PROSE_EXTENSIONS = new Set([
  ...MARKDOWN_EXTENSIONS,
  'rst',
  'adoc',
  'asciidoc',
  'txt',
  'org',
  'texi',
  'texinfo',
  'po',
  'pot',
]);
/** Pages a documentation directory renders: prose there, templates elsewhere. */
const RENDERED_PAGE_EXTENSIONS = new Set(['html', 'htm', 'xhtml']);
/** A manual page's section suffix: `npm.1`, `Digest::SHA.3pm`, `ssl.1ssl`. */
const MAN_PAGE_EXTENSION = /^[1-9][a-z]{0,4}$/;
const C_HEADER_EXTENSIONS = new Set(['h', 'hh', 'hpp', 'hxx', 'h++']);
/** Extensions of C and C++ source files, in the order a header's paired source is looked for. */
export const C_SOURCE_EXTENSIONS: readonly string[] = ['c', 'cc', 'cpp', 'cxx'];

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

/** Stems that name their directory's module: `mod.rs`, `__init__.py`, `index.js` (and Lua's `init.lua`). */
const DIRECTORY_MODULE_STEMS: ReadonlySet<string> = new Set(['mod', '__init__', 'index']);
const LUA_FILE = /\.luau?$/;

/**
 * The module a file is, as code names it: its stem (`util` for `lua/vim/lsp/util.lua`,
 * `coop` for `coop.rs`), or its directory's name for a file that stands for its directory.
 */
export function moduleNameOf(path: string): string {
  const parts = path.split('/');
  const base = parts[parts.length - 1];
  const stemOf = base.includes('.') ? base.slice(0, base.indexOf('.')) : base;
  const standsForDirectory = DIRECTORY_MODULE_STEMS.has(stemOf) || (stemOf === 'init' && LUA_FILE.test(base));
  return standsForDirectory && parts.length > 1 ? parts[parts.length - 2] : stemOf;
}

export function extension(path: string): string {
  const base = basename(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/**
 * What a directory's components say about the files in it: `test` when one names a test
 * directory for every file below it, `testUnlessSrc` when its last component is `test`
 * (a test directory unless the file is named `src`), `docs` when one is `docs` or `doc`.
 */
interface DirectoryVerdict {
  readonly test: boolean;
  readonly testUnlessSrc: boolean;
  readonly docs: boolean;
}

/**
 * Verdicts by directory, each computed once: a reconcile asks for every file of the tree
 * (78,000 on the kernel, in 5,000 directories) and splitting each path into lowercased
 * components was a tenth of a no-change reindex. Cleared when full: a pure function's memo.
 */
const DIRECTORY_VERDICTS = new Map<string, DirectoryVerdict>();
const DIRECTORY_VERDICTS_MAX = 8192;

function directoryVerdict(dir: string): DirectoryVerdict {
  let verdict = DIRECTORY_VERDICTS.get(dir);
  if (verdict) return verdict;
  const parts = dir === '' ? [] : dir.split('/');
  let test = false;
  let docs = false;
  for (let i = 0; i < parts.length; i++) {
    const lower = parts[i].toLowerCase();
    if (isTestDirName(lower) || (lower === 'test' && i + 1 < parts.length && parts[i + 1] !== 'src')) test = true;
    // A package of test helpers named for the one holding it: Go's `net/http/httptest`,
    // etcd's `raft/rafttest` (an etcd trial's `ctx sym:Storage file:raft/` read rafttest's
    // `Storage` interface, by path order, for raft's).
    if (i > 0 && lower === `${parts[i - 1].toLowerCase()}test`) test = true;
    if (parts[i] === 'docs' || parts[i] === 'doc') docs = true;
  }
  const last = parts.length > 0 ? parts[parts.length - 1].toLowerCase() : '';
  verdict = { test, testUnlessSrc: last === 'test', docs };
  if (DIRECTORY_VERDICTS.size >= DIRECTORY_VERDICTS_MAX) DIRECTORY_VERDICTS.clear();
  DIRECTORY_VERDICTS.set(dir, verdict);
  return verdict;
}

function directoryOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** The test-path rule of docs/spec/retrieval.md §2. */
export function isTestPath(path: string): boolean {
  const dir = directoryVerdict(directoryOf(path));
  const base = basename(path);
  if (dir.test || (dir.testUnlessSrc && base !== 'src')) return true;
  const lowerStem = stem(base).toLowerCase();
  if (lowerStem === 'tests' || lowerStem.endsWith('_tests')) return true;
  if (/\.(test|spec)\./i.test(base)) return true;
  if (/_test\.(go|py)$/.test(base)) return true;
  // C and C++: `list_test.c` (KUnit), `parser_test.cc`, `parser_unittest.cc` (GoogleTest).
  if (/_(test|unittest)\.(c|cc|cpp|cxx)$/.test(base)) return true;
  // glibc's `tst-*.c` and `test-*.c` (and their headers): 579 files of its string, stdio,
  // malloc and posix directories stood as library code, a test's `#define GLRO` before
  // ldsodefs.h's (an agent trial). Not `test_*.h`: the kernel's lib/test_bpf.h is code.
  if (/^(?:tst[-_]|test-).*\.(c|h|cc|cpp|cxx|hpp)$/.test(base)) return true;
  if (/^test_.*\.py$/.test(base)) return true;
  if (/_spec\.rb$/.test(base)) return true;
  return false;
}

/**
 * Top-level directories of a root's own build output, checked in beside its source
 * (axios's `dist/axios.js` beside `lib/`; `@tanstack/query-core` ships `build/legacy/` and
 * `build/modern/` beside `src/`, whose copies headed `ctx` callers in a workspace trial).
 * Only at the top: a vendored package's `node_modules/lru-cache/dist/` is all the code that
 * package ships.
 */
const GENERATED_DIRS = new Set(['dist', 'build']);
/**
 * Minified files, bundles and source maps: built from other files, never edited. And a
 * ctags or etags index (`tags`, `TAGS`): a line per name of the tree, so it matched every
 * identifier an agent asked for (Neovim's `doc/tags` was a hit of 5 of 10 questions in an
 * agent trial).
 */
const GENERATED_FILE = /\.min\.(?:[cm]?js|css)$|[.-]bundle\.[cm]?js$|\.(?:[cm]?js|css|ts)\.map$|^(?:tags|TAGS)$/i;

/**
 * Build output (bundles under `dist/`, minified files, source maps, tag indexes). A bundle repeats every
 * definition of its sources, so without this rule `show sym:mergeConfig` read axios's
 * `dist/axios.js` and `refs` listed the bundle's copies first (an agent trial).
 */
export function isGeneratedPath(path: string): boolean {
  const slash = path.indexOf('/');
  if (slash > 0 && GENERATED_DIRS.has(path.slice(0, slash).toLowerCase())) return true;
  return GENERATED_FILE.test(basename(path));
}

/** Directories of example and demo programs: code that shows a library in use, not the library. */
const EXAMPLE_DIRS = new Set(['example', 'examples', 'demo', 'demos', 'sample', 'samples']);

/**
 * A path under an example directory at any depth (`example/example.cpp`,
 * `docs/examples/basic.py`). `refs` lists such sites after the library's own (an agent
 * trial on spdlog: four `example.cpp` calls of `set_pattern` stood before the library's).
 */
export function isExamplePath(path: string): boolean {
  const dirs = path.split('/');
  dirs.pop();
  return dirs.some((d) => EXAMPLE_DIRS.has(d.toLowerCase()));
}

/**
 * Directories that hold dependencies vendored into a repository. Their tracked files are
 * indexed (docs/spec/retrieval.md §3); among definitions of one name the repository's own
 * come first. `deps`: C projects' copies (redis's `deps/hiredis/dict.c` stood before its
 * own `src/dict.c` for `show sym:dictFind`, an agent trial).
 */
const VENDORED_DIRS = new Set([
  'node_modules',
  'vendor',
  'third_party',
  'third-party',
  'thirdparty',
  '3rdparty',
  'deps',
]);

/** A path under a vendored-dependency directory at any depth (`node_modules/qs/lib/parse.js`). */
export function isVendoredPath(path: string): boolean {
  const dirs = path.split('/');
  dirs.pop();
  return dirs.some((d) => VENDORED_DIRS.has(d));
}

/**
 * Mean bytes per line above which a file is machine-written: a minified bundle under a name
 * no path rule knows (yargs' `build/index.cjs`, 62 KB on one line, whose `parse` beat
 * `build/lib/yargs-factory.js` in `show sym:parse`, an agent trial). Hand-written code
 * averages 25-45 bytes a line; generated tables with long rows stay under this.
 */
export const MINIFIED_MEAN_LINE_BYTES = 400;

/** A file whose lines are too long on average to be hand-written (see MINIFIED_MEAN_LINE_BYTES). */
export function looksMinified(size: number, lines: number): boolean {
  return size / Math.max(1, lines) > MINIFIED_MEAN_LINE_BYTES;
}

/**
 * Where a path stands among files that define or use a name: 0 hand-written code, 1 a
 * test, 2 build output. The key after kind everywhere a definition or site is chosen.
 */
export function pathStanding(path: string): 0 | 1 | 2 {
  if (isGeneratedPath(path)) return 2;
  return isTestPath(path) ? 1 : 0;
}

/**
 * pathStanding of an indexed file, where a file that looks minified (looksMinified) stands
 * with build output whatever its name: where a definition or a site is chosen among files.
 */
export function fileStanding(file: {
  readonly path: string;
  readonly size: number;
  readonly lines: number;
}): 0 | 1 | 2 {
  return looksMinified(file.size, file.lines) ? 2 : pathStanding(file.path);
}

/** A C or C++ header (`.h`, `.hh`, `.hpp`, `.hxx`, `.h++`). */
export function isCHeaderPath(path: string): boolean {
  return C_HEADER_EXTENSIONS.has(extension(path));
}

/** A TypeScript declaration file (`index.d.ts`, `.d.mts`, `.d.cts`): types of code defined elsewhere. */
export function isTypeDeclarationPath(path: string): boolean {
  return /\.d\.[cm]?ts$/i.test(basename(path));
}

export function isMarkdownPath(path: string): boolean {
  return MARKDOWN_EXTENSIONS.has(extension(path));
}

/**
 * A manual page (roff source): its suffix is a section number. A name ending in a digit
 * before it is a version (`v1.2`, `python3.8`), not a page.
 */
export function isManPage(path: string): boolean {
  return MAN_PAGE_EXTENSION.test(extension(path)) && !/\d$/.test(stem(path));
}

/** An extension of prose (PROSE_EXTENSIONS), whatever directory holds it. */
export function hasProseExtension(path: string): boolean {
  return PROSE_EXTENSIONS.has(extension(path));
}

/**
 * A document search ranks below code unless the query asks for docs: Markdown, project
 * documents, manual pages, and the HTML pages under a docs directory (most are renderings of
 * Markdown: npm ships 200 man pages and their HTML twins, which took 5 of the first 10
 * places of plain-words searches whose answers are functions). Manuals written as such
 * (`.texi`, `.rst`, `.txt`) keep their weight: they are where an option is explained.
 */
export function isSecondaryDocument(path: string): boolean {
  if (isMarkdownPath(path) || isManPage(path) || isProjectDocument(path)) return true;
  return RENDERED_PAGE_EXTENSIONS.has(extension(path)) && inDocDirectory(path);
}

function inDocDirectory(path: string): boolean {
  return directoryVerdict(directoryOf(path)).docs;
}

/**
 * The project documents GNU and older projects name in capitals, with no extension or a
 * suffix (`ChangeLog`, `ChangeLog-2015`, `NEWS`, `README`): binutils' 200 ChangeLogs took
 * 6 of 15 places of a plain-words search for how ld parses a linker script (an agent
 * trial). Case-sensitive, so code named `history.ts` or `install.py` stays code. License
 * texts (`LICENSE`, `COPYING`) are not here: spec/per-source.md gives them no origin.
 */
const PROJECT_DOCUMENT =
  /^(?:ChangeLog|CHANGELOG|NEWS|CHANGES|HISTORY|AUTHORS|CONTRIBUTORS|THANKS|README|INSTALL|TODO|MAINTAINERS)(?:[-_.0-9][A-Za-z0-9._-]*)?$/;

/** A project document (PROJECT_DOCUMENT): `ChangeLog-2015`, `NEWS`, `README`. */
export function isProjectDocument(path: string): boolean {
  return PROJECT_DOCUMENT.test(basename(path));
}

/** A path under a `docs/` (or `doc/`) directory, a Markdown file, or a project document. */
export function isDocPath(path: string): boolean {
  return isMarkdownPath(path) || isProjectDocument(path) || isManPage(path) || inDocDirectory(path);
}

/** True when the path has a directory component that the test rule treats as a test directory. */
export function isTestDirectoryComponent(component: string): boolean {
  const c = component.toLowerCase();
  return isTestDirName(c) || c === 'test';
}
