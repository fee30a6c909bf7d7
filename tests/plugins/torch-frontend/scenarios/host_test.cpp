// Through the real plugin host: a .pt2 path loads the torch-frontend plugin lazily (by the
// extension its manifest declares) and nothing else; a third-party plugin adds an ATen converter
// the same way; and `stream parse` handles archives end to end, --dim bindings included.

#include <cstdio>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "stream_cli.hpp"
#include <plugin_host.hpp>

#include "../torch_test_util.hpp"

using namespace stream;
using namespace stream::torch_testing;
using namespace torch_test;

namespace {

const std::filesystem::path kFixtures = std::filesystem::path(STREAM_INPUTS_DIR) / "workload" / "torch";

host::PluginStatus status_of(const host::PluginHost& h, const std::string& id) {
  for (const auto& r : h.plugins())
    if (r.manifest.id == id) return r.status;
  ADD_FAILURE() << "plugin " << id << " not discovered";
  return host::PluginStatus::Rejected;
}

std::filesystem::path cumsum_program() {
  ProgramBuilder p;
  p.input("x", kF32, {4, 6});
  p.call("torch.ops.aten.cumsum.default", {{"self", T("x")}, {"dim", I(1)}}, "cumsum", kF32, {4, 6});
  p.call("torch.ops.aten.relu.default", {{"self", T("cumsum")}}, "relu", kF32, {4, 6});
  p.output("relu");
  const auto path = temp_file("cumsum");
  write_pt2(path, p.build(), ArchiveLayout::Pt2);
  return path;
}

stream::test::CliResult run(const std::string& args) {
  return stream::test::run_stream(args, stream::test::Stderr::Discard);
}

}  // namespace

TEST(TorchHost, APt2PathLoadsOnlyTheTorchFrontendPlugin) {
  host::PluginHostOptions opts;
  opts.bundled_dirs = {STREAM_BUNDLED_PLUGIN_DIR};
  host::PluginHost plugins(opts);
  const auto w = plugins.registries().load_workload(kFixtures / "mlp.pt2");
  EXPECT_EQ(computation_types(w), (std::vector<std::string>{"MatMul", "Relu", "MatMul", "Relu"}));
  EXPECT_EQ(status_of(plugins, "torch-frontend"), host::PluginStatus::Loaded);
  EXPECT_EQ(status_of(plugins, "onnx-frontend"), host::PluginStatus::Discovered);
}

TEST(TorchHost, AThirdPartyPluginAddsAnAtenConverterLazily) {
  const auto path = cumsum_program();
  {
    host::PluginHostOptions opts;
    opts.bundled_dirs = {STREAM_BUNDLED_PLUGIN_DIR};
    host::PluginHost plugins(opts);
    const auto msg = error_of([&] { (void)plugins.registries().load_workload(path); });
    EXPECT_NE(msg.find("unsupported ATen operator 'aten::cumsum'"), std::string::npos) << msg;
  }
  host::PluginHostOptions opts;
  opts.bundled_dirs = {STREAM_BUNDLED_PLUGIN_DIR};
  opts.extra_dirs = {STREAM_TORCH_TEST_PLUGIN_DIR};
  host::PluginHost plugins(opts);
  const auto w = plugins.registries().load_workload(path);
  EXPECT_EQ(computation_types(w), (std::vector<std::string>{"CumSum", "Relu"}));
  // y[i, k] sums x[i, j] over j: loops (i, k, j) with j a reduction
  EXPECT_EQ(loop_sizes(w.node_by_name("cumsum")), (std::vector<std::int64_t>{4, 6, 6}));
  EXPECT_EQ(status_of(plugins, "test-aten-cumsum"), host::PluginStatus::Loaded);
  EXPECT_EQ(status_of(plugins, "onnx-frontend"), host::PluginStatus::Discovered);
}

TEST(TorchHost, ParseCommandReadsArchivesAndBindsSymbolicSizes) {
  const auto mlp = run("parse " + (kFixtures / "mlp_dynamic.pt2").string() + " --dim s0=8");
  ASSERT_EQ(mlp.code, 0) << mlp.out;
  EXPECT_NE(mlp.out.find("x bf16[8,16]"), std::string::npos) << mlp.out;
  const auto att = run("parse " + (kFixtures / "attention.pt2").string() + " --format json");
  ASSERT_EQ(att.code, 0) << att.out;
  const auto j = nlohmann::json::parse(att.out);
  EXPECT_EQ(j["totals"]["computation_nodes"], 7);
  EXPECT_EQ(j["totals"]["fusion_edges"], 0);
  EXPECT_EQ(j["totals"]["by_type"]["MatMul"], 6);
}
