// The DMA model of hardware files (hardware/dma.hpp): read per connection and as the
// accelerator's default, every bad value an error at its line, and absent everywhere in the
// example hardware files.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "stream/hardware/accelerator_reader.hpp"

#include "expect_diagnostic.hpp"

namespace fs = std::filesystem;
using namespace stream;
using namespace stream::hardware;

namespace {

const fs::path kHardwareDir = fs::path(STREAM_TEST_DATA_DIR) / "reference" / "stream-inputs" / "hardware";

std::vector<Diagnostic> errors_of(const std::string& text) {
  try {
    (void)parse_accelerator_text(text, "acc.yaml", kHardwareDir);
  } catch (const ValidationError& e) {
    return e.diagnostics();
  }
  return {};
}

// Two links from core 0: to core 1 (line 8) and to core 2 (line 9); `dma` goes at line 6 or on a link.
std::string accelerator(const std::string& top_dma, const std::string& link_dma) {
  return "name: test\n"                                                       // 1
         "cores:\n"                                                           // 2
         "  0: ./cores/tpu_like.yaml\n  1: ./cores/offchip.yaml\n"            // 3, 4
         "offchip_core_id: 1\n" +                                             // 5
         (top_dma.empty() ? std::string("unit_energy_cost: 0\n") : "dma: " + top_dma + "\n") +  // 6
         "core_connectivity:\n"                                               // 7
         "  - {type: link, cores: [0, 1], bandwidth: 32" + (link_dma.empty() ? "" : ", dma: " + link_dma) + "}\n";  // 8
}

}  // namespace

TEST(DmaModel, AbsentByDefault) {
  const auto acc = parse_accelerator_text(accelerator("", ""), "acc.yaml", kHardwareDir);
  EXPECT_FALSE(acc.dma.has_value());
  ASSERT_EQ(acc.connectivity.size(), 1u);
  EXPECT_FALSE(acc.connectivity[0].dma.has_value());
  for (const auto& l : acc.links()) EXPECT_EQ(acc.dma_of(l), nullptr);
}

TEST(DmaModel, AConnectionsOwnModel) {
  const auto acc = parse_accelerator_text(
      accelerator("", "{burst_bits: 256, setup_cycles: 20, max_strides: 2, setup_energy: 1.5}"), "acc.yaml", kHardwareDir);
  ASSERT_TRUE(acc.connectivity[0].dma.has_value());
  const auto& d = *acc.connectivity[0].dma;
  EXPECT_EQ(d.burst_bits, 256);
  EXPECT_EQ(d.setup_cycles, 20);
  EXPECT_EQ(d.max_strides, 2);
  EXPECT_EQ(d.setup_energy, 1.5);
  EXPECT_EQ(d.where.line, 8);
  // Both directed links of the connection use it.
  ASSERT_EQ(acc.links().size(), 2u);
  for (const auto& l : acc.links()) ASSERT_NE(acc.dma_of(l), nullptr);
}

TEST(DmaModel, TheAcceleratorsModelIsEveryConnectionsDefault) {
  const auto acc = parse_accelerator_text(accelerator("{setup_cycles: 8}", ""), "acc.yaml", kHardwareDir);
  ASSERT_TRUE(acc.connectivity[0].dma.has_value());
  EXPECT_EQ(acc.connectivity[0].dma->setup_cycles, 8);
  EXPECT_EQ(acc.connectivity[0].dma->burst_bits, 1);  // defaults: a burst per bit, no strides
  EXPECT_EQ(acc.connectivity[0].dma->max_strides, 0);
  // A connection's own model replaces the default whole.
  const auto own = parse_accelerator_text(accelerator("{setup_cycles: 8}", "{burst_bits: 64}"), "acc.yaml", kHardwareDir);
  EXPECT_EQ(own.connectivity[0].dma->setup_cycles, 0);
  EXPECT_EQ(own.connectivity[0].dma->burst_bits, 64);
}

TEST(DmaModel, BadValuesAreErrorsAtTheirLine) {
  using stream::test::expect_one;
  expect_one(errors_of(accelerator("", "{burst_bits: 0}")), "'burst_bits' must be >= 1, got 0", 8);
  expect_one(errors_of(accelerator("", "{setup_cycles: -1}")), "'setup_cycles' must be >= 0", 8);
  expect_one(errors_of(accelerator("", "{max_strides: 1.5}")), "'max_strides' must be an integer", 8);
  expect_one(errors_of(accelerator("", "{max_strides: 65}")), "max_strides` must be at most 64", 8);
  expect_one(errors_of(accelerator("", "{setup_energy: -2}")), "'setup_energy' must be >= 0", 8);
  expect_one(errors_of(accelerator("", "{burst: 64}")), "unknown key 'burst'", 8);
  expect_one(errors_of(accelerator("", "{}")), "`core_connectivity[0].dma` is empty", 8);
  expect_one(errors_of(accelerator("", "64")), "must be a mapping", 8);
  expect_one(errors_of(accelerator("{setup_cycles: x}", "")), "'setup_cycles' must be an integer", 6);
}

TEST(DmaModel, NoReferenceHardwareFileDeclaresOne) {
  // The goldens are computed on these files; a DMA model in one would change its figures. The
  // `*_dma.yaml` examples are the DMA variants (docs/layout.md).
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(fs::path(STREAM_INPUTS_DIR) / "hardware")) {
    const std::string stem = e.path().stem().string();
    if (e.path().extension() != ".yaml" || stem.ends_with("_dma")) continue;
    const auto acc = load_accelerator(e.path());
    EXPECT_FALSE(acc.dma.has_value()) << e.path();
    for (const auto& c : acc.connectivity) EXPECT_FALSE(c.dma.has_value()) << e.path();
    ++files;
  }
  EXPECT_GE(files, 8u);
}
