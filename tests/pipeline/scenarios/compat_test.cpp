// `stream run --compat stream-1.13` end to end (docs/pipeline.md, "Compatibility mode
// stream-1.13") on the reference's attention_head.onnx and five of its systems: every group's
// latency and tiling is the reference's own, measured by running Stream 1.13 instrumented
// (tests/data/reference/README.md: the reference's figures per fusion group); the default mode
// keeps this tool's figures.
//
// The reference's groups (rule A1): the Transpose Op3 is a FusionEdge and the running group counter
// over the name order I, wK, Op1, Op3, wQ, Op0, ... closes group 0 after Op1, so group 0 is [Op1]
// and group 1 the rest (Q's Op0 reaches the Transpose's output only at Op4).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <utility>
#include <string>
#include <vector>

#include "result_files.hpp"

namespace fs = std::filesystem;
using namespace stream::test;

namespace {

const std::string kRef = std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/";
const std::string kAttention = kRef + "workload/attention_head.onnx";

struct System {
  const char* hardware;
  std::int64_t group0, group1;  ///< the reference's latency per group
  const char* tile;             ///< group 1's intra-core tiling entry, as the reference's automatic tiler
  std::int64_t ours;            ///< the default mode's single group
};

void PrintTo(const System& s, std::ostream* os) { *os << s.hardware; }

// fusion-and-slots.md §A.0 (reference figures per group and tilings; "ours today" for the default).
const System kSystems[] = {
    {"tpu_like_quad_core", 15424, 29480, "Op0.D0 tile 32", 32815},
    {"eyeriss_like_quad_core", 29850, 59795, "Op0.D0 tile 32", 78689},
    {"fusemax", 19712, 50280, "Op0.D0 tile 64", 66664},
    {"meta_prototype_dual_core_simd_offchip", 17679, 34905, "Op0.D0 tile 64", 40721},
    {"simba_small", 21803, 36800, "Op0.D2 tile 256", 69189},
};

struct Run {
  int code = -1;
  std::string log;
  nlohmann::json summary;
  fs::path dir;
};

Run run_attention(const std::string& name, const std::string& hardware, const std::string& extra) {
  const auto out = fresh_scratch_dir("pipeline", "compat_" + name);
  const auto r = run_stream("run --workload " + kAttention + " --hardware " + kRef + "hardware/" + hardware +
                            ".yaml --out " + out.string() + " --experiment-id exp " + extra);
  return {r.code, r.out, summary_of(out / "exp"), out / "exp"};
}

std::int64_t group_latency(const Run& r, int g) {
  return r.summary.at("groups").at("group_" + std::to_string(g)).at("latency").get<std::int64_t>();
}

// "Op0.D0 tile 32" for the group's one intra-core tiling entry, as its mapping.yaml writes it.
std::string tiling_of(const Run& r, int g) {
  const auto m = YAML::LoadFile((r.dir / ("group_" + std::to_string(g)) / "mapping.yaml").string());
  std::string out;
  for (const auto& e : m["fused_groups"][0]["intra_core_tiling"])
    out += (out.empty() ? "" : ", ") + e["dim"].as<std::string>() + " tile " + e["tile"].as<std::string>();
  return out;
}

std::vector<std::string> layers_of(const Run& r, int g) {
  const auto m = YAML::LoadFile((r.dir / ("group_" + std::to_string(g)) / "mapping.yaml").string());
  return m["fused_groups"][0]["layers"].as<std::vector<std::string>>();
}

}  // namespace

// A1 alone decides the groups and group 0's figure (one MatMul: no tiling choice beyond D0).
TEST(Compat, LayoutOperatorsSplitAttentionIntoTheReferencesTwoGroups) {
  const auto r = run_attention("groups", "tpu_like_quad_core", "--compat stream-1.13");
  ASSERT_EQ(r.code, 0) << r.log;
  ASSERT_EQ(r.summary.at("groups").size(), 2u) << r.log;
  EXPECT_EQ(layers_of(r, 0), (std::vector<std::string>{"Op1"}));
  EXPECT_EQ(layers_of(r, 1),
            (std::vector<std::string>{"Op0", "Op4", "Op5_max", "Op5_exp", "Op5_sum", "Op5_div", "Op2", "Op6"}));
  EXPECT_EQ(group_latency(r, 0), 15424);
}

class CompatAttention : public ::testing::TestWithParam<System> {};

// A2 (the tile) and A3 (meta and simba_small, whose MILP our own memory rows make infeasible).
TEST_P(CompatAttention, EveryGroupIsTheReferences) {
  const auto& s = GetParam();
  const auto r = run_attention(std::string("ref_") + s.hardware, s.hardware, "--compat stream-1.13 --no-memory-fallback");
  ASSERT_EQ(r.code, 0) << r.log;
  ASSERT_EQ(r.summary.at("groups").size(), 2u) << r.log;
  EXPECT_EQ(group_latency(r, 0), s.group0);
  EXPECT_EQ(tiling_of(r, 1), s.tile);
  EXPECT_EQ(group_latency(r, 1), s.group1);
  EXPECT_EQ(r.summary.at("total_latency").get<std::int64_t>(), s.group0 + s.group1);
}

TEST_P(CompatAttention, TheDefaultModeKeepsOneFoldedGroup) {
  const auto& s = GetParam();
  const auto r = run_attention(std::string("default_") + s.hardware, s.hardware, "");
  ASSERT_EQ(r.code, 0) << r.log;
  ASSERT_EQ(r.summary.at("groups").size(), 1u) << r.log;
  EXPECT_EQ(r.summary.at("total_latency").get<std::int64_t>(), s.ours);
}

INSTANTIATE_TEST_SUITE_P(ReferenceSystems, CompatAttention, ::testing::ValuesIn(kSystems),
                         [](const ::testing::TestParamInfo<System>& info) { return std::string(info.param.hardware); });

// The reference's ResNet-18 export has 11 fusion groups, its Flatten before the classifier being a
// boundary (docs/pipeline.md, "Layout operators fold"); ours folds it: 10. fp32 on the TPU-like quad
// core does not fit in either tool (exit 1 without the memory fallback): the grouping is the point.
TEST(Compat, ResNet18KeepsTheReferencesFlattenBoundary) {
  const auto resnet = kRef + "workload/resnet18.onnx";
  for (const auto& [mode, groups] : {std::pair<std::string, std::size_t>{"none", 10}, {"stream-1.13", 11}}) {
    const auto out = fresh_scratch_dir("pipeline", "compat_resnet18_" + mode);
    const auto r = run_stream("run --workload " + resnet + " --compat " + mode +
                              " --no-memory-fallback --summary-only --out " + out.string() + " --experiment-id exp");
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_EQ(summary_of(out / "exp").at("groups").size(), groups) << mode;
  }
}

TEST(Compat, AnUnknownModeIsABadInput) {
  const auto r = run_stream("run --compat stream-1.12 --out " + fresh_scratch_dir("pipeline", "compat_bad").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--compat: unknown compatibility mode 'stream-1.12' (expected none or stream-1.13)"), std::string::npos)
      << r.out;
}
