// Errors about a pair of inputs name the file to look at, not only a node: an accelerator with no
// core for a node names the hardware file, a workload with nothing to compute names the workload.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "model_builder.hpp"
#include "stream_cli.hpp"

namespace fs = std::filesystem;
using namespace stream::onnx_testing;
using stream::test::run_stream;

namespace {

const std::string kTpu = std::string(STREAM_INPUTS_DIR) + "/hardware/tpu_like_quad_core.yaml";

fs::path scratch(const std::string& name) {
  const auto p = stream::test::fresh_scratch_dir("report", name);
  fs::create_directories(p / "cores");
  return p;
}

// An accelerator of one core, the off-chip DRAM controller: nothing can compute.
fs::path offchip_only_hardware() {
  const auto dir = scratch("offchip_only");
  fs::copy_file(std::string(STREAM_INPUTS_DIR) + "/hardware/cores/offchip.yaml", dir / "cores" / "offchip.yaml");
  std::ofstream(dir / "offchip_only.yaml") << "name: offchip_only\ncores:\n  0: ./cores/offchip.yaml\n"
                                              "offchip_core_id: 0\nunit_energy_cost: 0\ncore_connectivity: []\n";
  return dir / "offchip_only.yaml";
}

// The line of `text` that holds `needle` ("" when none does).
std::string line_with(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) return "";
  const auto begin = text.rfind('\n', at);
  const auto end = text.find('\n', at);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end == std::string::npos ? std::string::npos : end - begin - 1);
}

}  // namespace

// Before: "error: the accelerator has no core that can compute node 'Conv1'" (validate, and run
// with a block), or naming only the workload (run with a file).
TEST(ErrorFiles, NoCoreThatCanComputeNamesTheHardwareFile) {
  const auto hw = offchip_only_hardware().string();
  const std::string wl = std::string(STREAM_INPUTS_DIR) + "/workload/2conv_1_8_32_32_16_32_3.onnx";
  const auto out = (fs::path(hw).parent_path() / "out").string();
  for (const std::string& c : {"validate --hardware " + hw + " --workload " + wl,
                               "run --hardware " + hw + " --workload " + wl + " --out " + out,
                               "run --hardware " + hw + " --block rmsnorm --out " + out}) {
    const auto r = run_stream(c);
    EXPECT_EQ(r.code, 2) << c << "\n" << r.out;
    EXPECT_NE(line_with(r.out, "no core that can compute node").find(hw), std::string::npos) << c << "\n" << r.out;
  }
}

// A model that only flattens its input has no computation node. Before, core-cost said so without
// the file; validate and run already named it.
TEST(ErrorFiles, NoComputationNodeNamesTheWorkloadFile) {
  ModelBuilder m("layout_only");
  m.input("x", F32, {1, 8, 4, 4}).output("y", F32);
  m.node("Flatten", {"x"}, {"y"}, "flatten").attr("axis", 1);
  const auto model = m.save_temp("error_files_layout_only.onnx").string();
  const auto r = run_stream("core-cost --hardware " + kTpu + " --workload " + model);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error: " + model + ": the workload has no computation node"), std::string::npos) << r.out;
}
