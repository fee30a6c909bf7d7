// Hardware overrides (stream/hardware/hardware_overrides.hpp) on tpu_like_quad_core: cores 0-3
// name one file (tpu_like, a 32x32 array), 4-6 are pooling, SIMD and off-chip; 12 links of 32
// bits/cycle and one bus of 128.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/hardware/hardware_cost.hpp>
#include <stream/hardware/hardware_overrides.hpp>

namespace fs = std::filesystem;
using namespace stream::hardware;

namespace {

const fs::path kTpu = fs::path(STREAM_INPUTS_DIR) / "hardware" / "tpu_like_quad_core.yaml";

std::vector<std::int64_t> sizes(const Accelerator& a, int core) {
  return a.cores.at(static_cast<std::size_t>(core)).operational_array.sizes;
}

std::string error_of(const std::vector<HardwareOverride>& overrides) {
  try {
    (void)load_accelerator_with_overrides(kTpu, overrides);
  } catch (const stream::Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(HardwareOverrides, ACoreNameSelectsEveryCoreOfThatName) {
  const auto a = load_accelerator_with_overrides(kTpu, {{"cores/tpu_like/operational_array/sizes", "[16, 16]"}});
  for (int c = 0; c < 4; ++c) EXPECT_EQ(sizes(a, c), (std::vector<std::int64_t>{16, 16})) << "core " << c;
  const auto original = load_accelerator(kTpu);
  for (int c = 4; c < 7; ++c) EXPECT_EQ(sizes(a, c), sizes(original, c)) << "core " << c;
  // Area by hand (docs/hardware-cost.md), per tpu_like core, 32x32 -> 16x16: MACs 1024 -> 256 at
  // 200 um2 = -0.1536 mm2; rf_128B (1024 bits, serves no dimension: 1024 -> 256 instances) at
  // 0.1 um2/bit = -0.0786432; rf_2B (16 bits, serves D2: 32 -> 16 instances) = -0.0000256; the
  // SRAM serves both, one instance. Four cores: -0.9290752 from 8.1866368.
  EXPECT_NEAR(hardware_cost(a).total_area_mm2, 8.1866368 - 0.9290752, 1e-12);
}

TEST(HardwareOverrides, TheSameValueGivesTheSameAccelerator) {
  const auto a = load_accelerator_with_overrides(kTpu, {{"cores/tpu_like/operational_array/sizes", "[32, 32]"}});
  const auto original = load_accelerator(kTpu);
  ASSERT_EQ(a.size(), original.size());
  EXPECT_DOUBLE_EQ(hardware_cost(a).total_area_mm2, hardware_cost(original).total_area_mm2);
  EXPECT_DOUBLE_EQ(hardware_cost(a).peak_access_energy_pj_per_cycle,
                   hardware_cost(original).peak_access_energy_pj_per_cycle);
  for (std::size_t c = 0; c < a.size(); ++c) EXPECT_EQ(a.cores[c].memories.size(), original.cores[c].memories.size());
}

TEST(HardwareOverrides, AnIdSelectsOneCoreThoughItSharesItsFile) {
  const auto a = load_accelerator_with_overrides(kTpu, {{"cores/0/operational_array/sizes", "[8, 8]"}});
  EXPECT_EQ(sizes(a, 0), (std::vector<std::int64_t>{8, 8}));
  EXPECT_EQ(sizes(a, 1), (std::vector<std::int64_t>{32, 32}));
}

TEST(HardwareOverrides, WildcardsAndIndicesIntoLists) {
  const auto every = load_accelerator_with_overrides(kTpu, {{"core_connectivity/*/bandwidth", "64"}});
  ASSERT_EQ(every.connectivity.size(), 13u);
  for (const auto& c : every.connectivity) EXPECT_EQ(c.bandwidth, 64.0);
  const auto bus = load_accelerator_with_overrides(kTpu, {{"core_connectivity/12/bandwidth", "256"}});
  EXPECT_EQ(bus.connectivity[12].bandwidth, 256.0);
  EXPECT_EQ(bus.connectivity[0].bandwidth, 32.0);
  // Only the tpu_like cores have an sram_2MB: the wildcard skips the others.
  const auto sram = load_accelerator_with_overrides(kTpu, {{"cores/*/memories/sram_2MB/size", "8388608"}});
  for (int c = 0; c < 4; ++c) EXPECT_EQ(sram.cores[static_cast<std::size_t>(c)].memory_capacity(), 8388608);
}

TEST(HardwareOverrides, OverridesApplyInOrder) {
  const auto a = load_accelerator_with_overrides(
      kTpu, {{"core_connectivity/*/bandwidth", "64"}, {"core_connectivity/0/bandwidth", "8"}});
  EXPECT_EQ(a.connectivity[0].bandwidth, 8.0);
  EXPECT_EQ(a.connectivity[1].bandwidth, 64.0);
}

TEST(HardwareOverrides, APathThatMatchesNothingIsAnError) {
  EXPECT_NE(error_of({{"cores/nosuch/operational_array/sizes", "[16, 16]"}}).find("matches nothing"), std::string::npos);
  EXPECT_NE(error_of({{"core_connectivity/13/bandwidth", "1"}}).find("core_connectivity/13/bandwidth"), std::string::npos);
  EXPECT_NE(error_of({{"cores//sizes", "1"}}).find("empty segment"), std::string::npos);
}

// check_overrides: what a sweep checks before any point runs. The keys listed are the file's own
// (tpu_like_quad_core.yaml's top, tpu_like.yaml's sram_2MB), written out here from the files.
TEST(CheckOverrides, APathThatReachesNothingNamesWhereItStopsAndWhatIsThere) {
  const auto top = check_overrides(kTpu, {{"core_conectivity/*/bandwidth", {"64"}}});
  ASSERT_TRUE(top.has_value());
  EXPECT_EQ(top->axis, 0u);
  EXPECT_FALSE(top->value.has_value());
  EXPECT_NE(top->message.find("no 'core_conectivity' at the top of tpu_like_quad_core.yaml"), std::string::npos) << top->message;
  EXPECT_NE(top->message.find("did you mean 'core_connectivity'?"), std::string::npos) << top->message;
  const auto deep = check_overrides(kTpu, {{"core_connectivity/*/bandwidth", {"64"}}, {"cores/tpu_like/memories/sram_2MB/sise", {"1"}}});
  ASSERT_TRUE(deep.has_value());
  EXPECT_EQ(deep->axis, 1u);
  EXPECT_NE(deep->message.find("no 'sise' at cores/tpu_like/memories/sram_2MB in tpu_like_quad_core.yaml"), std::string::npos)
      << deep->message;
  EXPECT_NE(deep->message.find("the keys size, r_cost, w_cost, area, latency, operands, ports, served_dimensions"),
            std::string::npos) << deep->message;
  // A list: the index past its end, and how many entries it has (12 links and the bus).
  const auto index = check_overrides(kTpu, {{"core_connectivity/13/bandwidth", {"1"}}});
  ASSERT_TRUE(index.has_value());
  EXPECT_NE(index->message.find("a list of 13 entries"), std::string::npos) << index->message;
}

TEST(CheckOverrides, AValueOfAnotherKindThanTheFilesIsNamedWithItsIndex) {
  const auto text = check_overrides(kTpu, {{"core_connectivity/12/bandwidth", {"64", "wide"}}});
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(text->value, std::optional<std::size_t>(1));
  EXPECT_NE(text->message.find("value 'wide' is text, but tpu_like_quad_core.yaml has a number there ('128')"),
            std::string::npos) << text->message;
  const auto scalar = check_overrides(kTpu, {{"cores/tpu_like/operational_array/sizes", {"[16, 16]", "16"}}});
  ASSERT_TRUE(scalar.has_value());
  EXPECT_EQ(scalar->value, std::optional<std::size_t>(1));
  EXPECT_NE(scalar->message.find("value '16' is a number, but tpu_like_quad_core.yaml has a list there ([32, 32])"),
            std::string::npos) << scalar->message;
}

TEST(CheckOverrides, GoodAxesPassAndLaterAxesSeeTheEarlierFirstValue) {
  EXPECT_FALSE(check_overrides(kTpu, {{"core_connectivity/*/bandwidth", {"16", "64"}},
                                      {"cores/*/memories/sram_2MB/size", {"8388608"}},
                                      {"cores/4/name", {"pool", "7"}}})  // a number where the file has text: a name
                   .has_value());
  // An override that replaces a map with another: a later axis reaches into the new map, as the
  // points' variants do, and not into the file's.
  EXPECT_FALSE(check_overrides(kTpu, {{"cores/0/operational_array", {"{dimensions: [D1, D2], sizes: [8, 8], new: 1}"}},
                                      {"cores/0/operational_array/new", {"2"}}})
                   .has_value());
  EXPECT_TRUE(check_overrides(kTpu, {{"cores/0/operational_array/new", {"2"}}}).has_value());
}

TEST(HardwareOverrides, AnInvalidResultNamesTheFileAndTheOverride) {
  const auto e = error_of({{"cores/tpu_like/operational_array/sizes", "[0, 16]"}});
  EXPECT_NE(e.find("tpu_like_quad_core.yaml with cores/tpu_like/operational_array/sizes=[0, 16]"), std::string::npos) << e;
  EXPECT_NE(e.find("sizes"), std::string::npos) << e;
  // The combined text's line numbers mean nothing to the user: none is given.
  EXPECT_FALSE(std::regex_search(e, std::regex(R"(\.yaml:\d)"))) << e;
  EXPECT_NE(error_of({{"core_connectivity/0/bandwidth", "[1, {"}}).find("is not YAML"), std::string::npos);
}

TEST(HardwareVariants, EachVariantStartsFromTheFileWhateverCameBefore) {
  // One HardwareVariants reads every variant from one working tree, putting back what a variant's
  // overrides replaced: a variant after others (a failing one too) is the variant read alone.
  HardwareVariants variants;
  const std::vector<HardwareOverride> small_bus{{"core_connectivity/12/bandwidth", "16"},
                                                {"cores/tpu_like/operational_array/sizes", "[8, 8]"}};
  const std::vector<HardwareOverride> nested{{"cores/0/memories", "{}"}, {"cores/1/operational_array/sizes", "[4, 4]"}};
  const auto first = variants.load(kTpu, small_bus);
  EXPECT_THROW((void)variants.load(kTpu, nested), stream::Error);  // core 0 without memories is invalid
  EXPECT_THROW((void)variants.load(kTpu, {{"cores/nosuch/name", "x"}}), stream::Error);
  const auto sram = variants.load(kTpu, {{"cores/*/memories/sram_2MB/size", "8388608"}});
  const auto again = variants.load(kTpu, small_bus);
  EXPECT_EQ(again.connectivity[12].bandwidth, 16.0);
  EXPECT_EQ(sizes(again, 0), (std::vector<std::int64_t>{8, 8}));
  EXPECT_EQ(again.cores[0].memory_capacity(), load_accelerator(kTpu).cores[0].memory_capacity());  // not sram's
  EXPECT_EQ(sram.connectivity[12].bandwidth, 128.0);  // not small_bus's
  EXPECT_EQ(sizes(sram, 0), (std::vector<std::int64_t>{32, 32}));
  EXPECT_EQ(sram.cores[0].memory_capacity(), 8388608);
  EXPECT_DOUBLE_EQ(hardware_cost(again).total_area_mm2, hardware_cost(first).total_area_mm2);
  EXPECT_DOUBLE_EQ(hardware_cost(again).total_area_mm2, hardware_cost(load_accelerator_with_overrides(kTpu, small_bus)).total_area_mm2);
  for (int k = 0; k < 300; ++k) {  // past a working copy's uses: a fresh copy, the same variant
    const auto v = variants.load(kTpu, {{"core_connectivity/12/bandwidth", std::to_string(k + 1)}});
    ASSERT_EQ(v.connectivity[12].bandwidth, k + 1.0);
    ASSERT_EQ(v.connectivity[0].bandwidth, 32.0);
  }
}
