// The bundled AIE backend through the real `stream`: `stream plugins` lists its cost-backend
// entry, and `stream run` on the reference's AIE hardware costs the aie2 compute tiles with it
// (core_cost_lut.yaml says backend aie, utilization 100.0) without calling them estimates.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "stream_cli.hpp"

namespace fs = std::filesystem;

namespace {

using stream::test::read;

const std::string kAieHardware = std::string(STREAM_SHARED_DIR) + "/reference/stream-inputs/aie/hardware/";
const std::string kTwoConv = std::string(STREAM_SHARED_DIR) + "/reference/stream-inputs/workload/2conv_1_8_32_32_16_32_3.onnx";

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

TEST(AieBackendCli, SingleCoreTwoConvIsCostedByTheAieBackend) {
  const auto out = run_on("single_core");
  const auto lut = YAML::LoadFile((out / "exp" / "group_0" / "core_cost_lut.yaml").string());
  // One aie tile (core 2), no split: Conv1 1,179,648 / 32 = 36,864; Conv2 4,718,592 / 32 = 147,456.
  std::map<std::string, double> latency;
  for (const auto& node : lut["nodes"]) {
    ASSERT_EQ(node["cores"].size(), 1u);
    const auto& c = node["cores"][0];
    EXPECT_EQ(c["core_id"].as<int>(), 2);
    EXPECT_EQ(c["metadata"]["backend"].as<std::string>(), "aie");
    EXPECT_EQ(c["metadata"]["utilization"].as<std::string>(), "100.0");
    latency[node["name"].as<std::string>()] = c["latency_total"].as<double>();
  }
  EXPECT_EQ(latency.at("Conv1"), 36864);
  EXPECT_EQ(latency.at("Conv2"), 147456);
  // A real model, not an estimate: no fallback in the summary, no warning, no "estimated:" line.
  const auto summary = YAML::LoadFile((out / "exp" / "summary.yaml").string());
  EXPECT_EQ(summary["costs"]["fallback"].as<int>(), 0);
  EXPECT_EQ(read(out / "stdout").find("estimated:"), std::string::npos) << read(out / "stdout");
  EXPECT_EQ(read(out / "stderr").find("ideal-cycle estimates"), std::string::npos) << read(out / "stderr");
  // Both convs run on the one tile, one after the other: at least 36,864 + 147,456 = 184,320 cycles.
  EXPECT_GE(summary["total_latency"].as<std::int64_t>(), 184320);
}
