/** The progress shape the workspace facade reports while indexing. */
export interface ReconcileProgressLike {
  readonly phase: 'walk' | 'extract' | 'publish';
  readonly done: number;
  readonly total: number;
}
