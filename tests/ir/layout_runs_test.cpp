// Contiguous runs of a box under a layout (ir/layout_runs.hpp), every figure derived by hand from
// the memory order: walk the memory dims from the innermost, take the fully covered ones and the
// first partly covered one into the run, and repeat it over the box's extents further out.
#include <gtest/gtest.h>

#include <stream/error.hpp>
#include <stream/ir/layout_runs.hpp>

using namespace stream;

namespace {
const Layout kRowMajor{};
const Layout kColumnMajor{{1, 0}, std::nullopt};
const Layout kNhwc{{0, 2, 3, 1}, std::nullopt};
const Layout kNchw4c{{0, 1, 2, 3, 1}, AxisBlock{1, 4}};
const std::vector<std::int64_t> kMatrix{4, 6};
const std::vector<std::int64_t> kImage{1, 8, 4, 4};  // N, C, H, W

struct Figures {
  std::int64_t runs, run, elements;
};
Figures figures(const RunCount& r) { return {r.runs(), r.longest_run(), r.elements()}; }
void expect(const RunCount& r, Figures want, const char* what) {
  const auto got = figures(r);
  EXPECT_EQ(got.runs, want.runs) << what;
  EXPECT_EQ(got.run, want.run) << what;
  EXPECT_EQ(got.elements, want.elements) << what;
}
}  // namespace

TEST(LayoutRuns, AWholeRowMajorTensorIsOneRun) {
  expect(count_runs(kRowMajor, kMatrix, {4, 6}), {1, 24, 24}, "4x6");
  expect(count_runs(kNhwc, kImage, {1, 8, 4, 4}), {1, 128, 128}, "NHWC whole");
  expect(count_runs(kNchw4c, kImage, {1, 8, 4, 4}), {1, 128, 128}, "NCHW4c whole");
  // Rank 0: one element.
  expect(count_runs(kRowMajor, {}, std::vector<std::int64_t>{}), {1, 1, 1}, "scalar");
}

TEST(LayoutRuns, RowsAreOneRunAColumnIsOneRunPerRow) {
  // Rows 1..2 of a row-major 4x6: 12 consecutive elements.
  expect(count_runs(kRowMajor, kMatrix, std::vector<AxisRange>{{1, 3}, {0, 6}}), {1, 12, 12}, "rows");
  // Column 2: one element per row, 4 runs of 1; stored column-major it is one run of 4.
  expect(count_runs(kRowMajor, kMatrix, std::vector<AxisRange>{{0, 4}, {2, 3}}), {4, 1, 4}, "column, row-major");
  expect(count_runs(kColumnMajor, kMatrix, std::vector<AxisRange>{{0, 4}, {2, 3}}), {1, 4, 4}, "column, column-major");
  // A 2x3 sub-block: 2 runs of 3 row-major, 3 runs of 2 column-major.
  expect(count_runs(kRowMajor, kMatrix, std::vector<AxisRange>{{1, 3}, {3, 6}}), {2, 3, 6}, "block, row-major");
  expect(count_runs(kColumnMajor, kMatrix, std::vector<AxisRange>{{1, 3}, {3, 6}}), {3, 2, 6}, "block, column-major");
}

TEST(LayoutRuns, NchwAndNhwcBoxes) {
  // Channels 0..3, whole image: NCHW keeps them together (4 channels x 16 pixels = 1 run of 64);
  // NHWC interleaves channels innermost: 4 of every 8 channels per pixel, 16 runs of 4.
  expect(count_runs(kRowMajor, kImage, {1, 4, 4, 4}), {1, 64, 64}, "channel slice NCHW");
  expect(count_runs(kNhwc, kImage, {1, 4, 4, 4}), {16, 4, 64}, "channel slice NHWC");
  // Rows 0..1, every channel: NCHW is one run of 2x4 pixels per channel (8 runs of 8); NHWC has
  // the two rows' pixels and all their channels together (1 run of 64).
  expect(count_runs(kRowMajor, kImage, {1, 8, 2, 4}), {8, 8, 64}, "row slice NCHW");
  expect(count_runs(kNhwc, kImage, {1, 8, 2, 4}), {1, 64, 64}, "row slice NHWC");
  // The offset does not change the counts of an unblocked layout.
  expect(count_runs(kNhwc, kImage, std::vector<AxisRange>{{0, 1}, {4, 8}, {2, 4}, {0, 4}}), {8, 4, 32}, "offset NHWC");
}

TEST(LayoutRuns, BlockedChannels) {
  // NCHW4c of [1, 8, 4, 4]: memory dims N 1, C/4 2, H 4, W 4, c 4.
  // Channels 0..3 are the first block: c, W, H whole, one block: 1 run of 64.
  expect(count_runs(kNchw4c, kImage, {1, 4, 4, 4}), {1, 64, 64}, "one block");
  // Channels 0..1: half of c, then W and H repeat it: 16 runs of 2.
  expect(count_runs(kNchw4c, kImage, {1, 2, 4, 4}), {16, 2, 32}, "half a block");
  // Channels 2..5 straddle the blocks: [2, 4) of block 0 and [0, 2) of block 1, each 16 runs of 2.
  const auto straddle = count_runs(kNchw4c, kImage, std::vector<AxisRange>{{0, 1}, {2, 6}, {0, 4}, {0, 4}});
  expect(straddle, {32, 2, 64}, "straddling");
  EXPECT_EQ(straddle.pieces.size(), 2u);
  // Channels 2..7: the partial first block (16 runs of 2), then block 1 whole (1 run of 64).
  expect(count_runs(kNchw4c, kImage, std::vector<AxisRange>{{0, 1}, {2, 8}, {0, 4}, {0, 4}}), {17, 64, 96},
         "partial then whole");
}

TEST(LayoutRuns, DescriptorsAndBursts) {
  // NHWC channel slice: 16 runs of 4 repeated over W (4) then H (4).
  const auto r = count_runs(kNhwc, kImage, {1, 4, 4, 4});
  ASSERT_EQ(r.pieces.size(), 1u);
  EXPECT_EQ(r.pieces[0].outer, (std::vector<std::int64_t>{4, 4}));
  EXPECT_EQ(r.descriptors(0), 16);  // one descriptor per run
  EXPECT_EQ(r.descriptors(1), 4);   // one per row of W
  EXPECT_EQ(r.descriptors(2), 1);   // one for the whole box
  EXPECT_EQ(r.descriptors(5), 1);
  // bf16 runs of 4 are 64 bits: one 256-bit burst each (16), two 32-bit bursts each (32).
  EXPECT_EQ(r.bursts(16, 256), 16);
  EXPECT_EQ(r.bursts(16, 32), 32);
  // One run of 128 bf16 = 2048 bits = 8 bursts of 256.
  EXPECT_EQ(count_runs(kRowMajor, kImage, {1, 8, 4, 4}).bursts(16, 256), 8);
}

TEST(LayoutRuns, EmptyAndInvalidBoxes) {
  const auto empty = count_runs(kRowMajor, kMatrix, {0, 6});
  EXPECT_EQ(empty.runs(), 0);
  EXPECT_EQ(empty.longest_run(), 0);
  EXPECT_EQ(empty.descriptors(0), 0);
  EXPECT_THROW((void)count_runs(kRowMajor, kMatrix, std::vector<std::int64_t>{4}), Error);        // rank
  EXPECT_THROW((void)count_runs(kRowMajor, kMatrix, {5, 6}), Error);     // leaves the shape
  EXPECT_THROW((void)count_runs(kRowMajor, kMatrix, std::vector<AxisRange>{{3, 1}, {0, 6}}), Error);  // reversed
  EXPECT_THROW((void)count_runs(kNchw4c, {1, 6, 4, 4}, {1, 6, 4, 4}), Error);  // 4 does not divide 6
}
