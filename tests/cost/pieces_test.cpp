// Unit tests of the cost model's pieces on small hand-derived cases and on the figures the
// specification quotes from ZigZag's own tests.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "stream/cost/evaluation.hpp"
#include "stream/cost/layer.hpp"
#include "stream/cost/loop_factors.hpp"
#include "stream/cost/memory_allocator.hpp"
#include "stream/cost/spatial_mapping.hpp"
#include "stream/hardware/core_reader.hpp"

namespace {

using namespace stream::cost;

AxisExpr plain(int d) { return AxisExpr{{{d, 1}}, 0}; }
AxisExpr window(int a, std::int64_t ca, int b, std::int64_t cb, std::int64_t c) { return AxisExpr{{{a, ca}, {b, cb}}, c}; }

// conv tile: dims b, ox, oy, fx, fy, c, k (D0..D6) as Stream orders them.
Tile conv_tile(std::int64_t ox, std::int64_t oy, std::int64_t f, std::int64_t c, std::int64_t k, std::int64_t stride,
               std::int64_t pad, std::int64_t in) {
  Tile t;
  t.op_type = "Conv";
  t.dims = {{"b", 1}, {"ox", ox}, {"oy", oy}, {"fx", f}, {"fy", f}, {"c", c}, {"k", k}};
  t.operands.push_back({"O", 16, {1, k, oy, ox}, {plain(0), plain(6), plain(2), plain(1)}});
  t.operands.push_back({"A", 16, {1, c, in, in}, {plain(0), plain(5), window(2, stride, 4, 1, -pad), window(1, stride, 3, 1, -pad)}});
  t.operands.push_back({"B", 16, {k, c, f, f}, {plain(6), plain(5), plain(4), plain(3)}});
  return t;
}

TEST(Layer, WindowAxesBecomePrDimsWithClippedExtent) {
  // FORMAT.md's example: ox = 8, fx = 3, pad 1, logical 32 -> indices -1..8 clipped to 0..8 = 9.
  const Layer l = Layer::from_tile(conv_tile(8, 32, 3, 8, 16, 1, 1, 32));
  ASSERT_EQ(l.n_pr, 2);
  EXPECT_EQ(l.pr[1].full_size, 9);   // the ox window (second window axis of A)
  EXPECT_EQ(l.pr[0].full_size, 32);  // oy = 32: -1..32 clipped to 0..31
  EXPECT_EQ(l.pr[0].padding, 1);
  // Input A: r = {b, c} (no size-1 filter for a pr operand), ir = {k}; ox/oy/fx/fy neither.
  EXPECT_EQ(l.operands[1].r, bit(0) | bit(5));
  EXPECT_EQ(l.operands[1].ir, bit(6));
  // Output: r = {k, oy, ox} (b has size 1), ir = {fx, fy, c}.
  EXPECT_EQ(l.operands[0].r, bit(6) | bit(2) | bit(1));
  EXPECT_EQ(l.operands[0].ir, bit(3) | bit(4) | bit(5));
  EXPECT_EQ(l.macs, 8 * 32 * 9 * 8 * 16);
}

TEST(Layer, StrideTwoWindowExtent) {
  // 2*ox + fx - 1 with ox = 4, fx = 3 covers -1..7; clipped to 0..7 of an 8-wide input: 8.
  const Layer l = Layer::from_tile(conv_tile(4, 4, 3, 2, 2, 2, 1, 8));
  EXPECT_EQ(l.pr[1].full_size, 8);
}

TEST(Layer, PrSizeFormula) {
  Tile t = conv_tile(8, 8, 3, 2, 2, 2, 0, 1000);
  Layer l = Layer::from_tile(t);
  // stride 2: A*B - max(0, B - 2) * (A - 1) = 2*(A-1) + B
  EXPECT_EQ(l.pr_size(0, 3, 3), 7.0);
  EXPECT_EQ(l.pr_size(0, 1, 3), 3.0);
  // Source products are truncated before the formula (fractional spatial unrolling).
  EXPECT_EQ(l.pr_size(0, 3.5, 3), 7.0);
  // Clipped to the full size.
  l.pr[0].full_size = 5;
  EXPECT_EQ(l.pr_size(0, 3, 3), 5.0);
  // Dilation 2 (ox + 2*fx): A + 2*(B-1).
  Tile d = conv_tile(5, 5, 3, 2, 2, 1, 0, 1000);
  d.operands[1].axes[3] = window(1, 1, 3, 2, 0);
  const Layer ld = Layer::from_tile(d);
  EXPECT_EQ(ld.pr_size(1, 5, 3), 9.0);
}

TEST(Layer, UnsupportedAxisFormsAreStreamErrors) {
  Tile t = conv_tile(4, 4, 3, 2, 2, 1, 1, 8);
  t.operands[2].axes[0] = AxisExpr{{}, 0};  // broadcast: constant only
  EXPECT_THROW(Layer::from_tile(t), StreamLayerError);
  t = conv_tile(4, 4, 3, 2, 2, 1, 1, 8);
  t.operands[2].axes[0] = AxisExpr{{{6, 2}}, 0};  // single term with coefficient 2
  EXPECT_THROW(Layer::from_tile(t), StreamLayerError);
  t = conv_tile(4, 4, 3, 2, 2, 1, 1, 8);
  t.operands[1].axes[2] = window(2, 1, 4, 1, 1);  // positive constant
  EXPECT_THROW(Layer::from_tile(t), StreamLayerError);
  t = conv_tile(4, 4, 3, 2, 2, 1, 1, 8);
  t.operands[1].axes[1] = AxisExpr{{{5, 1}}, 3};  // d + const is the plain dim
  EXPECT_NO_THROW(Layer::from_tile(t));
}

std::vector<std::pair<int, std::int64_t>> as_pairs(const std::vector<TemporalLoop>& v) {
  std::vector<std::pair<int, std::int64_t>> out;
  for (const auto& l : v) out.emplace_back(l.dim, l.size);
  return out;
}

TEST(LoopPrimeFactors, SpecExamplesFromTpuResnet18) {
  // Layer 2: K2 C2 OY56 OX56 FY3 FX3 (dims numbered in layer order 0..5).
  const std::vector<TemporalLoop> l2 = {{0, 2}, {1, 2}, {2, 56}, {3, 56}, {4, 3}, {5, 3}};
  const auto f6 = loop_prime_factors(l2, 6);
  EXPECT_EQ(as_pairs(f6), (std::vector<std::pair<int, std::int64_t>>{{0, 2}, {1, 2}, {2, 56}, {3, 56}, {4, 3}, {5, 3}}));
  EXPECT_EQ(ordering_count(f6), 720u);
  const auto f8 = loop_prime_factors(l2, 8);
  EXPECT_EQ(as_pairs(f8),
            (std::vector<std::pair<int, std::int64_t>>{{0, 2}, {1, 2}, {2, 7}, {2, 8}, {3, 7}, {3, 8}, {4, 3}, {5, 3}}));
  EXPECT_EQ(ordering_count(f8), 40320u);
  // Layer 0: K2 OY112 OX112 FY7 FX7: OY and OX tie at every step, OY (first) wins.
  const std::vector<TemporalLoop> l0 = {{0, 2}, {1, 112}, {2, 112}, {3, 7}, {4, 7}};
  EXPECT_EQ(as_pairs(loop_prime_factors(l0, 6)),
            (std::vector<std::pair<int, std::int64_t>>{{0, 2}, {1, 112}, {2, 7}, {2, 16}, {3, 7}, {4, 7}}));
  const auto l0_8 = loop_prime_factors(l0, 8);
  EXPECT_EQ(ordering_count(l0_8), 20160u);  // 8!/2!
}

TEST(LoopPrimeFactors, LimitIsRaisedToTheNumberOfDims) {
  const std::vector<TemporalLoop> loops = {{0, 4}, {1, 4}, {2, 4}, {3, 4}};
  const auto f = loop_prime_factors(loops, 2);  // raised to 4: each dim keeps one factor
  EXPECT_EQ(as_pairs(f), (std::vector<std::pair<int, std::int64_t>>{{0, 4}, {1, 4}, {2, 4}, {3, 4}}));
  EXPECT_EQ(as_pairs(loop_prime_factors({}, 6)), (std::vector<std::pair<int, std::int64_t>>{{0, 1}}));
}

TEST(MultisetPermutations, VisitsEveryDistinctOrderingOnce) {
  const std::vector<TemporalLoop> lpfs = {{0, 2}, {0, 2}, {1, 3}, {2, 5}};
  MultisetPermutations p(lpfs);
  std::set<std::vector<std::pair<int, std::int64_t>>> seen;
  std::size_t n = 0;
  do {
    seen.insert(as_pairs(p.current()));
    ++n;
  } while (p.next());
  EXPECT_EQ(n, 12u);  // 4!/2!
  EXPECT_EQ(seen.size(), 12u);
  EXPECT_EQ(ordering_count(lpfs), 12u);
}

TEST(ReduceBalanced, TakesFromTheLargestFirst) {
  std::vector<int> order;
  std::vector<double> c = {4, 10};
  reduce_balanced(c, {1, 2}, 5, order);  // the largest (10, min 2) absorbs all 5
  EXPECT_EQ(c, (std::vector<double>{4, 5}));
  c = {4, 10};
  reduce_balanced(c, {1, 2}, 0, order);  // no surplus: unchanged
  EXPECT_EQ(c, (std::vector<double>{4, 10}));
  c = {6, 6};
  reduce_balanced(c, {2, 2}, 2, order);  // tie: stable order, the first takes 2
  EXPECT_EQ(c, (std::vector<double>{4, 6}));
}

TEST(SpatialMapping, HintOrderMatchesTheTabulatedCPythonSetOrder) {
  std::ifstream in(std::filesystem::path(STREAM_SHARED_DIR) / "reference/oracle/hint_set_order.json");
  ASSERT_TRUE(in);
  const auto j = nlohmann::json::parse(in);
  for (const auto& [n, names] : j["set_iteration_order_by_num_dims"].items()) {
    std::vector<int> expected;
    for (const auto& s : names) expected.push_back(std::stoi(s.get<std::string>().substr(1)));
    EXPECT_EQ(hint_set_order(std::stoi(n)), expected) << n << " dims";
  }
}

// ZigZag's test_gemm_l1 (spec section 3.14): fixed spatial mapping D1: D0 8, D2: D2 8, D3: D1 8,
// fixed temporal ordering D1 16, D2 16, D0 16 (innermost first); expected 511349.76 pJ, 8191 cc.
const char* kGemmL1 = R"(
name: gemm_l1
memories:
  reg_O:
    size: 32
    r_cost: 0.02
    w_cost: 0.02
    area: 0
    latency: 1
    operands: [O]
    ports:
      - {name: w_port_1, type: write, bandwidth_min: 32, bandwidth_max: 32, allocation: ["O, fh"]}
      - {name: r_port_1, type: read, bandwidth_min: 32, bandwidth_max: 32, allocation: ["O, tl"]}
      - {name: w_port_2, type: write, bandwidth_min: 32, bandwidth_max: 32, allocation: ["O, fl"]}
      - {name: r_port_2, type: read, bandwidth_min: 32, bandwidth_max: 32, allocation: ["O, th"]}
    served_dimensions: [D2]
  l1:
    size: 4194304
    r_cost: 22.9
    w_cost: 52.01
    area: 0
    latency: 1
    operands: [I1, I2, O]
    ports:
      - {name: rw_port_1, type: read_write, bandwidth_min: 64, bandwidth_max: 512, allocation: ["I1, tl"]}
      - {name: rw_port_2, type: read_write, bandwidth_min: 64, bandwidth_max: 512, allocation: ["I2, tl"]}
      - {name: rw_port_3, type: read_write, bandwidth_min: 64, bandwidth_max: 2048, allocation: ["O, tl", "O, fl"]}
    served_dimensions: [D1, D2, D3]
operational_array:
  unit_energy: 0.04
  unit_area: 1
  dimensions: [D1, D2, D3]
  sizes: [8, 8, 8]
)";

TEST(Evaluation, GemmL1WorkedExample) {
  const CoreModel core = CoreModel::from_core(stream::hardware::parse_core_text(kGemmL1, "gemm_l1.yaml"));
  Tile t;
  t.op_type = "Gemm";
  t.dims = {{"d0", 128}, {"d1", 128}, {"d2", 128}};
  t.operands.push_back({"O", 32, {128, 128}, {plain(0), plain(1)}});
  t.operands.push_back({"A", 8, {128, 128}, {plain(0), plain(2)}});
  t.operands.push_back({"B", 8, {128, 128}, {plain(2), plain(1)}});
  Layer layer = Layer::from_tile(t);
  layer.precision_out_final = 8;  // O = 32-bit partial sums, O_final = 8
  const std::vector<int> links = {kO, kI1, kI2};
  SpatialMapping sm;
  sm.per_oa = {{{0, 8}}, {{2, 8}}, {{1, 8}}};
  std::vector<OperandSpatial> frac, integer;
  for (int op = 0; op < 3; ++op) {
    frac.push_back(convert_spatial_mapping(layer, core, sm, op, links[static_cast<std::size_t>(op)], false));
    integer.push_back(convert_spatial_mapping(layer, core, sm, op, links[static_cast<std::size_t>(op)], true));
  }
  const std::vector<TemporalLoop> ordering = {{1, 16}, {2, 16}, {0, 16}};
  MemoryAllocator alloc(layer, core, links, frac);
  Allocation a;
  ASSERT_TRUE(alloc.allocate(ordering, a));
  // reg_O holds one 32-bit element: every temporal loop lands in l1.
  EXPECT_EQ(std::vector<int>(a.bounds[0].begin(), a.bounds[0].end()), (std::vector<int>{0, 0, 3}));
  Evaluator ev(layer, core, links, frac, integer, 1);
  MappingCost cost;
  ev.evaluate(ordering, a, cost, true);
  EXPECT_EQ(cost.accesses[1][0][kTL], 256);     // I at l1
  EXPECT_EQ(cost.accesses[2][0][kTL], 4096);    // W at l1
  for (int d = 0; d < kNumDirs; ++d) EXPECT_EQ(cost.accesses[0][0][static_cast<std::size_t>(d)], 262144) << d;
  EXPECT_EQ(cost.accesses[0][1][kTL], 4096);
  EXPECT_EQ(cost.accesses[0][1][kFL], 4096);
  EXPECT_NEAR(cost.mac_energy, 83886.08, 1e-6);
  EXPECT_NEAR(cost.energy_total, 511349.76, 511349.76 * 1e-12);
  EXPECT_EQ(cost.ideal_temporal_cycle, 4096);
  EXPECT_EQ(cost.stall_slack_comb, 4094);
  EXPECT_EQ(cost.onloading, 0);
  EXPECT_EQ(cost.offloading, 1);
  EXPECT_EQ(cost.latency_total2, 8191);
}

}  // namespace
