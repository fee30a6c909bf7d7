// Copying a tensor between layouts (layout/copy.hpp), every figure derived by hand: list the
// walked layout's memory dims innermost first with their stride (elements) in the source and in
// the target; on each side a run is the leading dims whose strides continue contiguously (1, then
// the product so far), and the dims after it repeat the run, consecutive ones merging where the
// outer one's stride is the inner one's stride x extent.
#include <gtest/gtest.h>

#include <stream/error.hpp>
#include <stream/layout/copy.hpp>

using namespace stream;

namespace {
const Layout kRowMajor{};
const Layout kColumnMajor{{1, 0}, std::nullopt};

// (runs, elements per run, repetition dims innermost first) of a one-piece count.
void expect(const RunCount& r, std::int64_t runs, std::int64_t run, std::vector<std::int64_t> outer, const char* what) {
  ASSERT_EQ(r.pieces.size(), 1u) << what;
  EXPECT_EQ(r.runs(), runs) << what;
  EXPECT_EQ(r.pieces[0].run, run) << what;
  EXPECT_EQ(r.pieces[0].outer, outer) << what;
}
}  // namespace

TEST(LayoutCopy, TheSameLayoutIsOneRunEachSide) {
  // [4, 6] row-major to itself: axis 1 (6, stride 1), axis 0 (4, stride 6) on both sides.
  const auto c = layout::copy_runs(kRowMajor, kRowMajor, {4, 6}, true);
  ASSERT_TRUE(c);
  expect(c->read, 1, 24, {}, "read");
  expect(c->write, 1, 24, {}, "write");
}

TEST(LayoutCopy, ATransposeReadsOneElementPerRun) {
  // K [32, 64] into (1,0), walking the target: axis 0 (32; source stride 64, target 1), then
  // axis 1 (64; source 1, target 32). The read's first stride is 64, not 1: runs of 1 element,
  // repeated over [32, 64] (1 is not 64 x 32: no merge): 2,048 runs; a descriptor with one stride
  // walks the 32, so 64 descriptors. The write: 1, then 32 = 1 x 32: one run of 2,048.
  auto c = layout::copy_runs(kRowMajor, kColumnMajor, {32, 64}, true);
  ASSERT_TRUE(c);
  expect(c->read, 2048, 1, {32, 64}, "read, walking the target");
  EXPECT_EQ(c->read.descriptors(1), 64);
  EXPECT_EQ(c->read.descriptors(2), 1);
  expect(c->write, 1, 2048, {}, "write, walking the target");
  // Walking the source instead: axis 1 (64; source 1, target 32), axis 0 (32; 64, 1). The read is
  // one run; the write's runs are single elements over [64, 32], 32 descriptors with one stride.
  c = layout::copy_runs(kRowMajor, kColumnMajor, {32, 64}, false);
  ASSERT_TRUE(c);
  expect(c->read, 1, 2048, {}, "read, walking the source");
  expect(c->write, 2048, 1, {64, 32}, "write, walking the source");
  EXPECT_EQ(c->write.descriptors(1), 32);
}

TEST(LayoutCopy, ABlockedTargetKeepsItsBlockAsTheRun) {
  // K [32, 64] into (1,0,1:8): axis 1 in 8 blocks of 8. Target dims innermost first: within (8;
  // source stride 1, target 1), axis 0 (32; 64, 8), blocks (8; 8, 256). Read: runs of 8 (64 is
  // not 8), over [32, 8] (8 is not 64 x 32): 256 runs, 8 descriptors with one stride. Write:
  // 1, 8, 256 continue: one run of 2,048.
  const Layout blocked{{1, 0, 1}, AxisBlock{1, 8}};
  const auto c = layout::copy_runs(kRowMajor, blocked, {32, 64}, true);
  ASSERT_TRUE(c);
  expect(c->read, 256, 8, {32, 8}, "read");
  EXPECT_EQ(c->read.descriptors(1), 8);
  expect(c->write, 1, 2048, {}, "write");
}

TEST(LayoutCopy, NchwToNhwcAndMergedStrides) {
  // [1, 8, 4, 4] NCHW into NHWC, walking NHWC: C (8; source 16, target 1), W (4; 1, 8), H (4; 4,
  // 32), N of extent 1 left out. Read: runs of 1 (16 is not 1); C alone (W's stride 1 is not
  // 16 x 8), then W and H merge (4 = 1 x 4) into 16: 128 runs over [8, 16]. Write: 1, 8, 32
  // continue: one run of 128.
  const Layout nhwc{{0, 2, 3, 1}, std::nullopt};
  auto c = layout::copy_runs(kRowMajor, nhwc, {1, 8, 4, 4}, true);
  ASSERT_TRUE(c);
  expect(c->read, 128, 1, {8, 16}, "NCHW read");
  expect(c->write, 1, 128, {}, "NHWC write");
  // [2, 3, 4] into (2,0,1), walking the target: axis 1 (3; source 4), axis 0 (2; 12), axis 2 (4;
  // 1). Read: runs of 1; axes 1 and 0 merge (12 = 4 x 3) into 6, then 4 (1 is not 4 x 6): 24
  // runs over [6, 4], 4 descriptors with one stride.
  c = layout::copy_runs(kRowMajor, Layout{{2, 0, 1}, std::nullopt}, {2, 3, 4}, true);
  ASSERT_TRUE(c);
  expect(c->read, 24, 1, {6, 4}, "merged read");
  EXPECT_EQ(c->read.descriptors(1), 4);
  // [4, 3, 8] into (1,0,2): axis 2 stays innermost in both, so the runs are its 8 elements;
  // axis 0 (4; source 24, target 8), axis 1 (3; 8, 32) repeat them: 12 runs.
  c = layout::copy_runs(kRowMajor, Layout{{1, 0, 2}, std::nullopt}, {4, 3, 8}, true);
  ASSERT_TRUE(c);
  expect(c->read, 12, 8, {4, 3}, "common innermost axis");
  expect(c->write, 1, 96, {}, "common innermost axis, write");
}

TEST(LayoutCopy, NestedBlocksSplitAnAxisThreeWays) {
  // [2, 16] from (0,1,1:8) into (1,0,1:4): axis 1 is cut into [2, 2, 4] (16 / 8, 8 / 4, 4).
  // Source strides: the 4-part 1, the middle 2-part 4, the outer 2-part 8, axis 0 16. Target
  // (blocks of 4 = the outer two parts, axis 0, the 4-part): strides 16, 8, 4, 1. Walking the
  // target innermost first: 4-part (4; 1, 1), axis 0 (2; 16, 4), middle (2; 4, 8), outer (2; 8,
  // 16). Read: runs of 4, then axis 0 alone (4 is not 16 x 2), the middle and outer parts merge
  // (8 = 4 x 2): 8 runs over [2, 4]. Write: one run of 32.
  const auto c = layout::copy_runs(Layout{{0, 1, 1}, AxisBlock{1, 8}}, Layout{{1, 0, 1}, AxisBlock{1, 4}}, {2, 16}, true);
  ASSERT_TRUE(c);
  expect(c->read, 8, 4, {2, 4}, "read");
  expect(c->write, 1, 32, {}, "write");
}

TEST(LayoutCopy, BlocksThatDoNotNestAndLayoutsThatDoNotFit) {
  // Blocks of 6 and 4 on one axis of 12: neither divides the other.
  EXPECT_FALSE(layout::copy_runs(Layout{{0, 1, 1}, AxisBlock{1, 4}}, Layout{{0, 1, 1}, AxisBlock{1, 6}}, {2, 12}, true));
  EXPECT_THROW((void)layout::copy_runs(kRowMajor, Layout{{0, 1, 1}, AxisBlock{1, 5}}, {2, 12}, true), Error);
}
