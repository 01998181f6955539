/** Reciprocal rank fusion constant (docs/spec/retrieval.md §2). */
export const RRF_K = 60;
/** Each lane keeps at most this many files after collapsing to one region per file. */
export const LANE_FILE_CAP = 1000;
/**
 * The any-term lane of free text keeps fewer files than the others. Its cost is the regions
 * it must score: with LANE_FILE_CAP files its last file scores so low that no region can be
 * left out (prune.ts), and a kernel query with one common word (`handle an interrupt`:
 * 48,000 regions hold `handle`) read and scored every region holding it. At 200 files
 * the lone common word's regions provably fall below the lane's last file. A file past the
 * any-term lane's 200th holds few of the query's words, and its weight there (8 / 260) is
 * what one first place in a weight-2 lane gives (docs/ranking.md, "the any-term lane's cap").
 */
export const ANY_TERM_LANE_FILE_CAP = 200;
/** Lane weights (docs/spec/retrieval.md §2). */
export const WEIGHT_IDENTIFIER_DECLARATION = 3;
export const WEIGHT_PHRASE = 2;
export const WEIGHT_DEFAULT = 1;
/**
 * The any-term lane of free text (BM25 over regions holding any of the query's words or
 * their stem prefixes, scaled by the share of the words a region holds). A question in
 * plain words rarely has all its words, let alone its phrase, in the file that answers it,
 * so this lane is the one that ranks concept queries. On the concept replay
 * (tools/eval/concepts, docs/ranking.md): before word forms and coordination, weight 1
 * gave concept MRR 0.49, 2 gave 0.54, 3 and 4 gave 0.55; with them, 3 gave 0.608, 4 0.621,
 * 8 0.643, 20 0.654, every other class unchanged, workspace 18/21 at 3, 8 and 20.
 */
export const WEIGHT_ANY_TERM = 8;
/** Filename evidence weights. */
export const FILENAME_EXACT_STEM = 2;
export const FILENAME_ALL_TERMS = 1;
export const FILENAME_PARTIAL = 0.5;
/** The longest run of consecutive query words a file stem may spell together (`didyoumean`). */
export const FILENAME_RUN_MAX_WORDS = 4;
/** Multiplier for test paths and Markdown files unless the query asks for them. */
export const PATH_PRIOR_DEMOTION = 0.7;
/**
 * Free-text hits of one non-code sibling group (same directory and extension, docs or
 * config) that keep their rank; later ones move after every other hit (siblings.ts).
 */
export const SIBLINGS_FIRST_MAX = 2;
/** Build twins (twins.ts): two builds of one module differ by their wrapper, not by half their size. */
export const TWIN_SIZE_RATIO_MAX = 2;
/**
 * Query word forms (word-forms.ts): a stem shorter than this is not searched as a prefix
 * (`use*` would meet every `user`), and a word longer than the other is left as typed.
 */
export const STEM_PREFIX_MIN_CHARS = 4;
export const STEM_WORD_MAX_CHARS = 40;
/**
 * The member-tail rule of workspace pages (members.ts, docs/workspace.md): a member's k-th
 * file never stands behind another member's file ranked deeper than this many times k in its
 * own member (same or worse tier). At 3, a member's best file is on a page of 10 whenever
 * there are at most four members with hits.
 */
export const MEMBER_TAIL_FACTOR = 3;
/**
 * A query with at least this many words besides its compound tokens is a sentence
 * (terms.ts isProse): its `case-insensitive` is a word of it, not what it asks for.
 */
export const PROSE_MIN_WORDS = 3;
