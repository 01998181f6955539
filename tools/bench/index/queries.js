'use strict';
// The 20 fixed benchmark queries. Each exists in the corpus (checked with rg when chosen).
// `pattern`/`fixed` is what rg and csearch search for the same need.

const ident = (name) => ({ kind: 'identifier', query: name, pattern: name, fixed: true });
const sym = (name) => ({ kind: 'sym', query: `sym:${name}`, pattern: name, fixed: true });
const phrase = (text) => ({ kind: 'phrase', query: text, pattern: text, fixed: true });
const literal = (text) => ({ kind: 'literal', query: `"${text}"`, pattern: text, fixed: true });
// Patterns avoid spaces so the query is one word for the CLI and the same regex for rg/csearch.
const regex = (pattern) => ({ kind: 're', query: `re:${pattern}`, pattern, fixed: false });

const QUERIES = [
  ident('JoinHandle'),
  ident('spawn_blocking'),
  ident('RegexBuilder'),
  ident('parse_quote'),
  ident('ArgMatches'),
  ident('poll_ready'),
  ident('notify_waiters'),
  ident('HeaderMap'),
  sym('TcpListener'),
  sym('Punctuated'),
  phrase('graceful shutdown'),
  phrase('work stealing'),
  phrase('trailing comma'),
  literal('case insensitive'),
  literal('Sets the maximum'),
  regex('fn\\s+spawn_\\w+'),
  regex('impl<T>\\s+Drop\\s+for'),
  regex('pub\\s+struct\\s+\\w+Builder'),
  regex('^pub\\s+async\\s+fn'),
  regex('unsafe\\s+impl\\s+Send\\s+for'),
];

module.exports = { QUERIES };
