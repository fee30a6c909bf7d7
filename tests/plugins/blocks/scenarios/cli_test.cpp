// `stream blocks list|show` end to end: the real executable, loading the bundled blocks plugin
// lazily through its manifest.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "stream_cli.hpp"

namespace {

using Result = stream::test::CliResult;

Result run(const std::string& args) { return stream::test::run_stream(args); }

TEST(BlocksCli, ListShowsEveryBlockWithItsParameters) {
  const Result r = run("blocks list");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* key : {"attention", "gqa", "linear_attention", "mamba", "kv_cache", "swiglu", "rmsnorm", "moe",
                          "chunked_ssm", "flash_attention", "decoder_layer", "decoder_stack"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key;
  EXPECT_NE(r.out.find("Multi-Head Attention"), std::string::npos);
  EXPECT_NE(r.out.find("cache_capacity"), std::string::npos);
  const Result j = run("blocks list --format json");
  ASSERT_EQ(j.code, 0) << j.out;
  const auto blocks = nlohmann::json::parse(j.out);
  ASSERT_TRUE(blocks.is_array());
  EXPECT_EQ(blocks.size(), 12u);
  EXPECT_EQ(blocks[0].at("key"), "attention");
  EXPECT_EQ(blocks[0].at("params")[2].at("name"), "seq");
  EXPECT_EQ(blocks[0].at("params")[2].at("default"), "128");
}

TEST(BlocksCli, ShowBuildsWithParameters) {
  const Result r = run("blocks show attention --param heads=2 --param seq=16 --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("num_nodes"), 13);
  EXPECT_EQ(j.at("num_edges"), 14);
  EXPECT_EQ(j.at("num_unique_dimensions"), 8);
  EXPECT_EQ(j.at("params").at("heads"), "2");
  const auto& scores = j.at("nodes")[7];
  EXPECT_EQ(scores.at("name"), "scores");
  std::vector<std::int64_t> sizes;
  std::string iters;
  for (const auto& d : scores.at("loop_dims")) {
    sizes.push_back(d.at("size").get<std::int64_t>());
    iters += d.at("iterator").get<std::string>()[0];
  }
  EXPECT_EQ(sizes, (std::vector<std::int64_t>{1, 2, 16, 16, 64}));
  EXPECT_EQ(iters, "ppppr");
  EXPECT_EQ(scores.at("inputs")[1].at("map"), "(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)");
  const Result text = run("blocks show moe");
  ASSERT_EQ(text.code, 0) << text.out;
  EXPECT_NE(text.out.find("data_dependent by router_logits"), std::string::npos) << text.out;
}

TEST(BlocksCli, UnknownKeyOrParameterIsAClearError) {
  const Result key = run("blocks show no_such_block");
  EXPECT_EQ(key.code, 2);
  EXPECT_NE(key.out.find("no_such_block"), std::string::npos) << key.out;
  EXPECT_NE(key.out.find("flash_attention"), std::string::npos) << key.out;
  const Result param = run("blocks show swiglu --param width=3");
  EXPECT_EQ(param.code, 2);
  EXPECT_NE(param.out.find("width"), std::string::npos) << param.out;
  EXPECT_NE(param.out.find("d_ff"), std::string::npos) << param.out;
  const Result value = run("blocks show swiglu --param tokens=-1");
  EXPECT_EQ(value.code, 2) << value.out;
  const Result malformed = run("blocks show swiglu --param tokens");
  EXPECT_EQ(malformed.code, 2) << malformed.out;
}

}  // namespace
