// cost::explain_fallback (cost/fallback_reason.hpp): the per-core model's reasons (the
// reference's exception names) become sentences about the node and the core, and the model's own
// text is kept as the detail. The reasons come from the model itself (cost::estimate) on a small
// core, so a change of the model's wording shows here.
#include <gtest/gtest.h>

#include <string>

#include "stream/cost/cost_model.hpp"
#include "stream/cost/fallback_reason.hpp"
#include "stream/hardware/core_reader.hpp"

#include "expect_diagnostic.hpp"

using namespace stream;
using namespace stream::cost;
using stream::test::replace;

namespace {

// An 8x8 array whose output register holds 16 bits, over one SRAM; every direction allocated.
const std::string kCore =
    "name: c\n"
    "type: zigzag.compute\n"
    "memories:\n"
    "  rf_o:\n"
    "    size: 16\n"
    "    r_cost: 0.1\n"
    "    w_cost: 0.1\n"
    "    area: 0\n"
    "    latency: 1\n"
    "    operands: [O]\n"
    "    ports:\n"
    "      - {name: r_port_1, type: read, bandwidth_min: 16, bandwidth_max: 16, allocation: ['O, tl', 'O, th']}\n"
    "      - {name: w_port_1, type: write, bandwidth_min: 16, bandwidth_max: 16, allocation: ['O, fh', 'O, fl']}\n"
    "    served_dimensions: [D2]\n"
    "  sram:\n"
    "    size: 8388608\n"
    "    r_cost: 100\n"
    "    w_cost: 100\n"
    "    area: 0\n"
    "    latency: 1\n"
    "    operands: [I1, I2, O]\n"
    "    ports:\n"
    "      - {name: r_port_1, type: read, bandwidth_min: 64, bandwidth_max: 1024,\n"
    "         allocation: ['I1, tl', 'I2, tl', 'O, tl', 'O, th']}\n"
    "      - {name: w_port_1, type: write, bandwidth_min: 64, bandwidth_max: 1024,\n"
    "         allocation: ['I1, fh', 'I2, fh', 'O, fh', 'O, fl']}\n"
    "    served_dimensions: [D1, D2]\n"
    "operational_array:\n"
    "  dimensions: [D1, D2]\n"
    "  sizes: [8, 8]\n"
    "  unit_energy: 0.04\n"
    "  unit_area: 1\n";

CoreModel model(const std::string& text = kCore) { return CoreModel::from_core(hardware::parse_core_text(text, "c.yaml")); }

AxisExpr plain(int d) { return AxisExpr{{{d, 1}}, 0, 0}; }

// Y[m, n] = A[m, k] B[k, n] at `bits` per element: dims m, n, k.
Tile gemm(int bits) {
  Tile t{"g", "Gemm", {{"m", 16}, {"n", 16}, {"k", 16}}, {}};
  t.operands.push_back({"O", bits, {16, 16}, {plain(0), plain(1)}});
  t.operands.push_back({"A", bits, {16, 16}, {plain(0), plain(2)}});
  t.operands.push_back({"B", bits, {16, 16}, {plain(2), plain(1)}});
  return t;
}

// Y[m, n] = relu(X[m, n]): one input.
Tile relu() {
  Tile t{"r", "Relu", {{"m", 16}, {"n", 16}}, {}};
  t.operands.push_back({"O", 8, {16, 16}, {plain(0), plain(1)}});
  t.operands.push_back({"A", 8, {16, 16}, {plain(0), plain(1)}});
  return t;
}

FallbackReason explained(const Tile& t, const CoreModel& m) {
  const CoreCost c = estimate(t, m);
  EXPECT_EQ(c.status, CostStatus::Fallback) << c.reason;
  return explain_fallback(c.reason, t, &m);
}

}  // namespace

TEST(FallbackReason, OneInputOperatorOnATwoInputArray) {
  const auto m = model();
  const auto r = explained(relu(), m);
  EXPECT_EQ(r.detail, "KeyError: I2");
  EXPECT_EQ(r.reason,
            "one-input operator on a two-input array: the per-core model needs a tensor for every operand the core's "
            "memories serve");
}

TEST(FallbackReason, OutputWiderThanItsRegisterNamesTheRegister) {
  // 32-bit partial sums cannot sit in the 16-bit rf_o; at 8 bits the same Gemm is costed.
  const auto m = model();
  EXPECT_EQ(estimate(gemm(8), m).status, CostStatus::Ok);
  const auto r = explained(gemm(32), m);
  EXPECT_EQ(r.reason,
            "no loop ordering fits: memory 'rf_o' holds 16 bits, less than one 32-bit element of the output (the "
            "hardware is sized for narrower types: try --cast)");
  EXPECT_EQ(r.detail.rfind("NoValidLoopOrderingFoundException", 0), 0u) << r.detail;
  EXPECT_NE(r.detail.find("(operand widths in bits: O 32, A 32, B 32)"), std::string::npos) << r.detail;
}

TEST(FallbackReason, MissingPortNamesTheMemoryAndTheTag) {
  // rf_o cannot send partial sums back to the MACs: the model moves them there in a Gemm whose
  // reduction (k = 16) does not fit the 8 MACs of D1 at once.
  const auto m = model(replace(kCore, "allocation: ['O, tl', 'O, th']", "allocation: ['O, th']"));
  const auto r = explained(gemm(8), m);
  EXPECT_EQ(r.detail, "no port for RD_OUT_TO_LOW of operand O at memory level 0");
  EXPECT_EQ(r.reason,
            "memory level 0 of operand O (rf_o) has no port allocated for reads towards lower levels ('O, tl'); add the "
            "tag to the `allocation` of its ports");
}

TEST(FallbackReason, ThreeInputOperatorIsTooManyOperands) {
  Tile t = gemm(8);
  t.op_type = "Where";
  t.operands.push_back(t.operands.back());
  t.operands.back().role = "C";
  const auto m = model();
  const auto r = explained(t, m);
  EXPECT_EQ(r.detail, "AssertionError");
  EXPECT_EQ(r.reason, "three-input operator: the per-core model costs at most two inputs and one output");
}

TEST(FallbackReason, ASentenceAlreadyInWordsIsKept) {
  const auto m = model();
  const auto r = explain_fallback("the node has several outputs; the per-core model costs one", relu(), &m);
  EXPECT_EQ(r.reason, "the node has several outputs; the per-core model costs one");
  EXPECT_EQ(r.detail, r.reason);
}
