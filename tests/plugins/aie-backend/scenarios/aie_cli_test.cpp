// The bundled AIE backend through the real `stream`: `stream plugins` lists its cost-backend
// entry, and `stream run` on the reference's AIE hardware costs the aie2 compute tiles with it
// (core_cost_lut.yaml says backend aie, utilization 100.0) without calling them estimates.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "stream_cli.hpp"

namespace fs = std::filesystem;

namespace {

using stream::test::read;

const std::string kAieHardware = std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/aie/hardware/";
const std::string kTwoConv = std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/workload/2conv_1_8_32_32_16_32_3.onnx";

fs::path run_on(const std::string& hardware) {
  const auto out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "aie_backend" / hardware;
  fs::remove_all(out);
  fs::create_directories(out);
  const std::string cmd = std::string(STREAM_BUILD_DIR) + "/bin/stream run --hardware " + kAieHardware + hardware +
                          ".yaml --workload " + kTwoConv + " --out " + out.string() + " --experiment-id exp > " +
                          (out / "stdout").string() + " 2> " + (out / "stderr").string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << read(out / "stderr");
  return out;
}

}  // namespace

TEST(AieBackendCli, PluginsListsTheCostBackend) {
  const auto text = stream::test::run_stream("plugins");
  ASSERT_EQ(text.code, 0) << text.out;
  EXPECT_NE(text.out.find("cost_backend: aie (aie2.compute)"), std::string::npos) << text.out;
  const auto json = stream::test::run_stream("plugins --format json", stream::test::Stderr::Discard);
  ASSERT_EQ(json.code, 0) << json.out;
  bool found = false;
  for (const auto& p : nlohmann::json::parse(json.out)) {
    if (p.at("id") != "aie-backend") continue;
    found = true;
    const auto& b = p.at("provides").at("cost_backends");
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b[0].at("name"), "aie");
    EXPECT_EQ(b[0].at("core_types"), nlohmann::json::array({"aie2.compute"}));
  }
  EXPECT_TRUE(found) << json.out;
}

TEST(AieBackendCli, CoreCostWithTheReferenceTilingGivesTheWorkedFigures) {
  // Both convs on tile 2 of single_core, one steady-state iteration (Conv1.D0 tile 1), as §1.4:
  // Conv1 1*32*32*3*3*8*16 = 1,179,648 macs / 32 = 36,864; Conv2 4,718,592 / 32 = 147,456.
  const auto dir = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "aie_backend";
  fs::create_directories(dir);
  const auto mapping = dir / "single_tile_mapping.yaml";
  std::ofstream(mapping) << "layers:\n"
                            "  - {name: Conv1, core_allocation: [[2]]}\n"
                            "  - {name: Conv2, core_allocation: [[2]]}\n"
                            "fused_groups:\n"
                            "  - {name: g, layers: [Conv1, Conv2], intra_core_tiling: [{dim: Conv1.D0, tile: 1}]}\n";
  const auto r = stream::test::run_stream("core-cost --hardware " + kAieHardware + "single_core.yaml --workload " +
                                              kTwoConv + " --mapping " + mapping.string() + " --format json",
                                          stream::test::Stderr::Discard);
  ASSERT_EQ(r.code, 0) << r.out;
  std::map<std::string, double> latency;
  const auto json = nlohmann::json::parse(r.out);
  for (const auto& e : json.at("entries")) {
    EXPECT_EQ(e.at("core"), 2);
    EXPECT_EQ(e.at("backend"), "aie");
    EXPECT_TRUE(e.at("mac_spatial_utilization").is_null());  // no cme, as the reference
    latency[e.at("node").get<std::string>()] = e.at("latency_total").get<double>();
  }
  EXPECT_EQ(latency["Conv1"], 36864) << r.out;
  EXPECT_EQ(latency["Conv2"], 147456) << r.out;
}

TEST(AieBackendCli, RunCostsEveryAieTileWithTheBackendAndNoEstimates) {
  const auto out = run_on("single_col");
  const auto lut = YAML::LoadFile((out / "exp" / "group_0" / "core_cost_lut.yaml").string());
  std::size_t entries = 0;
  for (const auto& node : lut["nodes"])
    for (const auto& c : node["cores"]) {
      ++entries;
      EXPECT_EQ(c["core_type"].as<std::string>(), "aie2.compute");
      EXPECT_EQ(c["metadata"]["backend"].as<std::string>(), "aie");
      EXPECT_EQ(c["metadata"]["utilization"].as<std::string>(), "100.0");
      EXPECT_EQ(c["energy_total"].as<double>(), 0);
    }
  EXPECT_EQ(entries, 8u);  // two convs on the four aie tiles 2..5
  // A real model, not an estimate: no fallback in the summary, no warning, no "estimated:" line;
  // the run is still degenerate (no ZigZag MAC utilisation for a Conv), as the reference's.
  const auto summary = YAML::LoadFile((out / "exp" / "summary.yaml").string());
  EXPECT_EQ(summary["costs"]["fallback"].as<int>(), 0);
  EXPECT_TRUE(summary["degenerate"].as<bool>());
  // aie2 tiles have no operational array: peak 0, the end-to-end utilisation undefined (§5).
  EXPECT_TRUE(!summary["end_to_end_mac_utilization"] || summary["end_to_end_mac_utilization"].IsNull());
  EXPECT_EQ(read(out / "stdout").find("estimated:"), std::string::npos) << read(out / "stdout");
  EXPECT_EQ(read(out / "stderr").find("ideal-cycle estimates"), std::string::npos) << read(out / "stderr");
}
