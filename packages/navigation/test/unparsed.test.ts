// The coverage words naming what an answer could not read (unparsed.ts): files too large to
// index left unsearched are told by the directories holding them once there are more than
// UNPARSED_PATHS_SHOWN (the kernel's 33 register headers), by name otherwise.
import { directoryGroups } from '../src/unparsed';
import { tooLargeUnsearchedWords, UNPARSED_PATHS_SHOWN } from '../src';

const AMD = 'drivers/gpu/drm/amd/include/asic_reg';
const KERNEL = [
  `${AMD}/dcn/dcn_3_0_0_sh_mask.h`,
  `${AMD}/dcn/dcn_3_0_1_sh_mask.h`,
  `${AMD}/gc/gc_10_3_0_sh_mask.h`,
  `${AMD}/nbio/nbio_7_4_sh_mask.h`,
  `${AMD}/mmhub/mmhub_2_0_0_sh_mask.h`,
  'drivers/misc/habanalabs/include/gaudi2/asic_reg/gaudi2_regs.h',
];

describe('files too large to index left unsearched', () => {
  it('are told by the deepest directories that hold them in few groups', () => {
    expect(KERNEL.length).toBeGreaterThan(UNPARSED_PATHS_SHOWN);
    expect(tooLargeUnsearchedWords(KERNEL)).toBe(
      `6 files too large to index not searched: 5 under ${AMD}/, ${KERNEL[5]} (file:PATH searches one)`,
    );
    expect(tooLargeUnsearchedWords(KERNEL.slice(0, 4))).toBe(
      `4 files too large to index not searched: 2 under ${AMD}/dcn/, ${KERNEL[2]}, ${KERNEL[3]} (file:PATH searches one)`,
    );
  });

  it('are named one by one when few, or when several lie at the top level', () => {
    expect(tooLargeUnsearchedWords(KERNEL.slice(0, 2))).toBe(
      `2 files too large to index not searched: ${KERNEL[0]}, ${KERNEL[1]} (file:PATH searches one)`,
    );
    expect(tooLargeUnsearchedWords(['a.h', 'b.h', 'gen/c.h', 'gen/d.h'])).toBe(
      '4 files too large to index not searched: a.h, b.h, gen/c.h, +1 (file:PATH searches one)',
    );
  });

  it('group by whole directory names, never by a prefix of one', () => {
    expect(directoryGroups(['src/ab/x.h', 'src/ab/y.h', 'src/ac/z.h', 'src/ac/w.h'], 3)).toBe(
      '2 under src/ab/, 2 under src/ac/',
    );
    expect(directoryGroups(['srcx/a.h', 'srcx/b.h', 'src/c.h', 'src/d.h'], 1)).toBeUndefined();
    expect(directoryGroups(['top.h', 'gen/a.h', 'gen/b.h'], 3)).toBe('top.h, 2 under gen/');
  });
});
