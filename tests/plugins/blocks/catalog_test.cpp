// The block catalogue: keys, labels, parameters and defaults, the manifest's "provides" list
// (lazy loading finds a block only through it), and registration through the registries.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include <stream/error.hpp>
#include <stream/registry/registries.hpp>

#include "block_test_util.hpp"

namespace stream::blocks::test {
namespace {

std::vector<std::string> keys() {
  std::vector<std::string> out;
  for (const auto& s : all_block_specs()) out.push_back(s.key);
  return out;
}

TEST(BlockCatalog, HasEveryReferenceBlockAndTheDecoders) {
  EXPECT_EQ(keys(), (std::vector<std::string>{"attention", "gqa", "linear_attention", "mamba", "kv_cache", "swiglu",
                                               "rmsnorm", "moe", "chunked_ssm", "flash_attention", "decoder_layer",
                                               "decoder_stack"}));
}

TEST(BlockCatalog, LabelsFollowTheReference) {
  std::map<std::string, std::string> labels;
  for (const auto& s : all_block_specs()) labels[s.key] = s.label;
  EXPECT_EQ(labels["attention"], "Multi-Head Attention");
  EXPECT_EQ(labels["gqa"], "Grouped-Query Attention");
  EXPECT_EQ(labels["linear_attention"], "Linear Attention (recurrent)");
  EXPECT_EQ(labels["mamba"], "Mamba (SSM state update)");
  EXPECT_EQ(labels["kv_cache"], "KV-Cache Decode Step");
  EXPECT_EQ(labels["swiglu"], "SwiGLU MLP");
  EXPECT_EQ(labels["rmsnorm"], "RMSNorm");
  EXPECT_EQ(labels["moe"], "Mixture-of-Experts");
  EXPECT_EQ(labels["chunked_ssm"], "Chunked SSM");
  EXPECT_EQ(labels["flash_attention"], "Flash Attention (online softmax)");
}

TEST(BlockCatalog, EveryBlockBuildsWithComputationNodesInBf16ByDefault) {
  for (const auto& spec : all_block_specs()) {
    SCOPED_TRACE(spec.key);
    ASSERT_FALSE(spec.description.empty());
    const auto dtype = std::find_if(spec.params.begin(), spec.params.end(), [](auto& p) { return p.name == "dtype"; });
    ASSERT_NE(dtype, spec.params.end());
    EXPECT_EQ(dtype->default_value, "bf16");
    EXPECT_EQ(dtype->type, ParamType::DType);
    const Workload w = build(spec);
    EXPECT_FALSE(w.computation_nodes().empty());
    for (const auto& t : w.tensors()) EXPECT_EQ(t->dtype, DType::bf16) << t->name;
    const Workload w8 = build(spec, {{"dtype", "i8"}});
    for (const auto& t : w8.tensors()) EXPECT_EQ(t->dtype, DType::i8) << t->name;
  }
}

TEST(BlockCatalog, DefaultsMatchTheReferenceConfigs) {
  std::map<std::string, std::map<std::string, std::string>> defaults;
  for (const auto& s : all_block_specs())
    for (const auto& p : s.params) defaults[s.key][p.name] = p.default_value;
  using M = std::map<std::string, std::string>;
  EXPECT_EQ(defaults["attention"], (M{{"batch", "1"}, {"heads", "8"}, {"seq", "128"}, {"d_head", "64"}, {"dtype", "bf16"}}));
  EXPECT_EQ(defaults["gqa"], (M{{"batch", "1"}, {"groups", "2"}, {"reps", "4"}, {"seq", "64"}, {"d_head", "32"},
                                {"dtype", "bf16"}}));
  EXPECT_EQ(defaults["linear_attention"], (M{{"seq", "64"}, {"d_k", "32"}, {"d_v", "32"}, {"dtype", "bf16"}}));
  EXPECT_EQ(defaults["mamba"], (M{{"seq", "256"}, {"d_inner", "512"}, {"d_state", "16"}, {"dtype", "bf16"}}));
  EXPECT_EQ(defaults["kv_cache"],
            (M{{"cache_capacity", "128"}, {"valid_len", "40"}, {"d_head", "64"}, {"dtype", "bf16"}}));
  EXPECT_EQ(defaults["swiglu"], (M{{"tokens", "16"}, {"d_model", "64"}, {"d_ff", "128"}, {"dtype", "bf16"}}));
  EXPECT_EQ(defaults["rmsnorm"], (M{{"tokens", "16"}, {"d_model", "64"}, {"dtype", "bf16"}}));
  EXPECT_EQ(defaults["moe"], (M{{"tokens", "32"}, {"d_model", "64"}, {"d_ff", "128"}, {"experts", "4"},
                                {"capacity", "16"}, {"load_balance", "1.0"}, {"dtype", "bf16"}}));
  EXPECT_EQ(defaults["chunked_ssm"], (M{{"seq", "64"}, {"hidden", "32"}, {"chunk_size", "16"}, {"dtype", "bf16"}}));
  EXPECT_EQ(defaults["flash_attention"],
            (M{{"seq_q", "64"}, {"seq_k", "64"}, {"d_head", "32"}, {"block_size", "16"}, {"dtype", "bf16"}}));
}

TEST(BlockCatalog, ManifestProvidesExactlyTheRegisteredKeys) {
  std::ifstream in(std::string(STREAM_SOURCE_DIR) + "/plugins/blocks/blocks.stream-plugin.json.in");
  ASSERT_TRUE(in.good());
  const auto manifest = nlohmann::json::parse(in);
  EXPECT_EQ(manifest.at("id"), "blocks");
  EXPECT_EQ(manifest.at("provides").at("blocks").get<std::vector<std::string>>(), keys());
}

TEST(BlockCatalog, RegistriesResolveBlocksAndRejectUnknownKeysAndParameters) {
  Registries registries;
  PluginRegistrar registrar(registries, Provenance{"blocks", 0, 0});
  for (auto& s : all_block_specs()) registrar.add_block(std::move(s));
  EXPECT_EQ(registries.block_keys(), keys());
  const BlockSpec& spec = registries.block("attention");
  EXPECT_EQ(spec.key, "attention");
  EXPECT_EQ(build(spec, {{"heads", "2"}, {"seq", "16"}}).node_by_name("scores").outputs[0]->shape,
            (std::vector<std::int64_t>{1, 2, 16, 16}));
  try {
    (void)registries.block("does_not_exist");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("attention"), std::string::npos) << e.what();
  }
  try {
    (void)spec.resolve({{"not_a_real_param", "1"}});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not_a_real_param"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("d_head"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)spec.resolve({{"heads", "many"}}), Error);
  EXPECT_THROW((void)spec.resolve({{"dtype", "c64"}}), Error);  // complex: no element type
}

}  // namespace
// `seq` reaches the sequence length of the blocks that call it `tokens`, so one sweep axis covers
// every block; naming it twice is an error.
TEST(BlockCatalog, TokensAnswersToSeq) {
  for (const auto& spec : all_block_specs())
    for (const auto& p : spec.params)
      if (p.name == "tokens") {
        EXPECT_EQ(spec.resolve({{"seq", "48"}}).get_int("tokens"), 48) << spec.key;
        EXPECT_THROW((void)spec.resolve({{"seq", "48"}, {"tokens", "48"}}), Error) << spec.key;
      }
  Registries registries;
  PluginRegistrar registrar(registries, Provenance{"blocks", 0, 0});
  for (auto& s : all_block_specs()) registrar.add_block(std::move(s));
  const auto& swiglu = registries.block("swiglu");
  const auto w = build(swiglu, {{"seq", "48"}});
  EXPECT_EQ(w.node(w.nodes_of_kind(NodeKind::InEdge).front()).outputs[0]->shape.front(), 48);
}

}  // namespace stream::blocks::test
