// Navigation's named limits, in one place (docs/navigation.md gives the reasons).

/** Imports are followed through at most this many re-export hops (show sym:, refs). */
export const NAV_IMPORT_HOPS = 4;
/** `#include` resolutions one reader keeps (by the including directory and the spelling). */
export const NAV_INCLUDES_CACHED_MAX = 20_000;
/** `show sym:` lists at most this many other locators under `also`. */
export const SYM_ALSO_MAX = 5;
/** Defined names a `no_definition` of `show sym:` suggests, over every member searched. */
export const NEAREST_NAMES_SHOWN = 3;
/**
 * `show sym:` prints a definition of at most this many lines whole; a longer one prints its
 * head, one line naming its members and a `next` that reads the body on (docs/spec/retrieval.md §6:
 * an agent asking where a class is pays for its first line, not for 1,200 tokens of it).
 */
export const SYM_BODY_MAX_LINES = 40;
/** Lines of a long definition's head `show sym:` prints (up to its first member or first blank line). */
export const SYM_HEAD_MAX_LINES = 8;
/** Members a long definition's `members:` line names (`+N more (map PATH)` for the rest). */
export const SYM_MEMBERS_MAX = 16;
/**
 * A Python docstring longer than this many lines prints, in `show sym:`, its summary and one
 * row naming the read of the rest (fold.ts); a short one prints whole.
 */
export const SYM_DOC_FOLD_MIN_LINES = 6;
/**
 * A doc comment above a definition (`/** … *\/`, `///`) of at most this many lines is read
 * whole by `show sym:`; a longer one, up to SYM_DOC_COMMENT_READ_MAX_LINES, is read folded
 * (its summary and its tag lines, fold.ts foldDocComment); a longer one still stays out.
 */
export const SYM_DOC_COMMENT_WHOLE_MAX_LINES = 12;
/**
 * The longest doc comment `show sym:` reads (folded, so its length costs nothing): a license
 * header above a class is none. 80 left out the 105 lines above Neovim's `lsp.start_client`,
 * its whole API documentation (an agent trial).
 */
export const SYM_DOC_COMMENT_READ_MAX_LINES = 200;
/** Lines of a folded doc comment's summary (its first paragraph) kept, at most. */
export const SYM_DOC_SUMMARY_MAX_LINES = 4;
/** Lines of a folded doc comment's tag block (`@param`, `@return`, `@throws`, to its end) kept, at most. */
export const SYM_DOC_TAGS_MAX_LINES = 12;
/** A long type with fewer members than this prints its body, not a head and a members line. */
export const SYM_OUTLINE_MEMBERS_MIN = 3;
/** Tokens a `show sym:` read spends beside its rows (header, `also` and `refs` lines), when a budget decides whether a body fits whole. */
export const SYM_READ_FRAME_TOKENS = 150;
/**
 * Files whose name rows may be incomplete (cut at the fact limit, or a failed parse) that
 * `refs` and `no_definition` read for a name (uses.ts unindexedMentions): 2 in binutils,
 * the others are counted as unread.
 */
export const NAV_UNINDEXED_READ_MAX = 64;
/** `refs` reads at most this many files for sites; more makes the answer truncated. */
export const REFS_MAX_FILES = 2_000;
/** `refs` keeps at most this many sites. */
export const REFS_MAX_SITES = 10_000;
/** `refs` stops reading files after this long (each is parsed for its sites); the rest are counted as unread. */
export const REFS_DEADLINE_MS = 4_000;
/** `map PREFIX` names at most this many top-level items per file (`+N` for the rest). */
export const MAP_NAMES_PER_FILE = 8;
/** Rows of one `refs` or `map` page when -n is not given (the budget decides below it). */
export const NAV_PAGE_ROWS_MAX = 500;
/** A `refs` row's source text is cut to this many characters in lines format. */
export const NAV_TEXT_MAX_CHARS = 160;
/** `ctx` lists at most this many members, callers and callees each, unless -n asks for more. */
export const CTX_LIST_MAX = 10;
/** The most rows per list `-n` can ask of `ctx` (each caller row may read a file). */
export const CTX_LIST_LIMIT_MAX = 200;
/**
 * `ctx` reads call sites until more than its list's rows are resolved, or this many times
 * the rows are calls at all: candidates (another object's method of the name) must not end
 * the reading before the certain callers are found.
 */
export const CTX_CALLER_CANDIDATES_READ = 4;
/** `ctx` stops reading files for its callers after this long (refs' own bound is for a whole listing). */
export const CTX_CALLERS_DEADLINE_MS = 1_500;
/**
 * A span that no definition holds, followed by at most this many comment or attribute
 * lines and then a definition, is (part of) that definition's doc comment (Rust `///` and
 * JSDoc precede the item they document): `ctx` answers for the definition.
 */
export const CTX_DOC_GAP_LINES = 80;
/**
 * `refs`, `show sym:` and a `sym:` search without hits name at most this many files in
 * languages no extractor reads that mention the name (their count is whole).
 */
export const UNPARSED_PATHS_SHOWN = 3;

/**
 * Files that use an interface's or trait's name read by `ctx` for the types declaring it
 * (`implements I`, `impl I for T`), at most: a name used in thousands of files (the JDK's
 * `Runnable`) would read them all.
 */
export const CTX_IMPLEMENTATION_FILES_MAX = 400;
/**
 * Interfaces extending the one `ctx` reads whose implementations it lists too (BlockingDeque
 * and TransferQueue for BlockingQueue), breadth first: each costs a read of its users' files.
 */
export const CTX_EXTENDING_INTERFACES_MAX = 8;

/**
 * Types defining a method's name past which `ctx` lists a call the name alone chose (its
 * receiver's type unknown) as an unresolved callee rather than one of them as a candidate.
 */
export const CTX_GUESSED_CALLEE_OWNERS_MAX = 3;
/** Text before a Python class read for its decorators (`@implementer(...)`). */
export const DECORATOR_TEXT_MAX_BYTES = 1_024;
/** Levels of subclasses (and of bases) a method's overrides are looked for in (overrides.ts). */
export const CTX_OVERRIDE_DEPTH = 3;
/** Classes a method's overrides are looked for in, at most: each one's subclasses are a read of the files using its name. */
export const CTX_OVERRIDE_CLASSES_MAX = 30;

/** Bytes of a type's head read for its bases and interfaces, from its start (class-heads.ts). */
export const TYPE_HEAD_MAX_BYTES = 400;
/**
 * Bytes of a class read past its name for the modules it mixes in (class-heads.ts
 * mixinSpellings): Laravel's `Model` opens with ten traits (330 bytes after 8 interfaces);
 * Rails' `ActiveRecord::Base` lists 50 includes and extends in 2.5 KB.
 */
export const MIXIN_TEXT_MAX_BYTES = 4096;
