// C++ headers without extension (Eigen's `Eigen/Dense`, `unsupported/Eigen/AlignedVector3`)
// through the commands. An agent trial on Eigen got `map Eigen/Dense` → `0 items; indexed as
// text`, `show sym:AlignedVector3` → no_definition, and `refs aligned_malloc` without the
// calls in `Eigen/QtAlignedMalloc`; a Makefile, LICENSE, README, a script and prose stay text.
import { mapCommand, refsCommand, showCommand, statusCommand, type CommandOptions } from '../src';
import { json, indexedRepo, type IndexedRepo } from './ws-helpers';

const FILES: Record<string, string> = {
  'Eigen/Core': [
    '// This file is part of Eigen, a lightweight C++ template library',
    '#ifndef EIGEN_CORE_H',
    '#define EIGEN_CORE_H',
    'namespace Eigen {',
    'namespace internal {',
    'inline void* aligned_malloc(unsigned long size) { return 0; }',
    '}',
    'template <typename Scalar> class Matrix {',
    ' public:',
    '  Scalar coeff(int i) const { return data[i]; }',
    '  Scalar data[4];',
    '};',
    '}',
    '#endif',
    '',
  ].join('\n'),
  'Eigen/Dense': '#include "Core"\n#include "QtAlignedMalloc"\n',
  'Eigen/QtAlignedMalloc': [
    '#ifndef EIGEN_QTMALLOC_MODULE_H',
    '#define EIGEN_QTMALLOC_MODULE_H',
    '#include "Core"',
    'void *qMalloc(unsigned long size)',
    '{',
    '  return Eigen::internal::aligned_malloc(size);',
    '}',
    '#endif',
    '',
  ].join('\n'),
  'unsupported/Eigen/AlignedVector3': [
    '#ifndef EIGEN_ALIGNED_VECTOR3',
    '#define EIGEN_ALIGNED_VECTOR3',
    '#include "../../Eigen/Core"',
    'namespace Eigen {',
    'template <typename Scalar> class AlignedVector3 {',
    ' public:',
    '  Scalar norm() const { return m_coeffs.coeff(0); }',
    '  Matrix<Scalar> m_coeffs;',
    '};',
    '}',
    '#endif',
    '',
  ].join('\n'),
  Makefile: '#include "config.mk"\nall:\n\tcc -o app main.c\n',
  LICENSE: 'Mozilla Public License Version 2.0\n',
  README: '#include <Eigen/Dense> is all a program needs.\n',
  'scripts/build': '#!/bin/sh\nmake all\n',
  NOTES: 'Notes on the build of the AlignedVector3 module.\n',
};

describe('C++ headers without extension', () => {
  let repo: IndexedRepo;
  const at = (more: Partial<CommandOptions> = {}) => repo.at(more);

  beforeAll(async () => {
    repo = await indexedRepo('tp-nav-noext-', FILES, { format: 'json', budget: 5000 });
  });

  it('show sym:AlignedVector3 reads the class in unsupported/Eigen/AlignedVector3', async () => {
    const page = json(await showCommand('sym:AlignedVector3', at()));
    expect(page).toMatchObject({
      path: 'unsupported/Eigen/AlignedVector3',
      name: 'Eigen::AlignedVector3',
      kind: 'class',
      start_line: 5,
    });
  });

  it('map outlines the header: its class and method, not "indexed as text"', async () => {
    const outline = await mapCommand(['unsupported/Eigen/AlignedVector3'], at({ format: 'lines' }));
    expect(outline.stdout).not.toMatch(/indexed as text/);
    expect(outline.stdout).toMatch(/AlignedVector3/);
    expect(outline.stdout).toMatch(/norm/);
    expect((await mapCommand(['Eigen/Dense'], at({ format: 'lines' }))).stdout).not.toMatch(/indexed as text/);
    expect((await mapCommand(['Makefile'], at({ format: 'lines' }))).stdout).toMatch(/indexed as text/);
  });

  it('refs aligned_malloc lists the use in Eigen/QtAlignedMalloc, resolved to Eigen/Core', async () => {
    const page = json(await refsCommand(['aligned_malloc'], at()));
    expect(page.hits).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'Eigen/QtAlignedMalloc', within: 'qMalloc', definition: 'Eigen/Core:6' }),
      ]),
    );
  });

  it('status counts the headers as cpp and the build file, prose and script as text', async () => {
    const status = JSON.parse((await statusCommand(at())).stdout);
    expect(status.structure.languages).toEqual({ cpp: 4, text: 5 });
  });
});
