/** One file's representative in a ranked search, in byte coordinates of `revision`. */
export interface SearchHit {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
  /** Only for symbol hits. */
  readonly name?: string;
  readonly kind?: string;
  /**
   * A window hit (a span cut from a definition too long to be the span): the innermost
   * definition holding it, so the hit line says where the window is (`in Parser::parse`).
   */
  readonly within?: string;
  /**
   * Definition hits: the first lines of the file's further definitions that match the
   * query as well (another enum of `kind:enum`, an overload of the name), in line order.
   * One hit stands for its file; these say what else it holds instead of hiding it.
   */
  readonly alsoLines?: readonly number[];
  /**
   * The file is not indexed for its content (`binary`, `too_large`, ...: the reason the
   * coverage counts it under): the hit is its path alone, never a line of it.
   */
  readonly excluded?: string;
  /** The lane that supplied the representative. */
  readonly lane: string;
  readonly revision: string | null;
  readonly tags: readonly string[];
  readonly lang: string;
  /**
   * Commit documents only (`source:git-log`): `path` is then `commit:HASH` (a real path's
   * `:` is always percent-encoded, so the two never collide) and `revision` the hash.
   */
  readonly commit?: {
    readonly hash: string;
    readonly date: string;
    readonly paths: readonly string[];
    readonly morePaths: number;
  };
  /**
   * Where the file stood in the fusion of its lanes (free-text and identifier queries): its
   * tier and its reciprocal-rank score. Both are functions of ranks and paths alone, never
   * of one index's statistics, so a workspace may order members' hits by them.
   */
  readonly fusion?: { readonly tier: number; readonly score: number };
}

/** One scope's own ranking (docs/spec/per-source.md): the hits of the documents carrying the scope's tags. */
export interface ScopeGroup {
  readonly scope: readonly string[];
  readonly hits: SearchHit[];
}

export interface FilterDiagnosis {
  readonly file?: readonly { value: string; matched: number; nearest?: readonly string[] }[];
  readonly lang?: readonly { value: string; matched: number }[];
  readonly kind?: readonly { value: string; matched: number }[];
  /**
   * `kind:function` found nothing where `kind:method` finds hits (or the reverse): a Go or
   * Rust method is a `func`/`fn` to its reader, a method to the index.
   */
  readonly kind_instead?: { readonly value: string; readonly hits: number };
  readonly source?: readonly { value: string; matched: number }[];
  readonly excluded_every_match?: readonly string[];
  readonly matches_without_filters?: boolean;
  readonly combination_only?: boolean;
}

/**
 * What stopped a search before it kept every match, so coverage can say what was left
 * unsearched and how to narrow (docs/spec/retrieval.md §8: an incomplete search never
 * claims that nothing more exists).
 * - `regex_deadline`, `regex_bytes`, `regex_hits`: the `re:` scan stopped at its time limit,
 *   its byte budget or its hit cap after `scannedFiles` of `candidateFiles` (files are
 *   scanned in path order; `prefiltered` is false when the pattern fixes no trigram, so
 *   every eligible file was a candidate);
 * - `lane_cap`: a ranking lane kept only its first LANE_FILE_CAP files or LANE_REGION_SCAN_MAX regions.
 */
export type Truncation =
  | {
      readonly by: 'regex_deadline' | 'regex_bytes' | 'regex_hits';
      readonly scannedFiles: number;
      readonly candidateFiles: number;
      readonly prefiltered: boolean;
    }
  | { readonly by: 'lane_cap' };

/**
 * How a `re:` search chose the files it read: `narrowed` when the pattern's trigram query
 * (trigram/regex.ts) picked `candidateFiles` of the `eligibleFiles`; otherwise every eligible
 * file was a candidate (the pattern fixes no three characters).
 */
export interface RegexScanReport {
  readonly narrowed: boolean;
  readonly candidateFiles: number;
  readonly eligibleFiles: number;
}

export interface SearchOutcome {
  readonly hits: SearchHit[];
  /** A lane or scan cap was reached: more matches existed than were kept (`truncation` says which). */
  readonly truncated: boolean;
  readonly truncation?: Truncation;
  /** `re:` searches only. */
  readonly regexScan?: RegexScanReport;
  readonly filterDiagnosis?: FilterDiagnosis;
  /**
   * A `sym:` search without hits: the eligible code files of languages no extractor reads
   * (Vim script, shell, Swift…) whose text holds the name, in path order. No definition of
   * theirs is indexed, so a page of 0 hits must say where the name still occurs. `name`:
   * the name looked for (a qualified query's last `::` segment).
   */
  readonly unparsedMentions?: { readonly name: string; readonly paths: readonly string[] };
  /**
   * `re:` and `"literal"` searches: the eligible files too large to index that this search
   * did not read (past TOO_LARGE_LIVE_BYTES_MAX summed, or one file over
   * TOO_LARGE_SCAN_MAX_BYTES), stored paths in path order. A match may be in them: coverage
   * names them and how to search one (`file:PATH`), never leaves them out silently.
   */
  readonly tooLargeUnsearched?: readonly string[];
  /** Under `per_source` (or an explicit scope list): one group per scope with hits, each ranked on its own. */
  readonly groups?: ScopeGroup[];
  /** Set when commit documents were asked for (per_source, `source:git-log`): why there are none, or how many. */
  readonly gitLog?: { readonly state: string; readonly commits: number };
}
