// Origin tags follow the rules of the build that reads them: a file indexed under older
// rules (a ChangeLog tagged as nothing) is tagged anew by the next reconcile, at the cost
// of a hash, without parsing anything.
import { openDatabase } from '../src/store/database';
import { indexPath } from '../src/store/publish';
import { runStatement } from '../src/store/sql';
import { Fixture } from './helpers';

test('a file whose stored tags differ from the current rules is tagged anew, not parsed', async () => {
  const fx = new Fixture('retag', {
    'ld/ChangeLog-2015': '2015-01-02  A. Hacker\n\n\t* ldlang.c: Parse the script.\n',
    'ld/ldlang.c': 'int parse_script(void) { return 0; }\n',
  });
  await fx.index();
  const db = openDatabase(indexPath(fx.cache), 'write');
  if (!db) throw new Error('no index');
  try {
    runStatement(db, "UPDATE file SET tags = '' WHERE path = 'ld/ChangeLog-2015'", []);
  } finally {
    db.close();
  }
  const stale = await fx.open();
  expect(stale.fileByPath('ld/ChangeLog-2015')?.tags).toEqual([]);
  stale.close();
  const again = await fx.index();
  expect(again).toMatchObject({ parsed: 0, published: true });
  const reader = await fx.open();
  try {
    expect(reader.fileByPath('ld/ChangeLog-2015')?.tags).toEqual(['source:docs']);
    expect(reader.fileByPath('ld/ldlang.c')?.tags).toEqual(['source:code']);
  } finally {
    reader.close();
  }
  // Nothing left to change: the next reconcile publishes nothing.
  expect(await fx.index()).toMatchObject({ published: false });
});
