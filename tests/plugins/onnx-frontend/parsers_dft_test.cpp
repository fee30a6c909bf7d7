// DFT (parsers_dft.cpp) and its opset-20 shape rule (own_shape_rules.cpp): loops and shapes derived
// by hand.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// Opset 17 (libonnx's rule), axis 1 of a real (2, 8, 1) signal: Y (2, 8, 2); loops (b, k, out
// component, n, in component) = (2, 8, 2, 8, 1), 256 points, the last two reductions.
TEST(Dft, EveryFrequencyReadsEverySample) {
  ModelBuilder m("g", 17);
  m.input("X", F32, {2, 8, 1}).output("Y", F32);
  m.node("DFT", {"X"}, {"Y"}, "dft").attr("axis", 1);
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{2, 8, 2}));
  EXPECT_EQ(sizes(node(w, "dft")), (std::vector<std::int64_t>{2, 8, 2, 8, 1}));
  EXPECT_EQ(kinds(node(w, "dft")), "PPPRR");
}

// Opset 20: the axis is an input; onesided keeps 10/2 + 1 = 6 frequencies.
TEST(Dft, Opset20TakesItsAxisAsAnInputAndOnesidedHalvesTheSpectrum) {
  ModelBuilder m("g", 20);
  m.input("X", F32, {1, 10, 3, 1}).int_initializer("axis", {1}, false).output("Y", F32);
  m.node("DFT", {"X", "", "axis"}, {"Y"}, "dft").attr("onesided", 1);
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{1, 6, 3, 2}));
  EXPECT_EQ(sizes(node(w, "dft")), (std::vector<std::int64_t>{1, 6, 3, 2, 10, 1}));
}

TEST(Dft, AnAxisThatIsNotAConstantIsAnError) {
  ModelBuilder m("g", 20);
  m.input("X", F32, {1, 10, 3, 1}).input("axis", I64, {}).output("Y", F32, {1, 10, 3, 2}, true);
  m.node("DFT", {"X", "", "axis"}, {"Y"}, "dft");
  expect_error([&] { parse(m); }, {"dft", "axis must be a constant one-element integer tensor"});
}

}  // namespace
