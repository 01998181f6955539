'use strict';
// The one argument helper of tools/: Node's util.parseArgs (strict: an unknown option, a
// missing value or an unexpected operand is an error) with the conversions the tools need
// and the same --help and error output everywhere.
//
//   const opts = parseOptions(process.argv.slice(2), {
//     name: 'bench',                        // prefixes error messages
//     usage: 'usage: node tools/bench/index/run.js [--quick] [--json FILE]',
//     options: { quick: { type: 'boolean' }, json: { type: 'string' }, reps: { type: 'number', default: 3 } },
//     positionals: false,                   // true: operands allowed, in opts.positionals
//   });
//
// Option types: boolean (default false), string, number (Number(value)), path
// (path.resolve(value)), list (comma-separated, empty items dropped), json (JSON.parse).
// `multiple: true` collects every occurrence into an array (default []); `short: 'x'` adds
// -x; `default` may be any value (undefined when not given). Values come back under
// camelCase names (`--reuse-index` -> opts.reuseIndex). `--help` and `-h` print `usage`
// and exit 0; a parse error prints `NAME: MESSAGE (see --help)` and exits `exitCode`
// (default 1). Checks of a value's range stay in the tool.
const path = require('path');
const util = require('util');

const CONVERT = {
  boolean: (v) => v,
  string: (v) => v,
  number: (v) => Number(v),
  path: (v) => path.resolve(v),
  list: (v) => v.split(',').filter(Boolean),
  json: (v) => JSON.parse(v),
};

const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

/** util.parseArgs' message without its advice sentences: "Unknown option '--x'". */
const firstSentence = (message) => message.split(/\.\s|\n/)[0].replace(/\.$/, '');

function parseOptions(
  argv,
  { name = path.basename(process.argv[1] || 'tool'), usage = '', options = {}, positionals = false, exitCode = 1 } = {},
) {
  const config = { help: { type: 'boolean', short: 'h' } };
  for (const [key, spec] of Object.entries(options)) {
    if (!CONVERT[spec.type]) throw new Error(`args: option --${key} has unknown type ${spec.type}`);
    config[key] = { type: spec.type === 'boolean' ? 'boolean' : 'string' };
    if (spec.short) config[key].short = spec.short;
    if (spec.multiple) config[key].multiple = true;
  }
  let parsed;
  let opts;
  try {
    parsed = util.parseArgs({ args: argv, options: config, allowPositionals: Boolean(positionals), strict: true });
    opts = { positionals: parsed.positionals };
    for (const [key, spec] of Object.entries(options)) {
      const value = parsed.values[key];
      const convert = (v) => {
        try {
          return CONVERT[spec.type](v);
        } catch (err) {
          throw new Error(`Option '--${key}' argument is not valid: ${err.message}`, { cause: err });
        }
      };
      if (value === undefined)
        opts[camel(key)] =
          spec.default !== undefined ? spec.default : spec.multiple ? [] : spec.type === 'boolean' ? false : undefined;
      else opts[camel(key)] = spec.multiple ? value.map(convert) : convert(value);
    }
  } catch (err) {
    console.error(`${name}: ${firstSentence(err.message)} (see --help)`);
    process.exit(exitCode);
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  return opts;
}

module.exports = { parseOptions };
