// Luau found in real packages (Nevermore's datastore, sift, vide) that the blanking once
// missed: each file must parse `ok` with its definitions.
import { extractFile, type Extraction } from '../src';

function luau(src: string): Extraction {
  return extractFile('luau', Buffer.from(src, 'utf8'));
}

function defsAt(x: Extraction): string[] {
  return x.definitions.map((d) => `${d.container ? d.container + '::' : ''}${d.name}:${d.kind}@${d.startLine}`);
}

describe('Luau syntax in real code', () => {
  test('a return type ending in `>` or `)` does not make the next `if` an expression', () => {
    const x = luau(`local DataStore = {}
function DataStore.PromiseViewUpToDate(self: DataStore): Promise.Promise<()>
\tif self._firstLoadPromise then
\t\treturn self._firstLoadPromise
\tend
end
function DataStore.Other(self: DataStore): (number, string)
\tif self.x then return 1, "a" end
end
return DataStore
`);
    expect(x.parse).toBe('ok');
    expect(defsAt(x)).toEqual([
      'DataStore:variable@1',
      'DataStore::PromiseViewUpToDate:function@2',
      'DataStore::Other:function@7',
    ]);
  });

  test('nested if-expressions', () => {
    const x = luau(
      'local function find(length: number, from: number?)\n\tfrom = if type(from) == "number" then if from < 1 then length + from else from else 1\n\treturn from\nend\n',
    );
    expect(x.parse).toBe('ok');
    expect(defsAt(x)).toEqual(['find:function@1']);
  });

  test('an interpolated string whose expression spans lines and holds a string', () => {
    const x = luau(
      'local function warnBad(data)\n\twarn(\n\t\t`[Helper] - malformed: {Utils.toHuman(\n\t\t\tdata, "}")}`\n\t)\nend\nlocal after = 1\n',
    );
    expect(x.parse).toBe('ok');
    expect(defsAt(x)).toEqual(['warnBad:function@1', 'after:variable@7']);
  });

  test('digit separators, binary literals, generic type packs and type functions', () => {
    const x = luau(`local TOLERANCE = 10_000
local MASK = 0b1010_1010
local function root<T...>(fn: (destroy: () -> ()) -> T...): (() -> (), T...)
\treturn fn(function() end)
end
type function Properties(instance: type?)
\tlocal properties = types.newtable()
\twhile instance do
\t\tif instance then instance = instance:readparent() end
\tend
\treturn properties
end
local function after() end
`);
    expect(x.parse).toBe('ok');
    expect(defsAt(x)).toEqual([
      'TOLERANCE:constant@1',
      'MASK:constant@2',
      'root:function@3',
      'Properties:type@6',
      'after:function@13',
    ]);
  });
});
