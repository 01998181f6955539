// C# preprocessor conditionals where tree-sitter-c-sharp 0.23.5 reads none (an agent trial
// on newtonsoft-json 6.0.8: 30 of 541 files partial). Shapes taken from that code base:
// a conditional inside a base list (JToken.cs), before the `else` of an if chain
// (JsonTextReader.cs), and around one of two heads that share a body (TestFixtureBase.cs).
// The file must parse `ok`, its definitions keep their owners and exact spans, and
// alternatives that are whole members stay definitions, both of them.
import { extractFile } from '../src';
import { defs, expectExactSpans } from './extraction';
import { cleanIndexReader, Fixture } from './helpers';

const JTOKEN_CS = `namespace Newtonsoft.Json.Linq
{
    public abstract class JToken : IJEnumerable<JToken>, IJsonLineInfo
#if !(NETFX_CORE || PORTABLE40 || PORTABLE)
        , ICloneable
#endif
#if !(NET35 || NET20 || PORTABLE40)
        , IDynamicMetaObjectProvider
#endif
    {
        private JContainer _parent;

        public static JToken FromObject(object o)
        {
            return FromObjectInternal(o, JsonSerializer.CreateDefault());
        }
    }
}
`;

const READER_CS = `namespace Newtonsoft.Json
{
    public class JsonTextReader : JsonReader
    {
        private void ParseString(char quote)
        {
            if (_readType == ReadType.ReadAsDateTime)
                dateParseHandling = DateParseHandling.DateTime;
#if !NET20
            else if (_readType == ReadType.ReadAsDateTimeOffset)
                dateParseHandling = DateParseHandling.DateTimeOffset;
#endif
            else
                dateParseHandling = _dateParseHandling;
        }

        private static void BlockCopyChars(char[] src, int srcOffset, char[] dst, int dstOffset, int count)
        {
            Buffer.BlockCopy(src, srcOffset * 2, dst, dstOffset * 2, count * 2);
        }
    }
}
`;

const FIXTURE_CS = `namespace Newtonsoft.Json.Tests
{
    public abstract class TestFixtureBase
    {
#if NET20
        protected string Build() { return "2.0"; }
#else
        protected string Build() { return "4.5"; }
        protected string Platform() { return "desktop"; }
#endif

#if ASPNETCORE50
        protected TestFixtureBase()
#else
        [SetUp]
        protected void TestSetup()
#endif
        {
            Thread.CurrentThread.CurrentCulture = CultureInfo.InvariantCulture;
        }

        protected void TearDown() { }
    }
}
`;

function extract(src: string) {
  const bytes = Buffer.from(src, 'utf8');
  return { x: extractFile('csharp', bytes), bytes };
}

describe('C# preprocessor conditionals', () => {
  it('a conditional in a base list: the class spans its body and owns its members', () => {
    const { x, bytes } = extract(JTOKEN_CS);
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'Newtonsoft.Json.Linq:module',
      'JToken:class',
      'JToken::_parent:field',
      'JToken::FromObject:method',
    ]);
    const cls = x.definitions.find((d) => d.name === 'JToken')!;
    expect([cls.startLine, cls.endLine]).toEqual([3, 17]);
    expectExactSpans(bytes, x.definitions);
  });

  it('a conditional before an else: no statement becomes a definition, the next method keeps its owner', () => {
    const { x, bytes } = extract(READER_CS);
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'Newtonsoft.Json:module',
      'JsonTextReader:class',
      'JsonTextReader::ParseString:method',
      'JsonTextReader::BlockCopyChars:method',
    ]);
    expect(x.definitions.find((d) => d.name === 'ParseString')!.endLine).toBe(15);
    expectExactSpans(bytes, x.definitions);
  });

  it('two heads sharing a body keep the first; alternatives that are whole members keep every branch', () => {
    const { x, bytes } = extract(FIXTURE_CS);
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'Newtonsoft.Json.Tests:module',
      'TestFixtureBase:class',
      'TestFixtureBase::Build:method',
      'TestFixtureBase::Build:method',
      'TestFixtureBase::Platform:method',
      'TestFixtureBase::TestFixtureBase:method',
      'TestFixtureBase::TearDown:method',
    ]);
    const ctor = x.definitions.find((d) => d.name === 'TestFixtureBase' && d.kind === 'method')!;
    expect([ctor.startLine, ctor.endLine]).toEqual([13, 20]);
    expectExactSpans(bytes, x.definitions);
  });

  it('a "#if" inside a string or comment is no directive, and a file without errors is left as the grammar reads it', () => {
    const src = `class Config
{
    // #if DEBUG
    const string Text = @"
#if RELEASE
";
    public int Depth { get; set; }
}
`;
    const { x } = extract(src);
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual(['Config:class', 'Config::Text:constant', 'Config::Depth:property']);
  });
});

describe('C# conditionals through the index', () => {
  const fx = new Fixture('csharp-conditionals', {
    'Src/Newtonsoft.Json/Linq/JToken.cs': JTOKEN_CS,
    'Src/Newtonsoft.Json/JsonTextReader.cs': READER_CS,
  });
  const reader = cleanIndexReader(fx);

  it('sym:JToken::FromObject lands on the method', async () => {
    const hits = (await fx.search('sym:JToken::FromObject')).hits;
    expect(hits.map((h) => `${h.path}:${h.startLine} ${h.kind}`)).toEqual([
      'Src/Newtonsoft.Json/Linq/JToken.cs:13 method',
    ]);
    expect(reader().definitions('if')).toEqual([]);
  });
});
