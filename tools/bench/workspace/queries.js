'use strict';
// The fixed query set: identifiers, phrases and sym:, each present in at least two members
// (counted with rg when chosen), so a workspace search fuses hits from several members.
// `budget` is passed as -b to both modes; null keeps the CLI's default.

const DEFAULT_SEARCH_BUDGET = 600; // the CLI's default search budget (its --help)

const QUERIES = [
  { kind: 'identifier', query: 'timeout', budget: null }, // rust 194 files, php 57, ts 7
  { kind: 'identifier', query: 'flatMap', budget: 300 }, // php 17, ts 87, none in rust
  { kind: 'phrase', query: 'the given value', budget: null }, // rust 21, php 54, ts 5
  { kind: 'phrase', query: 'retry the request', budget: 1500 }, // words: retry in 32/40/27 files
  { kind: 'sym', query: 'sym:Request', budget: null }, // rust struct, php class, ts class/interface
  { kind: 'sym', query: 'sym:Stream', budget: null }, // rust trait, php/ts interface
];

module.exports = { QUERIES, DEFAULT_SEARCH_BUDGET };
