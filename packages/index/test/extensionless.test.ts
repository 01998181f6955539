// Files without extension whose bytes are C or C++ (Eigen's `Eigen/Core`): extracted and
// stored as cpp, tagged code, found by lang:cpp; build files, scripts and prose stay text.
import { extractFile, extractionLanguageOf, sourceTags } from '../src';
import { extensionlessLanguage, looksLikeCSource } from '../src/extract/lang/c-family';
import { EXTENSIONLESS_FILES } from './extensionless-fixture';
import { cleanIndexReader, Fixture } from './helpers';

const TEXT_FILES = [
  'LICENSE',
  'Makefile',
  'README',
  'scripts/build',
  'scripts/setup',
  'signature_of_eigen3_matrix_library',
];
const CPP_FILES = [
  'Eigen/Core',
  'Eigen/Dense',
  'Eigen/LU',
  'Eigen/QtAlignedMalloc',
  'unsupported/Eigen/AlignedVector3',
];

describe('the opening of a file without extension', () => {
  it('is C or C++ when it opens with an include, a pragma, a guard or a C++ head after its comments', () => {
    for (const text of [
      '/* license\n * text */\n\n#include <bits/c++config.h>\n',
      '// c\n#pragma GCC system_header\n',
      '#ifndef _GLIBCXX_VECTOR\n#define _GLIBCXX_VECTOR 1\n',
      '#if !defined(QT_STRING)\n#define QT_STRING\n',
      'namespace std {\n}\n',
      'namespace juce\n{\n}\n',
      'template <typename T> struct X;\n',
      'class Widget : public QObject {\n',
      '\uFEFF#include "qstring.h"\n',
    ])
      expect([text, looksLikeCSource(text)]).toEqual([text, true]);
  });

  it('is not when it opens otherwise: a shebang, shell or make comments, Python, prose, a lone #define', () => {
    for (const text of [
      '#!/bin/sh\n#include <x.h>\n',
      '# build\nall:\n',
      '#ifndef FOO\nset -e\n',
      'class Foo:\n    pass\n',
      'class Foo(Base):\n',
      'This file is just there as a signature.\n',
      '#define X 1\n',
      'namespace foo;\n',
      '',
      `/* ${'x'.repeat(9000)} */\n#include <x.h>\n`,
    ])
      expect([text, looksLikeCSource(text)]).toEqual([text, false]);
  });

  it('is C++ when looksLikeCpp says so or it includes a header without extension, C otherwise', () => {
    expect(extensionlessLanguage('#include "Core"\n#include "LU"\n')).toBe('cpp');
    expect(extensionlessLanguage('#include "../../Eigen/Core"\n')).toBe('cpp');
    expect(extensionlessLanguage('#include <linux/types.h>\nint x;\n')).toBe('c');
    expect(extensionlessLanguage('# a comment\n')).toBe('text');
  });

  it('is read for an .inc file too, which is C++ in abseil and PHP or assembly elsewhere', () => {
    // abseil's int128_have_intrinsic.inc and 23 more were text: `show sym:int128::int128`
    // found prototypes only (an abseil trial).
    expect(['absl/numeric/int128_have_intrinsic.inc', 'lib/config.inc'].map(extractionLanguageOf)).toEqual([
      'extensionless',
      'extensionless',
    ]);
    const cpp = extractFile(
      'extensionless',
      Buffer.from('// Copyright\n\nnamespace int128_internal {\ninline int128 Make(int v) { return int128(v); }\n}\n'),
    );
    expect(cpp.lang).toBe('cpp');
    expect(cpp.definitions.map((d) => d.name)).toEqual(['int128_internal', 'Make']);
    const php = extractFile('extensionless', Buffer.from('<?php\n$config = array();\n'));
    expect(php.lang).toBe('text');
    expect(php.definitions).toEqual([]);
  });

  it('is read only for paths without extension that are no build file, prose or dotfile', () => {
    expect(['Eigen/Core', 'vector', 'QtCore/QString'].map(extractionLanguageOf)).toEqual([
      'extensionless',
      'extensionless',
      'extensionless',
    ]);
    expect(
      ['Makefile', 'a/LICENSE', 'README', 'Dockerfile', 'configure', '.clang-format', 'a.txt', 'a.h'].map(
        extractionLanguageOf,
      ),
    ).toEqual(['text', 'text', 'text', 'text', 'text', 'text', 'text', 'c']);
  });
});

describe('files without extension through the index', () => {
  const fx = new Fixture('extensionless', EXTENSIONLESS_FILES);
  const reader = cleanIndexReader(fx);

  it('stores the C++ headers as cpp, tagged code, and the rest as text', () => {
    for (const p of CPP_FILES) {
      expect([p, reader().fileByPath(p)?.lang, reader().fileByPath(p)?.tags]).toEqual([p, 'cpp', ['source:code']]);
      expect(sourceTags(p, 'cpp')).toEqual(['source:code']);
    }
    for (const p of TEXT_FILES) {
      expect([p, reader().fileByPath(p)?.lang]).toEqual([p, 'text']);
      expect(reader().fileByPath(p)?.tags).not.toContain('source:code');
    }
    expect(
      reader()
        .fileDefinitions('unsupported/Eigen/AlignedVector3')
        .map((d) => d.name),
    ).toEqual(expect.arrayContaining(['AlignedVector3', 'norm']));
  });

  it('lang:cpp finds them; lang:text the build files, scripts and prose', async () => {
    expect((await fx.paths('kind:file lang:cpp')).sort()).toEqual(CPP_FILES);
    expect((await fx.paths('kind:file lang:text')).sort()).toEqual(TEXT_FILES);
    expect(await fx.paths('sym:AlignedVector3 lang:cpp')).toEqual(['unsupported/Eigen/AlignedVector3']);
    expect(await fx.paths('source:code aligned_malloc')).toEqual(
      expect.arrayContaining(['Eigen/Core', 'Eigen/QtAlignedMalloc']),
    );
  });

  it('a reconcile of the same bytes examines nothing: the stored tags are those recomputed', async () => {
    expect(reader().fileByPath('Eigen/Core')?.tags).toEqual(['source:code']);
    const again = await fx.index();
    expect(again).toMatchObject({ published: false, parsed: 0, reused: 0 });
  });
});
