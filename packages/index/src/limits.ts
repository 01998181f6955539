/** Every limit of the index in one place (docs/spec/retrieval.md §3). */
export const REGION_MAX_BYTES = 4096;
export const FILE_MAX_BYTES = 2 * 1024 * 1024;
/**
 * Bytes `show path:` reads of a file the index may not hold (it is not bound by
 * FILE_MAX_BYTES, but nothing is read unbounded: a file past this is refused).
 */
export const SHOW_PATH_MAX_BYTES = 64 * 1024 * 1024;
/**
 * Bytes a `re:` or `"literal"` search (and `show` of its handles) reads of a file too large
 * to index (over FILE_MAX_BYTES: no regions, no facts, no trigrams), scanning it live as rg
 * would. An agent trial on the SQLite amalgamation (`sqlite3.c`, 9.5 MB, the whole library)
 * got `0 hits` for every pattern rg answered from it; the scan is bounded like the rest of a
 * `re:` search (REGEX_DEADLINE_MS, REGEX_MAX_BYTES_SCANNED) and stays on the asking thread
 * (SCAN_HELPER_HEAP_LIMITS is sized for indexed files).
 */
export const TOO_LARGE_SCAN_MAX_BYTES = SHOW_PATH_MAX_BYTES;
/**
 * Bytes of files too large to index that one query reads live, summed (query/too-large.ts):
 * the eligible ones in path order while their sizes fit, a file its `file:` names exactly
 * always. The SQLite amalgamation (9.5 MB) fits three times over; the Linux kernel's 40
 * generated headers over FILE_MAX_BYTES (290 MB, drivers/gpu/drm/amd/include/asic_reg/)
 * would have been read by every `re:`, `"literal"`, `refs` and `show sym:`, against a
 * kernel `re:` target of a quarter of rg's ~500 ms. What is left is named in coverage
 * (`too_large_unsearched`), never skipped silently.
 */
export const TOO_LARGE_LIVE_BYTES_MAX = 32 * 1024 * 1024;
export const FACTS_PER_FILE_MAX = 50_000;
/** Skipped directories that coverage and `status` name, largest first. */
export const SKIPPED_DIRS_SHOWN = 5;
/** Files counted inside one skipped directory; past it the count is reported as capped. */
export const SKIPPED_DIR_FILES_COUNTED = 5_000;
/** Directory entries read per reconcile to count the files of skipped directories (bounds the cost). */
export const SKIPPED_DIR_COUNT_MAX_ENTRIES = 20_000;
/**
 * Bumped whenever the extraction pipeline shared by every language changes: all cached
 * facts are re-extracted. A change to one language's extractor bumps that language's own
 * version instead (`version` of its spec in src/extract/lang/, DREAMMAKER_EXTRACTOR_VERSION),
 * which invalidates only the facts that extractor produced.
 */
export const EXTRACTION_VERSION = 4;
/**
 * Nesting of token groups read inside one `macro_rules!` template (items, their bodies, the
 * bodies' local items): deeper groups are not searched for definitions, so a crafted file
 * nesting brackets thousands deep costs no deep recursion. regex's `define_builder!` puts its
 * methods 3 groups deep (the `mod $name` body, the impl body, the method).
 */
export const MACRO_TEMPLATE_NESTING_MAX = 16;
/**
 * Nodes of a tree with errors visited to count its errors or find the rows they are on
 * (the repairs of extract/lang/): past it the file is not repaired, so a generated file
 * erring on every token costs one parse and a bounded walk, not several parses.
 */
export const REPAIR_ERROR_NODES_MAX = 100_000;
/** Bumped whenever the database layout changes: older databases are rebuilt from scratch. */
export const SCHEMA_VERSION = 10;
/** The FTS index is rebuilt when this fraction of its documents belong to removed regions. */
export const FTS_DEAD_REBUILD_FRACTION = 0.3;
/**
 * An index written in place is rewritten compact before a reconcile ends when this share of
 * its pages is free: SQLite reuses free pages but never returns them, and a reconcile that
 * rewrites most files (a new extractor version) or rebuilds the FTS table frees about a
 * third of the file (the kernel's index: 1.37 GB compact, 2.67 GB after one such reconcile,
 * 887 MB of it free).
 */
export const COMPACT_FREE_PAGE_SHARE = 0.25;
/**
 * Matching files (one hit each) a `re:` search keeps before it stops and reports truncation:
 * 10 pages of 20. A pattern common enough to pass it (`return -EINVAL;` is in thousands of
 * kernel files) gains nothing from reading on, and every read file costs: the scan reads
 * about twice the files it keeps (docs/storage.md, "The hit cap"); code search engines stop
 * at the same order (Sourcegraph 500 matches by default, livegrep 50).
 */
export const REGEX_MAX_HITS = 200;
/**
 * Candidate files a `re:` scan needs before a long-lived process shares the reading with its
 * helper thread (query/scan-pool.ts): fewer are read faster than a job is handed over.
 */
export const SCAN_HELPER_MIN_FILES = 256;
/**
 * Heap of the `re:` helper thread. It holds one file's text at a time (at most 4 MB: a
 * 2 MiB file decoded to UTF-16; the offsets of a text that is not UTF-8 live outside the
 * heap) and one chunk's results. A helper that dies of it anyway costs its scan at most
 * SCAN_HELPER_STALL_MS: the asking thread reads what it did not answer.
 */
export const SCAN_HELPER_HEAP_LIMITS: HeapLimits = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 };
/**
 * A helper that finishes no file for this long is terminated and its unanswered files read
 * by the asking thread. Reading one file takes ~1 ms (a 2 MiB file with a slow pattern
 * ~100 ms); a helper that is only slow costs the reread of one file.
 */
export const SCAN_HELPER_STALL_MS = 500;
/** Helpers in a row that may die, stall or overrun a deadline before a process stops starting them. */
export const SCAN_HELPER_FAILURES_MAX = 3;
/** Files the two threads of a shared `re:` scan take at a time from the candidate list. */
export const SCAN_CHUNK_FILES = 32;
/** How long past a scan's deadline the asking thread waits for its helper before replacing it. */
export const SCAN_HELPER_GRACE_MS = 250;
/** Bytes a `re:` walk reads before it stops and reports truncation. */
export const REGEX_MAX_BYTES_SCANNED = 512 * 1024 * 1024;
/** Characters of one `re:` pattern; a longer one answers `bad_regex` (quoting only its start). */
export const REGEX_PATTERN_MAX_CHARS = 1_000;
/** Instructions of one compiled `re:` program (matching costs up to this many steps per character). */
export const REGEX_PROGRAM_MAX_INSTRUCTIONS = 5_000;
/**
 * Instruction × character steps one `re:` window may cost: a file is searched in line-aligned
 * windows of this ÷ program size characters (at least REGEX_WINDOW_MIN_CHARS, overlapping by
 * one window), so the deadline is checked every few hundred milliseconds even inside one file.
 */
export const REGEX_WINDOW_STEPS = 8_000_000;
export const REGEX_WINDOW_MIN_CHARS = 4_096;
/** Time one `re:` search may take (every file read and matched) before it stops and reports truncation. */
export const REGEX_DEADLINE_MS = 2_000;
/**
 * Files one trigram postings row covers (trigram/postings.ts): a row is a list of 16-bit
 * offsets, or a bitmap of this many bits once that is smaller. 4,096 keeps a bitmap at 512
 * bytes, so an edit rewrites small rows (docs/storage.md, "Trigram postings").
 */
export const TRIGRAM_CHUNK_FILES = 4096;
/** Postings held before the writer flushes them to the trigram table (bounds indexing memory: 4 bytes each). */
export const TRIGRAM_FLUSH_POSTINGS = 6_000_000;
/** Distinct trigrams one `re:` query looks up; past it the query keeps its most constraining part. */
export const TRIGRAM_QUERY_MAX = 48;
/**
 * Candidate lines (lines holding a line-local pattern's required strings) a `re:` scan
 * matches one by one in a file before it matches the rest of the file's text at once: many
 * short calls cost more than one long one when nearly every line is a candidate.
 */
export const REGEX_LINE_TRIES_MAX = 16;
/**
 * Positions where its leading string occurs that a `re:` scan tries a pattern at, one by one
 * (live.ts firstAnchoredMatch), before it matches the rest of the file's text at once.
 */
export const REGEX_ANCHORED_TRIES_MAX = 64;
/** Anchored attempts between two deadline checks (live.ts firstAnchoredMatch). */
export const REGEX_ANCHORED_DEADLINE_EVERY = 16;
/** Strings a regex fragment's exact, prefix or suffix set may hold before it is summarized (trigram/regex.ts). */
export const TRIGRAM_SET_MAX = 16;
/** FTS phrases whose rows per column a read connection keeps (query/fts.ts tableStatsOf); past it the cache starts over. */
export const FTS_PHRASE_STATS_CACHED_MAX = 10_000;
/** Regions scored per lane before collapsing to files (guards pathological terms). */
export const LANE_REGION_SCAN_MAX = 200_000;
/**
 * Regions a query word must occur in for the any-term lane to leave out the regions holding
 * it as their only content word, when it can prove none of them ranks (query/prune.ts): on
 * the kernel `device` alone is in 105,000 of 190,000 regions.
 */
export const PRUNE_COMMON_WORD_REGIONS = 10_000;
/**
 * Content words a free-text query needs before that proof is tried. With two, a region
 * holding one holds half the query, and the bound still prunes where the pairs are many
 * (`free pages` on the kernel: 477 -> 158 ms).
 */
export const PRUNE_MIN_CONTENT_WORDS = 2;
/**
 * Rows a reader's lookups by id and by path may have changed since they were built
 * (query/layered-lookup.ts) before a reader builds them anew: below it, a reader of the
 * next generation reuses its predecessor's and patches in the changed rows.
 */
export const FILE_LOOKUP_OVERLAY_MAX = 4_096;
/** Changed rows a reader splices into a copy of its predecessor's (query/file-rows.ts); more are merged in one pass. */
export const SPLICED_ROW_CHANGES_MAX = 256;
/** Filter sets whose eligible files a reader remembers (IndexReader.eligibleFiles): ~600 KB each on the kernel. */
export const ELIGIBLE_SETS_CACHED_MAX = 4;
/** Files whose definitions (and, apart, imports) one reader keeps once read: navigation re-reads the same headers. */
export const FILE_FACTS_CACHED_MAX = 2_048;
/** Nearest-path suggestions (a filter diagnosis, `no_indexed_path`). */
export const NEAREST_PATHS_MAX = 3;
/** Distinct prepared statements kept per connection (`IN (?,?,...)` lists of every length would grow it without end). */
export const STATEMENTS_CACHED_MAX = 256;
/** Ids per `IN (...)` list: a bound on statement size (and on distinct statements kept per connection). */
export const IN_LIST_MAX = 500;
/**
 * Page cache of a writer connection, in KiB (SQLite's negative cache_size). The default
 * 2 MiB makes every B-tree insert of a cold index go to the file; this keeps the hot pages
 * of the secondary indexes in memory. 256 MiB peaked the kernel's cold index at 1,146 MB
 * (470 s); 96 MiB at 956 MB (453 s): the bound is 1 GB (docs/benchmarks.md).
 */
export const WRITER_CACHE_KIB = 96 * 1024;
/** Page cache of a reader connection, in KiB: a search touches FTS doclists and a few indexes. */
export const READER_CACHE_KIB = 32 * 1024;
/** How long a writer waits for a checkpointing or racing connection before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;
/** Name of the published database inside the cache directory. */
export const INDEX_FILE_NAME = 'index.sqlite';
export const LOCK_FILE_NAME = 'index.lock';
/** Written beside the index when a reconcile fails, removed by the next that succeeds. */
export const RECONCILE_FAILURE_FILE_NAME = 'reconcile-failure.json';
/** A recorded reconcile failure's message is cut to this many characters. */
export const RECONCILE_FAILURE_MESSAGE_MAX_CHARS = 240;
/** Commit messages indexed per Git root: the newest first-parent commits (docs/spec/per-source.md). */
export const COMMIT_HISTORY_MAX = 10_000;
/** Changed paths stored (and shown) per commit; the rest are counted. */
export const COMMIT_CHANGED_PATHS_MAX = 100;
/** One `git` call of commit indexing. */
export const GIT_LOG_TIMEOUT_MS = 60_000;
/** Roots whose last Git probe (HEAD, shallow) is remembered with the files it was read from: a daemon serves one root, a test run a few hundred. */
export const GIT_PROBES_REMEMBERED = 64;
/**
 * One `git` call of the walk (probe or `ls-files`); past it the walk reads the ignore
 * rules itself. Git blocks forever opening a FIFO named `.gitignore` (repository content
 * is untrusted), so this bounds what such a tree costs a reconcile; `ls-files` of the
 * 78,000-file kernel tree takes well under a second here.
 */
export const WALK_GIT_TIMEOUT_MS = 10_000;
/**
 * Paths one scoped reconcile walks alone (a daemon's watch events, each a file or a
 * directory with everything below it); more, and the whole root is walked: past a few
 * hundred paths a burst is a checkout or a build, and one listing of the tree is cheaper
 * than that many path lookups.
 */
export const SCOPED_WALK_MAX_PATHS = 256;
/**
 * File rows one generation may change and still be journaled (store/file-changes.ts); a
 * reader reads rows one by one only up to this many, the whole table otherwise.
 */
export const FILE_CHANGES_JOURNALED_MAX = 4_096;
/** Generations of file changes kept: a reader older than that reads the whole table. */
export const FILE_CHANGE_GENERATIONS_KEPT = 64;
/** Bytes of one ignore file (`.gitignore`, `.git/info/exclude`) the rules walk reads. */
export const IGNORE_FILE_MAX_BYTES = 1024 * 1024;
/** Bytes of `git ls-files` output the walk accepts (≈ 10 million paths); past it the walk reads the ignore rules itself. */
export const WALK_GIT_MAX_LISTING_BYTES = 1024 * 1024 * 1024;
/**
 * Characters of one query word, quoted phrase or filter value (`kind:`, `file:`, `sym:`,
 * ...; not `re:` patterns): a longer one answers `bad_query` before reaching SQL, whose
 * LIKE patterns stop at 50,000 bytes.
 */
export const QUERY_WORD_MAX_CHARS = 1024;
/** Words and filters of one query (a `re:` pattern counts once): more answer `bad_query`. */
export const QUERY_MAX_TERMS = 64;
/**
 * Search words of one query once identifiers are split (`parseFrameHeader` is three): more
 * answer `bad_query` (SQLite stops at 1,000 nested LIKE terms and small FTS trees).
 */
export const QUERY_MAX_WORDS = 256;
/** Characters of user-supplied text (a word, a path, a verb) that an error message quotes. */
export const QUOTED_INPUT_MAX_CHARS = 64;
/** Defined names a `no_definition` answer suggests. */
export const NEAREST_NAMES_MAX = 3;
/** Definition keys read to find them by edit distance (the error path of a mistyped name). */
export const NEAREST_NAMES_SCAN_MAX = 200_000;

/** V8 heap limits of a parser process or a helper thread. */
export interface HeapLimits {
  readonly maxOldGenerationSizeMb: number;
  readonly maxYoungGenerationSizeMb: number;
}

/**
 * Heap limits of a parser process. Without them V8 let each parser's heap fill with
 * extraction garbage (a 350 KB generated Rust file left ~85 MB behind); with them the
 * cold index of the Debian corpus peaked at 443 MB instead of 487-498 MB, at equal speed.
 */
export const PARSER_HEAP_LIMITS: HeapLimits = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/**
 * A parser's allocations of at least this many bytes (a syntax tree's node arrays) are
 * mapped and given back when freed, instead of growing glibc's heap, which only shrinks
 * from its top: a parser's malloc heap held 43 of its 72 MB private memory. Fixed rather
 * than glibc's default, which raises itself after each such free until large trees stay.
 */
export const PARSER_MALLOC_MMAP_THRESHOLD = 128 * 1024;

/**
 * A slot whose process died this many times in a row without running a job stops
 * replacing it (a parser that cannot start would otherwise be forked forever).
 */
export const PARSER_IDLE_DEATHS_MAX = 3;

/**
 * Characters of a file without extension read to tell whether it is C or C++ source
 * (looksLikeCSource): its first directives or declarations come after a license comment,
 * which in libstdc++'s `vector` takes 2.4 KB and in Eigen's modules under 1 KB. The rest of
 * a large text is never scanned for a file that is not code.
 */
export const EXTENSIONLESS_SNIFF_CHARS = 8 * 1024;
