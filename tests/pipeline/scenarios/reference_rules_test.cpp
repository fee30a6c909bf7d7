// The reference's automatic-path rules that a reader would not guess (docs/pipeline.md), end to
// end through `stream run`: the name-keyed re-sequencing and the normalization expansion, on the
// reference's attention_head.onnx, whose order the reference itself gives (aie-and-defaults §4a):
// I, wK, Op1, Op3 (the Transpose), wQ, Op0, Op4, Op5_max, Op5_exp, Op5_sum, Op5_div, wV, Op2, Op6, Y.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>
#include <vector>

#include "result_files.hpp"

namespace fs = std::filesystem;
using namespace stream::test;

namespace {

const std::string kAttention = std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/workload/attention_head.onnx";

// The compute nodes of group 0's cost table, in its order (the tiled workload's).
std::vector<std::string> costed_nodes(const std::string& name, const std::string& extra) {
  const auto out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "reference_rules" / name;
  fs::remove_all(out);
  const auto r = run_stream("run --workload " + kAttention + " --out " + out.string() + " --experiment-id exp " + extra);
  EXPECT_EQ(r.code, 0) << r.out;
  std::vector<std::string> names;
  const auto lut = out / "exp" / "group_0" / "core_cost_lut.yaml";
  if (!fs::exists(lut)) return names;
  for (const auto& n : YAML::LoadFile(lut.string())["nodes"]) names.push_back(n["name"].as<std::string>());
  return names;
}

}  // namespace

// Our frontend folds the Transpose (Op3) into Op4's map, so one group holds every compute node;
// K (Op1) comes before Q (Op0), and the Softmax Op5 is four nodes.
TEST(ReferenceRules, AttentionHeadFollowsTheReferencesOrderAndExpandsItsSoftmax) {
  EXPECT_EQ(costed_nodes("default", ""), (std::vector<std::string>{"Op1", "Op0", "Op4", "Op5_max", "Op5_exp", "Op5_sum",
                                                                    "Op5_div", "Op2", "Op6"}));
}

TEST(ReferenceRules, NoDecomposeKeepsTheSoftmaxWhole) {
  EXPECT_EQ(costed_nodes("no_decompose", "--no-decompose"),
            (std::vector<std::string>{"Op1", "Op0", "Op4", "Op5", "Op2", "Op6"}));
}
