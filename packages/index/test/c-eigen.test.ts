// C++ repairs for Eigen's idioms (an agent trial on Eigen 3.4, header-only C++ whose every
// declaration carries annotation macros): real tree-sitter parses of small files of the
// shapes that hid its methods and classes.
import { extractFile } from '../src';
import { defs } from './extraction';

describe('Eigen idioms', () => {
  it("never reads an #error line's words in an enumerator list as enumerators", () => {
    // Eigen's AlignmentType: `EIGEN_MAX_ALIGN_BYTES` (and `Invalid`, `value`, `for`) were
    // variants, and show sym: of the macro listed one.
    const src = [
      'enum AlignmentType {',
      '  Unaligned=0,',
      '  Aligned16=16,',
      '#if EIGEN_MAX_ALIGN_BYTES==128',
      '  AlignedMax = Aligned128',
      '#elif EIGEN_MAX_ALIGN_BYTES==16',
      '  AlignedMax = Aligned16',
      '#else',
      '#error Invalid value for EIGEN_MAX_ALIGN_BYTES',
      '#endif',
      '};',
      '',
    ].join('\n');
    const x = extractFile('cpp', Buffer.from(src));
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'AlignmentType:enum',
      'AlignmentType::Unaligned:variant',
      'AlignmentType::Aligned16:variant',
      'AlignmentType::AlignedMax:variant',
      'AlignmentType::AlignedMax:variant',
    ]);
  });

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

  it('blanks every annotation macro of a head: stacked before a qualified name, before explicit, after a template head', () => {
    const src = [
      'namespace Eigen {',
      'template<typename Derived>',
      'EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Derived& DenseBase<Derived>::setZero()',
      '{',
      '  return setConstant(Scalar(0));',
      '}',
      'template<typename Derived>',
      'template<typename OtherDerived>',
      'EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Derived &',
      'ArrayBase<Derived>::operator-=(const ArrayBase<OtherDerived>& other)',
      '{',
      '  return derived();',
      '}',
      'template<typename Derived> class Array : public PlainObjectBase<Array>',
      '{',
      '  public:',
      '    template<typename T>',
      '    EIGEN_DEVICE_FUNC',
      '    EIGEN_STRONG_INLINE explicit Array(const T& x)',
      '    {',
      '      Base::_check_template_params();',
      '    }',
      '    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Array(const Array& other) : Base(other) {}',
      '    template<typename OtherDerived> EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE',
      '    const CwiseBinaryOp<internal::scalar_igamma_op<Scalar>, const Derived, const OtherDerived>',
      '    igamma(const OtherDerived& other) const {',
      '      return binaryExpr(other.derived(), internal::scalar_igamma_op<Scalar>());',
      '    }',
      '};',
      '}',
      '',
    ].join('\n');
    const x = extractFile('cpp', Buffer.from(src));
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'Eigen:module',
      'DenseBase::setZero:method',
      'ArrayBase::operator-=:method',
      'Eigen::Array:class',
      'Array::Array:method',
      'Array::Array:method',
      'Array::igamma:method',
    ]);
  });

  it('reads a class whose base clause a conditional splits, by its first branch; a split function head is left', () => {
    const src = [
      'namespace Eigen {',
      'template<typename Derived> class DenseBase',
      '#ifndef EIGEN_PARSED_BY_DOXYGEN',
      '  : public DenseCoeffsBase<Derived, internal::accessors_level<Derived>::value>',
      '#else',
      '  : public DenseCoeffsBase<Derived,DirectWriteAccessors>',
      '#endif // not EIGEN_PARSED_BY_DOXYGEN',
      '{',
      '  public:',
      '    typedef typename internal::traits<Derived>::Scalar Scalar;',
      '    EIGEN_DEVICE_FUNC',
      '    inline Index nonZeros() const { return size(); }',
      '};',
      '#ifdef EIGEN_NO_DEBUG',
      '#define EIGEN_ONLY_USED_FOR_DEBUG(x) EIGEN_UNUSED_VARIABLE(x)',
      '#else',
      '#define EIGEN_ONLY_USED_FOR_DEBUG(x)',
      '#endif',
      '}',
      '',
    ].join('\n');
    const x = extractFile('cpp', Buffer.from(src));
    expect(x.parse).toBe('ok');
    expect(defs(x)).toEqual([
      'Eigen:module',
      'Eigen::DenseBase:class',
      'DenseBase::Scalar:type',
      'DenseBase::nonZeros:method',
      'EIGEN_ONLY_USED_FOR_DEBUG:macro',
      'EIGEN_ONLY_USED_FOR_DEBUG:macro',
    ]);
  });
});
