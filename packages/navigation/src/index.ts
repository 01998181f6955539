/**
 * @trufflepig/navigation: code navigation over open indexes. The facade
 * (@trufflepig/workspace) selects and opens the indexes (`NavTarget`s: a root or a
 * workspace member, its reader and the invocation directory), saves result sets and
 * renders search pages; this package reads the targets and returns values (and renders
 * the pages of refs and map, `page.ts`). Nothing here opens, indexes or closes an index.
 *
 * A guided tour, by verb:
 *
 * - `show sym:NAME` — `definitionCandidates` orders a name's definitions over the targets,
 *   `definitionsViaImports` follows imports (`resolve.ts`: TypeScript/JavaScript module
 *   resolution, packages in a committed `node_modules/` in `node-packages.ts`, Python and Rust
 *   paths, C `#include` in `include.ts`, Go packages in `go-packages.ts`) when none carries the
 *   name, `definitionBody` cuts a long definition to its head and members (`fold.ts`
 *   folds a long Python docstring), `referenceCount` counts its sites.
 * - `refs NAME` — `referenceSites` lists the sites (calls first, declarations and import
 *   bindings last), bounded by `RefsBounds` (files, sites, a deadline) and saying what it
 *   left unread.
 * - `map PATH|PREFIX` — `outline` (one file's definitions with their modifiers) and
 *   `fileRows` (a directory, a few names per file).
 * - `ctx HANDLE` — `structuralContext`: the enclosing definition, members, callers and
 *   callees of a span.
 * - Pages of those verbs (`page.ts`), the `file:`/`lang:`/`kind:` filters they share with
 *   search (`filter.ts`), the result entries they store (`entries.ts`), and every limit
 *   (`limits.ts`).
 */
export type { NavTarget } from './target';
export * from './limits';
export { rowsOf } from './rows';
export { spanEntry, definitionEntry, qualifiedName, rootIdentity, type Span } from './entries';
export { fileFilter, filterWords, kindFilter, nearestPaths } from './filter';
export { foldDocstring } from './fold';
export { outline, fileRows, filesUnder, pathReadings, modifiersOf, SECOND_GROUP, type MapRow } from './map';
export { renderNavPage, refsMainDefinition, type NavPageInput, type NavPageOutput, type NavVerb } from './page';
export {
  referenceSites,
  memberSite,
  tooLargeMentions,
  unparsedMentions,
  type RefSite,
  type RefsOutcome,
  type RefsBounds,
} from './refs';
export {
  tooLargeFields,
  tooLargeUnsearchedFields,
  tooLargeNotes,
  tooLargeUnsearchedWords,
  unparsedFields,
  unparsedWords,
} from './unparsed';
export { lastSegment } from './class-heads';
export { followImport, moduleFiles, type ImportTrail, type Resolution } from './resolve';
export { useRowsOf, usesOf, type NameUseSite } from './uses';
export { structuralContext, documentedBy, type CtxItem, type CtxAnswer } from './ctx';
export {
  bestDefinition,
  definitionCandidates,
  definitionsViaImports,
  definitionBody,
  nearestNames,
  noDefinition,
  referenceCount,
  withDecorations,
  type Candidate,
  type Body,
} from './sym';
export type { NavigationErrorCode, NavigationError } from './errors';
