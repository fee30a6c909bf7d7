// The sweep axis `mapping: search` end to end: the swiglu block (tokens 16, d_model 64, d_ff 128)
// on simba (36 generic chiplets, as a 4 x 8 array) searched over every variant, and the 2-conv,
// which is not SwiGLU-shaped, failing its point with that reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "stream_cli.hpp"
#include "sweep_rows.hpp"

namespace fs = std::filesystem;

namespace {

}  // namespace

// The block's matmuls loop over (m, n, k), so they split D0 (m) and D1 (n). On 4 x 8 the
// options are Gemm (4,1), (4,2), (4,4) and Silu/Mul (1), (4) (seq 16 and the other dims have
// the divisors needed): 3*3*2*2*3 = 108 combinations. Silu + Mul take 2, 5 (2 ways) or 8 cores,
// leaving 34, 31, 28 of the 36 for the three Gemm totals over {4, 8, 16}: the 8 triples without
// a 16 (<= 24) always fit; with one 16 (3 places) the other two (4,4), (4,8), (8,4), (8,8) sum
// to 8, 12, 12, 16, so 4 fit under 34 - 16 = 18 and 3 under 15 and 12; two 16s never fit.
// (8 + 12) + 2 * (8 + 9) + (8 + 9) = 71 variants, all evaluated (max 100).
TEST(SweepSearch, SearchAxisGivesTheBestVariant) {
  const auto dir = stream::test::fresh_scratch_dir("sweep", "search");
  fs::copy_file(fs::path(STREAM_INPUTS_DIR) / "workload" / "2conv_1_8_32_32_16_32_3.onnx", dir / "2conv.onnx");
  std::ofstream(dir / "sweep.yaml") << "axes:\n  hardware: [simba.yaml]\n  workload: [\"block:swiglu\", 2conv.onnx]\n"
                                       "  mapping: [\"search?max=100&seq_tile=4&emb_tile=16&hidden_tile=32\"]\n";
  const auto r = stream::test::run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rs.size(), 2u);
  ASSERT_EQ(rs[0]["status"], "ok") << rs[0];
  EXPECT_EQ(rs[0]["variants_evaluated"], 71);
  EXPECT_EQ(rs[0]["variants_failed"], 0);
  // A tag of the block's node names and loop dims; every Gemm split is (4, x).
  const auto tag = rs[0]["mapping_variant"].get<std::string>();
  EXPECT_EQ(tag.rfind("gate_proj_D0x4_D1x", 0), 0u) << tag;
  EXPECT_NE(tag.find("__down_proj_D0x4_D1x"), std::string::npos) << tag;
  EXPECT_GT(rs[0]["latency"].get<double>(), 0);
  EXPECT_EQ(rs[1]["status"], "failed");
  EXPECT_NE(rs[1]["reason"].get<std::string>().find("not a SwiGLU-shaped workload (mapping search): no Silu node"),
            std::string::npos)
      << rs[1];
  // The csv has the search's columns.
  EXPECT_NE(stream::test::read(dir / "out" / "results.csv").find("mapping_variant,variants_evaluated"), std::string::npos);
}

// `stream run --mapping search?...`: the winner's results, its full mapping and every variant's
// latency. max=5: the summary's latency is the lowest of the five listed (the first one if tied).
TEST(SweepSearch, RunWithMappingSearchWritesTheWinner) {
  const auto dir = stream::test::fresh_scratch_dir("sweep", "run_search");
  const auto r = stream::test::run_stream("run --hardware hardware/simba.yaml --block swiglu --mapping "
                                          "\"search?max=5&seq_tile=4&emb_tile=16&hidden_tile=32\" --out " +
                                          dir.string() + " --experiment-id s");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto listing = stream::test::read(dir / "s" / "mapping_search.yaml");
  std::vector<std::int64_t> latencies;
  for (std::size_t at = 0; (at = listing.find("latency: ", at)) != std::string::npos; at += 9)
    latencies.push_back(std::stoll(listing.substr(at + 9)));
  ASSERT_EQ(latencies.size(), 5u) << listing;
  const auto best = std::min_element(latencies.begin(), latencies.end()) - latencies.begin();
  EXPECT_NE(listing.find("best: " + std::to_string(best) + "\n"), std::string::npos) << listing;
  const auto summary = nlohmann::json::parse(stream::test::read(dir / "s" / "summary.json"));
  EXPECT_EQ(summary["total_latency"].get<std::int64_t>(), latencies[static_cast<std::size_t>(best)]);
  // The winner's mapping, kernels included, reads back as a mapping file.
  const auto mapping = stream::test::read(dir / "s" / "best_mapping.yaml");
  EXPECT_NE(mapping.find("name: gate_proj"), std::string::npos) << mapping;
  EXPECT_NE(mapping.find("eltwise_mul"), std::string::npos) << mapping;
  // One folder per variant, as the reference's <out>/<i>/: its latency and its mapping (the
  // winner's is best_mapping.yaml).
  EXPECT_EQ(std::distance(fs::directory_iterator(dir / "s" / "variants"), fs::directory_iterator{}), 5);
  for (std::size_t i = 0; i < latencies.size(); ++i) {
    const auto variant = dir / "s" / "variants" / std::to_string(i);
    EXPECT_EQ(stream::test::read(variant / "latency.yaml"), "latency: " + std::to_string(latencies[i]) + "\n") << i;
    EXPECT_TRUE(fs::exists(variant / "mapping.yaml")) << i;
    EXPECT_FALSE(fs::exists(variant / "infeasibility.txt")) << i;
  }
  EXPECT_EQ(stream::test::read(dir / "s" / "variants" / std::to_string(best) / "mapping.yaml"), mapping);
  const auto check = stream::test::run_stream("run --hardware hardware/simba.yaml --block swiglu --mapping " +
                                              (dir / "s" / "best_mapping.yaml").string() + " --out " + dir.string() +
                                              " --experiment-id again");
  ASSERT_EQ(check.code, 0) << check.out;
  const auto again = nlohmann::json::parse(stream::test::read(dir / "again" / "summary.json"));
  EXPECT_EQ(again["total_latency"], summary["total_latency"]);
}
