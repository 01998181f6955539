// C++ repairs for Eigen's idioms (an agent trial on Eigen 3.4, header-only C++ whose every
// declaration carries annotation macros): real tree-sitter parses of small files of the
// shapes that hid its methods and classes.
import { extractFile } from '../src';
import { defs } from './extraction';

describe('Eigen idioms', () => {
  it('reads a method whose parameters an annotation macro follows, after const', () => {
    const src = [
      'template<typename Derived> class PlainObjectBase : public Base',
      '{',
      '  public:',
      '    EIGEN_DEVICE_FUNC',
      '    Index rows() const EIGEN_NOEXCEPT { return m_storage.rows(); }',
      '    EIGEN_DEVICE_FUNC',
      '    Index cols() const EIGEN_NOEXCEPT { return m_storage.cols(); }',
      '    EIGEN_DEVICE_FUNC Index size() const & EIGEN_NOEXCEPT;',
      '    int other() { return 3; }',
      '};',
      '',
    ].join('\n');
    const x = extractFile('cpp', Buffer.from(src));
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'PlainObjectBase:class',
      'PlainObjectBase::rows:method',
      'PlainObjectBase::cols:method',
      'PlainObjectBase::size:prototype',
      'PlainObjectBase::other:method',
    ]);
  });
});
