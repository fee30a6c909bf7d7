// Parser registration: the manifest declares every built-in op (lazy loading depends on it), a
// later or higher-priority parser overrides a built-in one (layout ops included), and a test
// plugin loaded through the host lowers a fused attention op into the unfused attention's nodes.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "stream_cli.hpp"
#include <plugin_host.hpp>

#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

TEST(Manifest, DeclaresEveryBuiltinOpType) {
  std::ifstream in(STREAM_ONNX_MANIFEST);
  ASSERT_TRUE(in) << STREAM_ONNX_MANIFEST;
  const auto manifest = nlohmann::json::parse(in);
  std::set<std::string> declared;
  for (const auto& op : manifest["provides"]["onnx_ops"]) declared.insert(op.get<std::string>());
  const auto builtin = onnx_frontend::builtin_op_types();
  const std::set<std::string> registered(builtin.begin(), builtin.end());
  EXPECT_EQ(declared, registered);
  EXPECT_EQ(manifest["provides"]["frontends"][0]["name"], "onnx");
}

TEST(Frontend, CanLoadOnlyOnnxPaths) {
  auto fe = onnx_frontend::make_onnx_frontend();
  EXPECT_EQ(fe->name(), "onnx");
  EXPECT_TRUE(fe->can_load("model.onnx"));
  EXPECT_FALSE(fe->can_load("model.pt"));
  EXPECT_FALSE(fe->can_load("model.onnx.txt"));
  EXPECT_THROW((void)registries().frontend_for("model.unknownformat"), Error);
}

TEST(Registry, BuiltinParsersAreFoundAndUnknownOpsAreNot) {
  EXPECT_NE(registries().onnx_parser("MatMul"), nullptr);
  EXPECT_NE(registries().onnx_parser("Reshape"), nullptr);  // layout ops go through the registry too
  EXPECT_EQ(registries().onnx_parser("NoSuchOp"), nullptr);
}

Registries with_override(const std::string& op, OnnxParser parser) {
  Registries reg;
  PluginRegistrar builtin(reg, Provenance{"onnx-frontend", 0, 0});
  onnx_frontend::register_onnx_frontend(builtin);
  PluginRegistrar third(reg, Provenance{"third-party", 0, 1});
  third.add_onnx_parser(op, std::move(parser));
  return reg;
}

TEST(Overrides, ALaterParserReplacesTheBuiltinGemm) {
  auto reg = with_override("Gemm", [](const OnnxNodeView& v, OnnxParseContext& ctx) {
    auto a = ctx.tensor(v.inputs[0].name);
    auto y = ctx.tensor(v.outputs[0].name);
    return std::vector<Node>{make_computation(v.name, "MyGemm", {a}, {y}, {AffineMap::identity(2), AffineMap::identity(2)})};
  });
  ModelBuilder m("g");
  m.input("a", F32, {4, 4}).initializer("b", F32, {4, 4}).output("y", F32);
  m.node("Gemm", {"a", "b"}, {"y"}, "gemm");
  auto w = reg.load_workload(m.save_temp(test_file()));
  EXPECT_EQ(node(w, "gemm").type, "MyGemm");
  // Unregistering restores the built-in.
  reg.onnx_parsers().remove("Gemm", "third-party");
  EXPECT_EQ(node(reg.load_workload(m.save_temp(test_file("2"))), "gemm").type, "Gemm");
}

TEST(Overrides, LayoutOpsCanBeOverriddenToo) {
  // A parser that materializes Transpose as a copy: nothing is left to fold.
  auto reg = with_override("Transpose", [](const OnnxNodeView& v, OnnxParseContext& ctx) {
    auto x = ctx.tensor(v.inputs[0].name);
    auto y = ctx.tensor(v.outputs[0].name);
    const auto perm = v.attr_ints("perm");
    std::vector<int> dims(perm.begin(), perm.end());
    return std::vector<Node>{make_computation(v.name, "TransposeCopy", {x}, {y},
                                              {AffineMap::of_dims(2, dims), AffineMap::identity(2)})};
  });
  ModelBuilder m("g");
  m.input("x", F32, {3, 5}).output("y", F32);
  m.node("Transpose", {"x"}, {"y"}, "t").attr("perm", Shape{1, 0});
  auto w = reg.load_workload(m.save_temp(test_file()));
  EXPECT_EQ(node(w, "t").type, "TransposeCopy");
  EXPECT_EQ(map_of(node(w, "t"), 0), "(d1, d0)");
}

ModelBuilder fused_attention_model() {
  constexpr std::int64_t S = 128, D = 512;
  ModelBuilder m("fused_attention");
  m.opset("com.example", 1);
  m.input("x", BF16, {1, S, D}).output("y", BF16, {1, S, D});
  for (const char* w : {"Wq", "Wk", "Wv", "Wo"}) m.initializer(w, BF16, {D, D});
  m.node("FusedAttention", {"x", "Wq", "Wk", "Wv", "Wo"}, {"y"}, "attn", "com.example").attr("num_heads", 8);
  return m;
}

TEST(TestPlugin, FusedAttentionLowersToTheUnfusedAttentionNodes) {
  host::PluginHostOptions opts;
  opts.bundled_dirs = {std::filesystem::path(STREAM_ONNX_MANIFEST).parent_path()};
  opts.extra_dirs = {STREAM_ONNX_TEST_PLUGIN_DIR};
  host::PluginHost plugins(opts);
  auto fused = plugins.registries().load_workload(fused_attention_model().save_temp(test_file()));
  auto unfused = plugins.registries().load_workload(std::string(STREAM_INPUTS_DIR) + "/workload/attention_pytorch.onnx");
  EXPECT_EQ(fused.computation_nodes().size(), 7u);
  EXPECT_EQ(count_kind(fused, NodeKind::FusionEdge), 0u);
  EXPECT_EQ(signature(fused), signature(unfused));
  // Both plugins were loaded lazily, because their manifests declare what was needed.
  int loaded = 0;
  for (const auto& r : plugins.plugins()) loaded += r.status == host::PluginStatus::Loaded ? 1 : 0;
  EXPECT_EQ(loaded, 2);
}

TEST(TestPlugin, WithoutThePluginTheFusedOpIsUnsupported) {
  expect_error([] { (void)parse(fused_attention_model()); }, {"FusedAttention", "com.example", "add_onnx_parser"});
}

TEST(TestPlugin, TheNoParserErrorNamesThePluginThatDeclaredTheOp) {
  host::PluginHostOptions opts;
  opts.bundled_dirs = {std::filesystem::path(STREAM_ONNX_MANIFEST).parent_path()};
  opts.extra_dirs = {STREAM_ONNX_DECLARING_PLUGIN_DIR};
  host::PluginHost plugins(opts);
  ModelBuilder m("declared");
  m.opset("com.example", 1);
  m.input("x", F32, {4}).output("y", F32, {4});
  m.node("NeverParsedOp", {"x"}, {"y"}, "never", "com.example");
  const auto manifest = std::string(STREAM_ONNX_DECLARING_PLUGIN_DIR) + "/declares-unregistered.stream-plugin.json";
  // The manifest declares the op, so the lookup loaded the plugin, which registered nothing.
  expect_error([&] { (void)plugins.registries().load_workload(m.save_temp(test_file())); },
               {"at node 'never': no parser is registered for op type 'NeverParsedOp' (plugin "
                "'test-declares-unregistered' (" + manifest + ") declares it in its manifest but did not register it)",
                "add_onnx_parser(\"NeverParsedOp\""});
  const auto& list = plugins.plugins();
  const auto r = std::find_if(list.begin(), list.end(), [](const auto& p) { return p.manifest.id == "test-declares-unregistered"; });
  ASSERT_NE(r, list.end());
  EXPECT_EQ(r->status, host::PluginStatus::Loaded);
  EXPECT_EQ(r->warnings.size(), 1u);
  // stream_add_plugin() wrote the ABI fields into the manifest from plugin.hpp.
  EXPECT_EQ(r->manifest.abi_version, STREAM_PLUGIN_ABI_VERSION);
  EXPECT_EQ(r->manifest.abi_minor, STREAM_PLUGIN_ABI_MINOR);
}

// `stream parse` end to end, through the built executable and its bundled plugins.
stream::test::CliResult run(const std::string& args) { return stream::test::run_stream(args); }

TEST(ParseCommand, JsonFollowsTheDocumentedSchema) {
  auto [code, out] = run("parse " + std::string(STREAM_INPUTS_DIR) + "/workload/2conv_1_8_32_32_16_32_3.onnx --format json");
  ASSERT_EQ(code, 0) << out;
  const auto j = nlohmann::json::parse(out);
  ASSERT_EQ(j["nodes"].size(), 6u);
  const auto& conv = j["nodes"][3];
  EXPECT_EQ(conv["name"], "Conv1");
  EXPECT_EQ(conv["type"], "Conv");
  EXPECT_EQ(conv["kind"], "computation");
  ASSERT_EQ(conv["loop_dims"].size(), 7u);
  EXPECT_EQ(conv["loop_dims"][5]["name"], "c");
  EXPECT_EQ(conv["loop_dims"][5]["size"], 8);
  EXPECT_EQ(conv["loop_dims"][5]["iterator"], "reduction");
  ASSERT_EQ(conv["operands"].size(), 3u);
  EXPECT_EQ(conv["operands"][0]["tensor"], "input");
  EXPECT_EQ(conv["operands"][0]["role"], "input");
  EXPECT_EQ(conv["operands"][0]["dtype"], "bf16");
  EXPECT_EQ(conv["operands"][0]["shape"], nlohmann::json({1, 8, 32, 32}));
  EXPECT_EQ(conv["operands"][0]["map"], "(d0, d1, d2, d3, d4, d5, d6) -> (d0, d5, ((d2 + d4) + -1), ((d1 + d3) + -1))");
  EXPECT_EQ(conv["operands"][0]["access"], "affine");
  EXPECT_EQ(conv["operands"][2]["role"], "output");
  EXPECT_EQ(j["nodes"][0]["kind"], "in_edge");
  EXPECT_EQ(j["nodes"][5]["kind"], "out_edge");
  EXPECT_EQ(j["totals"]["nodes"], 6);
  EXPECT_EQ(j["totals"]["computation_nodes"], 2);
  EXPECT_EQ(j["totals"]["unique_dims"], 12);
  EXPECT_EQ(j["totals"]["by_type"]["Conv"], 2);
}

TEST(ParseCommand, PluginDirAddsTheFusedAttentionParser) {
  const auto model = fused_attention_model().save_temp(test_file());
  auto [without, msg] = run("parse " + model.string());
  EXPECT_EQ(without, 2);
  EXPECT_NE(msg.find("FusedAttention"), std::string::npos) << msg;
  auto [code, out] = run("parse " + model.string() + " --plugin-dir " + STREAM_ONNX_TEST_PLUGIN_DIR + " --format json");
  ASSERT_EQ(code, 0) << out;
  const auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["totals"]["computation_nodes"], 7);
  EXPECT_EQ(j["totals"]["by_type"]["MatMul"], 6);
}

TEST(ParseCommand, TextAndErrors) {
  auto [code, out] = run("parse " + std::string(STREAM_INPUTS_DIR) + "/workload/swiglu_1_16_32.onnx");
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("Gemm_Left  Gemm  (computation)"), std::string::npos) << out;
  EXPECT_NE(out.find("10 nodes"), std::string::npos) << out;
  auto [bad, msg] = run("parse /nonexistent/model.onnx");
  EXPECT_EQ(bad, 2);
  EXPECT_NE(msg.find("/nonexistent/model.onnx"), std::string::npos) << msg;
}

}  // namespace
