// Every bound of the history verbs (docs/history.md, "Bounds"). A history answer reads Git
// directly, so each Git run is bounded in time and in bytes, and a walk in commits: what a
// bound cut off is said in the answer's coverage, never passed over in silence.

/** Commits `hist` lists for one target (newest first); older ones are reported as cut. */
export const HIST_COMMITS_MAX = 200;

/** Commits of the file's log a walk reads (listed or not) before it stops and says so. */
export const HIST_SCANNED_COMMITS_MAX = 5_000;

/** Moves of a definition to another file (or place) followed back in one walk. */
export const HIST_MOVES_MAX = 8;

/** Wall-clock time of one whole history answer (every Git run of it together). */
export const HIST_DEADLINE_MS = 8_000;

/** Time of one Git run; a run past it is killed and its complete output so far is used. */
export const GIT_TIMEOUT_MS = 5_000;

/** Bytes read from one Git run (a log, a blame); past it the run is killed and the answer says so. */
export const GIT_OUTPUT_MAX_BYTES = 32 * 1024 * 1024;

/** Bytes of one blob read for a move search or a `show` (larger files are not diffed). */
export const BLOB_MAX_BYTES = 4 * 1024 * 1024;

/** Files of one commit searched for the definition a target moved from. */
export const MOVE_CANDIDATE_FILES_MAX = 40;

/** Blobs whose definitions one process keeps (a move search parses each candidate file; the next walk meets the same blobs), oldest dropped first. */
export const EXTRACTED_BLOBS_MAX = 64;

/** Line similarity (Dice over trimmed lines) a differently named origin of a move needs. */
export const MOVE_SIMILARITY_MIN = 0.6;

/** Line similarity a same-named origin of a move needs (two unrelated `init`s rarely reach it). */
export const MOVE_SAME_NAME_SIMILARITY_MIN = 0.3;

/** Lines of either side a change diff aligns; longer sides are compared by common ends only. */
export const DIFF_SIDE_MAX_LINES = 20_000;

/** Edit distance the diff searches to (Myers' D); past it the middle is one replaced block. */
export const DIFF_MAX_EDITS = 2_000;

/** Unchanged lines kept around each change in `show` of a change; longer runs fold to one row. */
export const HUNK_CONTEXT_LINES = 3;

/**
 * Letters and digits a moved or copied block needs for `blame` to see it as moved (Git's
 * `-M<n>`/`-C<n>`; Git's defaults, 20 and 40, miss a moved function's signature line once
 * its body was edited around it). A line with none (`}`) can never be matched.
 */
export const BLAME_MOVE_MIN_CHARS = 10;

/** Lines of a target `blame` attributes (a longer target is cut, and says so). */
export const BLAME_LINES_MAX = 5_000;

/** Characters of a commit subject printed on a row (lines format; JSON keeps it whole up to SUBJECT_MAX_CHARS). */
export const SUBJECT_ROW_MAX_CHARS = 80;

/** Characters of a commit subject kept at all. */
export const SUBJECT_MAX_CHARS = 300;

/** Rows of one hist or blame page at most (the budget usually stops it sooner). */
export const HISTORY_PAGE_ROWS_MAX = 100;

/** Rows of one `show` of a change (the hunk view) at most; the rest is a continuation. */
export const CHANGE_SHOW_ROWS_MAX = 200;

/** Changed files `since` compares definition by definition (the rest are counted, not read). */
export const SINCE_FILES_MAX = 200;

/** Unchanged lines between two hunks outside definitions at most for `diff` to show them as one hunk (Git joins hunks whose 3-line contexts meet). */
export const DIFF_HUNK_JOIN_LINES = 6;

/** Rows of one change's hunk a `diff` page prints at most (the rest is its `show` continuation). */
export const DIFF_ENTRY_ROWS_MAX = 60;

/** Bytes of compared files `diff` keeps for its first page's rows; past it a change's rows are read back from Git as `more` reads them. */
export const DIFF_KEPT_BYTES_MAX = 64 * 1024 * 1024;

// The history index (log-index-*.ts; docs/history.md, "The history index"): per repository
// (its Git common directory), the first-parent commits from HEAD with their changed paths
// and hunk line ranges, built in the background. Each bound below ends the index where it
// is reached; the commits older than its end are read from Git, as without an index.

/** Commits the history index holds at most (the newest, first-parent from HEAD). */
export const HISTORY_INDEX_COMMITS_MAX = 20_000;

/** Days of history the index holds: it ends at the first commit whose author date is this much older than its head's. */
export const HISTORY_INDEX_DAYS_MAX = 3_650;

/** Bytes of the index file at most (what a `hist` reads and parses before it walks). */
export const HISTORY_INDEX_FILE_BYTES_MAX = 48 * 1024 * 1024;

/** Bytes of `git log -p` output one build reads (the diffs' lines are read to find their hunks, then dropped). */
export const HISTORY_INDEX_GIT_BYTES_MAX = 1024 * 1024 * 1024;

/** Wall-clock time of one build's `git log` (a slower build keeps the commits read so far). */
export const HISTORY_INDEX_BUILD_MS = 300_000;

/** Changed files kept for one commit; a commit with more is marked cut and a walk asks Git about it. */
export const HISTORY_INDEX_COMMIT_FILES_MAX = 5_000;

/** New commits above the index's head a walk reads from Git before it goes on in the index (else it reads Git throughout). */
export const HISTORY_INDEX_GAP_COMMITS_MAX = 2_000;

/** History indexes one process keeps loaded (a daemon serving worktrees of several repositories), least recently loaded dropped first. */
export const HISTORY_INDEXES_LOADED_MAX = 4;

/** Age past which a build lock whose process still seems alive is taken over (a reused pid). */
export const HISTORY_INDEX_LOCK_STALE_MS = 2 * HISTORY_INDEX_BUILD_MS;
