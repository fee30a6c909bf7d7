// RunSpec::per_layer_check (docs/pipeline.md, "A fused group slower than its layers"): a
// solved automatic fused group is also run as one group per layer, and the sum of those latencies
// is kept when lower, for `stream run`'s hint; the run's figures stay the fused group's.
//
// A transformer MLP in bf16, x [1, 197, 768] -> MatMul 768x3072 -> MatMul 3072x768, on
// tpu_like_quad_core: the two MatMuls fuse (no cut point between them) and, the weights being too
// large to stay, the reference's capacity tiler cuts the 197 tokens (prime) to one per iteration,
// so every weight tile is fetched again for each token; run per layer, each MatMul keeps its
// tokens whole. The same MLP at width 256 / 1024 fits without cutting the tokens, and fused it is
// the faster one: no per-layer figure is kept.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/pipeline/run.hpp>

#include "../../plugins/onnx-frontend/onnx_test_util.hpp"
#include "bundled_hardware.hpp"
#include "stream_cli.hpp"

using namespace stream;
using namespace stream::onnx_testing;

namespace {

ModelBuilder mlp_model(std::int64_t width, std::int64_t hidden) {
  ModelBuilder m("mlp");
  m.input("x", BF16, {1, 197, width}).initializer("w1", BF16, {width, hidden}).initializer("w2", BF16, {hidden, width});
  m.output("y", BF16, {1, 197, width}, true);
  m.node("MatMul", {"x", "w1"}, {"h"}, "up");
  m.node("MatMul", {"h", "w2"}, {"y"}, "down");
  return m;
}

Workload mlp(std::int64_t width, std::int64_t hidden) { return onnx_test::parse(mlp_model(width, hidden)); }

pipeline::RunSpec checked() {
  pipeline::RunSpec o;
  o.per_layer_check = true;
  return o;
}

std::int64_t per_layer_total(const Workload& w) {
  pipeline::RunSpec o;
  o.cut_mode = pipeline::CutMode::PerLayer;
  const auto r = pipeline::run(w, test::bundled_accelerator(), o);
  EXPECT_TRUE(r.solved());
  EXPECT_EQ(r.groups.size(), 2u);
  return r.total_latency;
}

}  // namespace

TEST(PerLayerCheck, AFusedGroupSlowerThanItsLayersKeepsTheirLatencyBesideItsOwn) {
  const Workload w = mlp(768, 3072);
  const auto plain = pipeline::run(w, test::bundled_accelerator(), {});
  const auto r = pipeline::run(w, test::bundled_accelerator(), checked());
  ASSERT_TRUE(r.solved());
  ASSERT_EQ(r.groups.size(), 1u);
  const auto& g = r.groups[0];
  EXPECT_EQ(g.workload.computation_nodes().size(), 2u);
  EXPECT_EQ(g.tiled.iterations() % 197, 0);  // the tokens one at a time
  // The figures are the fused group's, as without the check; the per-layer figure is the run of
  // the same workload cut per layer.
  EXPECT_EQ(r.total_latency, plain.total_latency);
  EXPECT_EQ(g.allocation.total_latency, plain.groups[0].allocation.total_latency);
  EXPECT_EQ(plain.groups[0].per_layer_latency, -1);  // off unless asked
  EXPECT_EQ(g.per_layer_latency, per_layer_total(w));
  EXPECT_LT(g.per_layer_latency, g.allocation.total_latency);
}

TEST(PerLayerCheck, AFusedGroupFasterThanItsLayersKeepsNoFigure) {
  const Workload w = mlp(256, 1024);
  const auto r = pipeline::run(w, test::bundled_accelerator(), checked());
  ASSERT_TRUE(r.solved());
  ASSERT_EQ(r.groups.size(), 1u);
  EXPECT_EQ(r.groups[0].tiled.iterations(), 1);
  EXPECT_LT(r.total_latency, per_layer_total(w));
  EXPECT_EQ(r.groups[0].per_layer_latency, -1);
}

TEST(PerLayerCheck, NotAppliedWithoutAutomaticCutPoints) {
  auto o = checked();
  o.cut_mode = pipeline::CutMode::None;  // the workload's FusionEdges only: the caller's grouping
  const auto r = pipeline::run(mlp(768, 3072), test::bundled_accelerator(), o);
  ASSERT_TRUE(r.solved());
  EXPECT_EQ(r.groups[0].per_layer_latency, -1);
}

// `stream run` says it on stderr, with the two figures, and its total is the fused group's.
TEST(PerLayerCheck, StreamRunPrintsTheHint) {
  const Workload w = mlp(768, 3072);
  const auto fused = pipeline::run(w, test::bundled_accelerator(), {}).total_latency;
  const auto model = mlp_model(768, 3072).save_temp("per_layer_check_mlp.onnx");
  const auto out = stream::test::fresh_scratch_dir("pipeline", "per_layer_check");
  const auto r = stream::test::run_stream("run --hardware " + std::string(STREAM_INPUTS_DIR) +
                                          "/hardware/tpu_like_quad_core.yaml --workload " + model.string() + " --out " +
                                          out.string() + " --experiment-id x --summary-only");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("hint: group 0 (2 compute nodes fused) takes " + std::to_string(fused) +
                       " cycles; its nodes as one group per layer take " + std::to_string(per_layer_total(w)) +
                       " (--fusion-cut-points per-layer)"),
            std::string::npos)
      << r.out;
  // timings.json lists the two layers' runs behind the hint (their clocks are in the phases).
  const auto timings = nlohmann::json::parse(stream::test::read(out / "x" / "timings.json"));
  ASSERT_EQ(timings["per_layer_checks"].size(), 2u);
  EXPECT_EQ(timings["per_layer_checks"][1]["name"].get<std::string>(), "group_0 layer 1");
  const auto total = r.out.find("Total latency:");
  ASSERT_NE(total, std::string::npos) << r.out;
  EXPECT_EQ(std::stoll(r.out.substr(total + 14)), fused);
}
