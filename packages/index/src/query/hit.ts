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
  /** The lane that supplied the representative. */
  readonly lane: string;
  readonly revision: string | null;
  readonly tags: readonly string[];
  readonly lang: string;
}

export interface FilterDiagnosis {
  readonly file?: readonly { value: string; matched: number; nearest?: readonly string[] }[];
  readonly lang?: readonly { value: string; matched: number }[];
  readonly kind?: readonly { value: string; matched: number }[];
  readonly source?: readonly { value: string; matched: number }[];
  readonly excluded_every_match?: readonly string[];
  readonly matches_without_filters?: boolean;
  readonly combination_only?: boolean;
}

export interface SearchOutcome {
  readonly hits: SearchHit[];
  /** A lane or scan cap was reached: more matches existed than were kept. */
  readonly truncated: boolean;
  readonly filterDiagnosis?: FilterDiagnosis;
}
