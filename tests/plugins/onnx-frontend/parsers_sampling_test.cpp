// GridSample, AffineGrid and CenterCropPad (parsers_sampling.cpp) against hand-derived shapes,
// loop sizes and maps.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// (1, 3, 5, 5) sampled at a (1, 4, 6, 2) grid, opset 20 (the N-D schema, our shape rule):
// Y (1, 3, 4, 6); loops (n, c, o0, o1, f0, f1) with a 2x2 linear window, 4 reads per output.
TEST(Sampling, GridSampleReadsAWindowPerOutputPoint) {
  ModelBuilder m("g", 20);
  m.input("X", F32, {1, 3, 5, 5}).input("G", F32, {1, 4, 6, 2}).output("Y", F32);
  m.node("GridSample", {"X", "G"}, {"Y"}, "gs");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{1, 3, 4, 6}));
  const auto& n = node(w, "gs");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 3, 4, 6, 2, 2}));
  EXPECT_EQ(kinds(n), "PPPPRR");
  EXPECT_EQ(access_relation(n, 0).kind, AccessKind::DataDependent);
  EXPECT_EQ(access_relation(n, 1).pieces.size(), 2u);  // both coordinates of each grid point
}

TEST(Sampling, GridSampleCubicHasAFourWideWindow) {
  ModelBuilder m("g", 20);
  m.input("X", F32, {1, 1, 4, 4}).input("G", F32, {1, 2, 2, 2}).output("Y", F32);
  m.node("GridSample", {"X", "G"}, {"Y"}, "gs").attr("mode", "cubic");
  auto w = parse(m);
  EXPECT_EQ(sizes(node(w, "gs")), (std::vector<std::int64_t>{1, 1, 2, 2, 4, 4}));
}

// theta (2, 2, 3), size (2, 1, 4, 5): grid (2, 4, 5, 2), loops (n, h, w, i, j) = (2, 4, 5, 2, 3).
TEST(Sampling, AffineGridContractsThetaWithHomogeneousCoordinates) {
  ModelBuilder m("g", 20);
  m.input("theta", F32, {2, 2, 3}).int_initializer("size", {2, 1, 4, 5}).output("grid", F32);
  m.node("AffineGrid", {"theta", "size"}, {"grid"}, "ag");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "grid"), (std::vector<std::int64_t>{2, 4, 5, 2}));
  EXPECT_EQ(sizes(node(w, "ag")), (std::vector<std::int64_t>{2, 4, 5, 2, 3}));
  EXPECT_EQ(kinds(node(w, "ag")), "PPPPR");
}

// (4, 6) to (2, 8): axis 0 cropped from offset 1, axis 1 padded by 1 before (a masked read).
TEST(Sampling, CenterCropPadCropsAndPadsSymmetrically) {
  ModelBuilder m("g", 18);
  m.input("X", F32, {4, 6}).int_initializer("shape", {2, 8}).output("Y", F32);
  m.node("CenterCropPad", {"X", "shape"}, {"Y"}, "ccp");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{2, 8}));
  const auto& n = node(w, "ccp");
  EXPECT_EQ(map_of(n, 0), "((d0 + 1), (d1 + -1))");
  EXPECT_EQ(access_relation(n, 0).kind, AccessKind::PiecewiseAffine);
}

}  // namespace
