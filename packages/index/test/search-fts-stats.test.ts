// The FTS lanes score with the table's figures read once per phrase and kept per read
// connection (fts.ts tableStatsOf) instead of matchinfo's `x` recounting them in every
// statement. Scores must be the very same numbers: checked against the statement's own
// figures on a real index, for every expression shape the lanes write.
import { Fixture } from './helpers';
import { expressionPhrases, ftsExpression, ftsFormsExpression, scoredRegions } from '../src/query/fts';
import { isStopword, wordFormTerms } from '@trufflepig/rank';

const FILES: Record<string, string> = {
  'src/retry.rs':
    '/// Retry a failed request with exponential backoff.\npub fn retry_request(attempts: u32) -> u32 {\n    // the delay doubles after each failed attempt\n    attempts * 2\n}\n',
  'src/backoff.rs':
    'pub struct Backoff { delay: u64 }\nimpl Backoff {\n    pub fn next_delay(&mut self) -> u64 { self.delay *= 2; self.delay }\n}\n',
  'src/cache.ts':
    'export class LruCache {\n  // evict the least recently used entry when the cache is full\n  evict(): void {}\n  retries = 0;\n}\n',
  'docs/guide.md':
    '# Guide\n\nA request is retried. The retries grow. Backoff of the delay: a delay, then a longer delay.\n',
  'src/handler.py':
    'def handle_interrupt(irq):\n    """Handle an interrupt and wake up the waiting tasks."""\n    return irq\n',
};

let fx: Fixture;
beforeAll(async () => {
  fx = new Fixture('fts-stats', FILES);
  await fx.index();
});

/** Each query word's forms as the any-term lane writes them, and the phrase owners. */
function anyTerm(words: string[]) {
  const forms = words.map((w) => wordFormTerms(w));
  const owners = words.flatMap((w, i) => forms[i].map(() => (isStopword(w) ? -1 : i)));
  return { expression: ftsFormsExpression(forms), owners, forms };
}

test('expressionPhrases names matchinfo phrases in order', () => {
  expect(expressionPhrases('"retry a failed"')).toEqual(['"retry a failed"']);
  expect(expressionPhrases('("delay" OR dela*) AND ("the" OR "backoff")')).toEqual([
    '"delay"',
    'dela*',
    '"the"',
    '"backoff"',
  ]);
  expect(expressionPhrases('(("a") ("b" OR b*)) OR "c"')).toEqual(['"a"', '"b"', 'b*', '"c"']);
});

const SHAPES: [
  string,
  () => { expression: string; owners?: number[]; select?: { expression: string; phrases: number } },
][] = [
  ['an identifier phrase', () => ({ expression: ftsExpression(['retry', 'request'], 'phrase') })],
  ['all terms with a stopword', () => ({ expression: ftsExpression(['the', 'delay', 'doubles'], 'all') })],
  ['any term', () => ({ expression: ftsExpression(['backoff', 'delay', 'evict'], 'any') })],
  ['word forms with stopwords', () => anyTerm(['retries', 'a', 'failed', 'request'])],
  ['a phrase that matches nothing', () => anyTerm(['delay', 'zyzzyvaquux'])],
  [
    'selecting phrases before the scored ones',
    () => {
      const t = anyTerm(['handle', 'an', 'interrupt', 'waiting']);
      const content = t.forms.filter((_, i) => i !== 1);
      return {
        ...t,
        select: { expression: ftsFormsExpression(content), phrases: content.flat().length },
      };
    },
  ],
];

test.each(SHAPES)('%s: the cached figures give the statement figures\u2019 scores', async (_name, shape) => {
  const reader = await fx.open();
  try {
    const { expression, owners, select } = shape();
    const cached = scoredRegions(reader.db, expression, owners, select, 'cached');
    const statement = scoredRegions(reader.db, expression, owners, select, 'statement');
    expect(cached.hits.length).toBeGreaterThan(0);
    expect(cached.hits).toEqual(statement.hits);
    expect(cached.stats).toEqual(statement.stats);
    // Asked again on the same connection: from the cache, the same numbers.
    expect(scoredRegions(reader.db, expression, owners, select, 'cached').hits).toEqual(statement.hits);
  } finally {
    reader.close();
  }
});
