// A sweep marks the points whose figures rest on ideal-cycle estimates (issue 33): the reference's
// fp32 2-conv on the TPU-like quad core, uncast and cast to bf16. Uncast, the 16-bit output
// registers hold no 32-bit partial sum, so both convolutions are estimates on all four cores (8
// pairs) and every compute cycle of the run rests on them: 100 % of the latency. Cast, the model
// costs every pair: 0 and 0 %. The columns reach results.jsonl, results.csv and pareto.csv; the
// report's data carry the front of the exact points apart; --strict fails the uncast point with
// the first pair and the reason, keeps the other, writes every file and exits 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "stream_cli.hpp"
#include "sweep_rows.hpp"

namespace fs = std::filesystem;
using stream::test::read;
using stream::test::run_stream;

namespace {

fs::path fixture(const std::string& name) {
  const auto dir = stream::test::fresh_scratch_dir("sweep", name);
  std::ofstream(dir / "sweep.yaml") << "axes:\n"
                                       "  hardware: ['"
                                    << STREAM_INPUTS_DIR << "/hardware/tpu_like_quad_core.yaml']\n"
                                    << "  workload: ['" << STREAM_TEST_DATA_DIR
                                    << "/reference/stream-inputs/workload/2_conv.onnx']\n"
                                       "  cast: [none, bf16]\n";
  return dir;
}

nlohmann::json report_data(const fs::path& html_file) {
  const auto html = read(html_file);
  const std::string open = "<script type=\"application/json\" id=\"sweep-data\">";
  const auto from = html.find(open) + open.size();
  return nlohmann::json::parse(html.substr(from, html.find("</script>", from) - from));
}

std::string header(const std::string& csv) { return csv.substr(0, csv.find('\n')); }

}  // namespace

TEST(SweepEstimates, RowsCarryTheCountAndTheShares) {
  const auto dir = fixture("estimates");
  const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string() + " --jobs 1");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0]["status"], "ok");
  EXPECT_EQ(rs[0]["estimates"], 8);
  EXPECT_EQ(rs[0]["estimate_latency_share"], 100.0);
  EXPECT_EQ(rs[1]["status"], "ok");
  EXPECT_EQ(rs[1]["estimates"], 0);
  EXPECT_EQ(rs[1]["estimate_latency_share"], 0.0);
  EXPECT_EQ(rs[1]["estimate_energy_share"], 0.0);
  for (const char* file : {"results.csv", "pareto.csv"})
    EXPECT_NE(header(read(dir / "out" / file)).find(",estimates,estimate_latency_share,estimate_energy_share,"),
              std::string::npos)
        << file;
  // The report's exact front holds the cast point alone: the other rests on estimates.
  const auto data = report_data(dir / "out" / "report.html");
  EXPECT_EQ(data["pareto_exact"], nlohmann::json::array({rs[1]["id"]}));
}

TEST(SweepEstimates, StrictFailsThePointAndExitsTwoAfterWritingEverything) {
  const auto dir = fixture("estimates_strict");
  const auto r =
      run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string() + " --jobs 1 --strict");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error: 1 of 2 points rest on estimates for Conv/Gemm/MatMul-like nodes"), std::string::npos)
      << r.out;
  const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0]["status"], "failed");
  EXPECT_EQ(rs[0]["reason"].get<std::string>().rfind(
                "--strict: group 0 node 'conv1' (Conv) on core 0 would be an ideal-cycle estimate, not a per-core "
                "model figure: no loop ordering fits: memory 'rf_2B' holds 16 bits",
                0),
            0u)
      << rs[0]["reason"];
  EXPECT_EQ(rs[1]["status"], "ok");
  EXPECT_TRUE(fs::exists(dir / "out" / "results.csv"));
  EXPECT_TRUE(fs::exists(dir / "out" / "report.html"));
}
