// A page of free-text hits is not one directory of look-alike documents (rank's
// spreadSiblings) nor led by a minified bundle (looksMinified in the fusion prior): an agent
// trial on yargs got 12 locales/*.json translations of "Did you mean %s?" before the code
// that prints it, and a one-line build/index.cjs among the first hits. Real index, real files.
import { Fixture } from './helpers';

const LANGS = ['en', 'ja', 'fr', 'de', 'es', 'it'];
const FILES: Record<string, string> = {
  ...Object.fromEntries(
    LANGS.map((l) => [
      `locales/${l}.json`,
      `{\n  "Did you mean %s?": "Did you mean %s? (${l})",\n  "Unknown command": "unknown"\n}\n`,
    ]),
  ),
  'lib/validation.js': [
    'function recommendCommands(cmd, potentialCommands) {',
    '  const threshold = 3;',
    '  let recommended = null;',
    '  for (const candidate of potentialCommands) {',
    '    if (distance(cmd, candidate) <= threshold) recommended = candidate;',
    '  }',
    "  if (recommended) fail(format('Did you mean %s? Unknown command', recommended));",
    '}',
    'module.exports = { recommendCommands };',
    '',
  ].join('\n'),
  // Every query word, many times over, on one line: without the prior it ranks first.
  'build/index.cjs': `"use strict";${'function q(t){return fail("Did you mean "+t+"? Unknown command",t)}'.repeat(40)}module.exports=q;\n`,
};

let fx: Fixture;
beforeAll(async () => {
  fx = new Fixture('siblings', FILES);
  await fx.index();
});

describe('free-text pages', () => {
  it('keep two look-alike documents of one directory in place and move the rest after the code', async () => {
    const paths = await fx.paths('did you mean command');
    expect(paths.slice(0, 3).filter((p) => p.startsWith('locales/'))).toHaveLength(2);
    expect(paths.indexOf('lib/validation.js')).toBeLessThan(3);
    // Nothing is dropped: every translation is still on the list, after the code.
    expect(paths.filter((p) => p.startsWith('locales/'))).toHaveLength(LANGS.length);
  });

  it('rank a minified file after hand-written code', async () => {
    const paths = await fx.paths('did you mean command');
    expect(paths.indexOf('build/index.cjs')).toBeGreaterThan(paths.indexOf('lib/validation.js'));
  });
});
