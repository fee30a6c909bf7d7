// The alternatives' costs of layouts.yaml (layout/prices.hpp), derived by hand: X [16, 32]
// bf16 -> Relu -> Y, 8 columns per iteration (4 iterations), on tpu_like_quad_core whose off-chip
// bus has dma {burst_bits 256, setup_cycles 10}; and `stream run` writing the file only where a
// DMA model is declared.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/layout/prices.hpp>
#include <stream/schedule/steady_state.hpp>
#include <stream/tiling/tiled_group.hpp>

#include "dma_hardware.hpp"
#include "relu_group.hpp"
#include "stream_cli.hpp"

namespace fs = std::filesystem;
using namespace stream;

using stream::test::tpu_with_bus_dma;

namespace {

const std::string kHardware = std::string(STREAM_INPUTS_DIR) + "/hardware";

// The Relu group of relu_group.hpp with its iteration spaces: what layout_prices reads.
schedule::SteadyState relu_columns(const hardware::Accelerator& acc, std::int64_t columns = 8) {
  return schedule::add_iteration_spaces(test::relu_with_transfers(acc, columns));
}

// Every transfer on its first plan, no reuse.
allocate::Allocation first_plans(const schedule::SteadyState& ss) {
  allocate::Allocation a;
  for (const auto& n : ss.nodes) a.plan.push_back(n.kind == schedule::SsKind::Transfer ? 0 : -1);
  a.reuse_factor.assign(ss.tensors.size(), 1);
  return a;
}

}  // namespace

TEST(LayoutPrices, TheReadersOrderMakesAColumnTileOneRun) {
  const auto acc = tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10}");
  const auto ss = relu_columns(acc);
  const auto prices = layout::layout_prices(ss, first_plans(ss), acc);
  ASSERT_EQ(prices.size(), 2u);
  // X: row-major, the [16, 8] box is 16 runs (16 x 10 + 32 = 192 cycles) per iteration, 4
  // iterations; the relu's order puts the tiled columns outermost, (1,0): one run, 10 + 16.
  const auto& x = prices[0];
  EXPECT_EQ(x.tensor, "X");
  EXPECT_EQ(x.transfers, (std::vector<std::string>{"Transfer(X)"}));
  ASSERT_EQ(x.candidates.size(), 2u);
  EXPECT_EQ(x.candidates[0].from, "model");
  EXPECT_EQ(x.candidates[0].layout.str(2), "(0,1)");
  EXPECT_EQ(x.candidates[0].cycles, 4 * 192);
  EXPECT_EQ(x.candidates[1].from, "reader relu");
  EXPECT_EQ(x.candidates[1].layout.str(2), "(1,0)");
  EXPECT_EQ(x.candidates[1].cycles, 4 * 26);
  EXPECT_EQ(x.cheapest, 1u);
  // Y is written back by the relu, the same box.
  const auto& y = prices[1];
  EXPECT_EQ(y.tensor, "Y");
  ASSERT_EQ(y.candidates.size(), 2u);
  EXPECT_EQ(y.candidates[1].from, "producer relu");
  EXPECT_EQ(y.candidates[0].cycles, 4 * 192);
  EXPECT_EQ(y.candidates[1].cycles, 4 * 26);
}

TEST(LayoutPrices, AWholeTensorBoxHasOneCandidate) {
  // One iteration (tile 32): the box is the whole tensor, one run under any order; the preferred
  // order is row-major, the model's.
  const auto acc = tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10}");
  const auto ss = relu_columns(acc, 32);
  const auto prices = layout::layout_prices(ss, first_plans(ss), acc);
  ASSERT_EQ(prices.size(), 2u);
  ASSERT_EQ(prices[0].candidates.size(), 1u);
  // 8192 bits = 32 bursts of 256: 10 + 8192 / 128.
  EXPECT_EQ(prices[0].candidates[0].cycles, 74);
}

TEST(LayoutPrices, StreamRunWritesLayoutsYamlOnlyWithADmaModel) {
  const auto base = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "layouts_yaml";
  fs::remove_all(base);
  auto run = [&](const std::string& hw, const std::string& id) {
    const auto r = stream::test::run_stream("run --hardware " + kHardware + "/" + hw + " --layout fixed --out " +
                                                base.string() + " --experiment-id " + id,
                                            stream::test::Stderr::Discard);
    EXPECT_EQ(r.code, 0) << r.out;
    return base / id / "group_0" / "layouts.yaml";
  };
  EXPECT_FALSE(fs::exists(run("tpu_like_quad_core.yaml", "plain")));
  const auto file = run("tpu_like_quad_core_dma.yaml", "dma");
  ASSERT_TRUE(fs::exists(file));
  const YAML::Node doc = YAML::LoadFile(file.string());
  EXPECT_EQ(doc["layout_mode"].as<std::string>(), "fixed");
  // The 2-conv group reads input, weights_1, weights_2 from off-chip and writes output.
  std::set<std::string> tensors;
  for (const auto& t : doc["tensors"]) {
    tensors.insert(t["tensor"].as<std::string>());
    EXPECT_EQ(t["chosen"].as<std::string>(), "model");
    EXPECT_GE(t["candidates"].size(), 1u);
  }
  EXPECT_EQ(tensors, (std::set<std::string>{"input", "weights_1", "weights_2", "output"}));
  EXPECT_EQ(doc["conversions"].size(), 0u);
  // An unknown mode is a bad input (exit 2; tests/layout/choice_test.cpp has its message).
  EXPECT_EQ(stream::test::run_stream("run --layout best --out " + base.string(), stream::test::Stderr::Discard).code, 2);
}

TEST(LayoutPrices, LayoutsMatterWithADmaModelOrATensorNotRowMajor) {
  // Without a DMA model every layout prices bits / bandwidth, so a row-major group is not priced;
  // a DMA model on any connection, or one tensor stored otherwise, makes the layout a figure.
  const auto plain = tpu_with_bus_dma("");
  const auto dma = tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10}");
  auto relu = [](const Layout& x_layout) {
    auto x = make_tensor("X", DType::bf16, {16, 32}, x_layout), y = make_tensor("Y", DType::bf16, {16, 32});
    return Workload({make_in_edge("X", x),
                     make_computation("relu", "Relu", {x}, {y}, {AffineMap::identity(2), AffineMap::identity(2)}),
                     make_out_edge("Y_out", y)});
  };
  EXPECT_FALSE(layout::layouts_matter(relu(Layout{}), plain));
  EXPECT_TRUE(layout::layouts_matter(relu(Layout{}), dma));
  EXPECT_TRUE(layout::layouts_matter(relu(Layout{{1, 0}, std::nullopt}), plain));
  // The explicit row-major order is row-major.
  EXPECT_FALSE(layout::layouts_matter(relu(Layout{{0, 1}, std::nullopt}), plain));
}
