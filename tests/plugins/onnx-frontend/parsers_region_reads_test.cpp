// RoiAlign and ReverseSequence (parsers_region_reads.cpp) against hand-derived shapes and loops.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// 3 rois over (1, 2, 10, 10), 5x5 bins, sampling_ratio 2: Y (3, 2, 5, 5); loops (r, c, oy, ox,
// sy, sx, q) = (3, 2, 5, 5, 2, 2, 4): 4 samples per bin, 4 corners each.
TEST(RegionReads, RoiAlignSamplesEachBin) {
  ModelBuilder m("g", 16);
  m.input("X", F32, {1, 2, 10, 10}).input("rois", F32, {3, 4}).input("bi", I64, {3}).output("Y", F32);
  m.node("RoiAlign", {"X", "rois", "bi"}, {"Y"}, "ra").attr("output_height", 5).attr("output_width", 5).attr("sampling_ratio", 2);
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{3, 2, 5, 5}));
  const auto& n = node(w, "ra");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{3, 2, 5, 5, 2, 2, 4}));
  EXPECT_EQ(kinds(n), "PPPPRRR");
  EXPECT_EQ(access_relation(n, 0).index_tensor, "rois");
}

TEST(RegionReads, RoiAlignAdaptiveSamplingIsAnError) {
  ModelBuilder m("g", 16);
  m.input("X", F32, {1, 2, 10, 10}).input("rois", F32, {3, 4}).input("bi", I64, {3}).output("Y", F32);
  m.node("RoiAlign", {"X", "rois", "bi"}, {"Y"}, "ra");
  expect_error([&] { parse(m); }, {"ra", "sampling_ratio 0 is not supported"});
}

// (5 steps, 3 sequences, 2): each output element reads its mirrored step, routed by the lengths.
TEST(RegionReads, ReverseSequenceReadsTheMirroredStep) {
  ModelBuilder m("g", 10);
  m.input("X", F32, {5, 3, 2}).input("lens", I64, {3}).output("Y", F32);
  m.node("ReverseSequence", {"X", "lens"}, {"Y"}, "rs").attr("time_axis", 0).attr("batch_axis", 1);
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{5, 3, 2}));
  EXPECT_EQ(map_of(node(w, "rs"), 0), "(0, d1, d2)");
  EXPECT_EQ(access_relation(node(w, "rs"), 0).kind, AccessKind::DataDependent);
}

}  // namespace
