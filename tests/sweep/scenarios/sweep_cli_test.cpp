// `stream sweep` end to end: the simplest sweep file as written, failure rows, resume
// after a partial run, shards merged back, and several threads giving the rows one thread gives.
// Latencies are the reference's goldens (2-conv: 14344 on tpu_like_quad_core, 10750 on
// simba_small), areas its hardware-cost figures (8.1866368 and 5.4525952 mm²).
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

const fs::path kInputs(STREAM_INPUTS_DIR);

// A folder with the sweep file and the files it names beside it, as a user would have it.
fs::path fixture(const std::string& name, const std::string& sweep_text) {
  const auto dir = stream::test::fresh_scratch_dir("sweep", name);
  for (const char* h : {"tpu_like_quad_core.yaml", "simba_small.yaml"}) fs::copy_file(kInputs / "hardware" / h, dir / h);
  fs::copy(kInputs / "hardware" / "cores", dir / "cores");
  for (const char* c : {"simba_chiplet.yaml", "simba_offchip.yaml"}) fs::copy_file(kInputs / "hardware" / "cores" / c, dir / c);
  fs::copy_file(kInputs / "workload" / "2conv_1_8_32_32_16_32_3.onnx", dir / "2conv.onnx");
  std::ofstream(dir / "sweep.yaml") << sweep_text;
  return dir;
}

const std::string kSimplest =
    "axes:\n"
    "  hardware: [tpu_like_quad_core.yaml, simba_small.yaml]\n"
    "  workload: [2conv.onnx, \"block:swiglu?seq=64\"]\n";

}  // namespace

TEST(SweepCli, TheSimplestSweepFileAsWritten) {
  const auto dir = fixture("simplest", kSimplest);
  const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rs.size(), 4u);
  EXPECT_EQ(rs[0]["hardware"], "tpu_like_quad_core.yaml");
  EXPECT_EQ(rs[0]["workload"], "2conv.onnx");
  EXPECT_EQ(rs[0]["status"], "ok");
  EXPECT_EQ(rs[0]["latency"], 14344);
  EXPECT_NEAR(rs[0]["area_mm2"].get<double>(), 8.1866368, 1e-9);
  // The fullest memory of the 2-conv on the quad core (derived in tests/pipeline/memory_use_test.cpp):
  // core 0, the first of four equally full cores.
  EXPECT_EQ(rs[0]["peak_memory_core"], 0);
  EXPECT_EQ(rs[0]["peak_memory_bits"], 278528.0);
  EXPECT_EQ(rs[0]["peak_memory_share"], 1.66);  // 278,528 / 16,777,216 bits
  EXPECT_EQ(rs[2]["latency"], 10750);
  EXPECT_NEAR(rs[2]["area_mm2"].get<double>(), 5.4525952, 1e-9);
  // `seq` is the swiglu block's alias of `tokens` (as the other blocks call the sequence length):
  // those points give what `stream run --block swiglu --param tokens=64` gives.
  for (int k : {1, 3}) {
    EXPECT_EQ(rs[k]["status"], "ok") << rs[k];
    const auto run = run_stream("run --block swiglu --param tokens=64 --hardware " + (dir / rs[k]["hardware"].get<std::string>()).string() +
                                " --out " + (dir / "run").string());
    const auto at = run.out.find("Total latency:");
    ASSERT_NE(at, std::string::npos) << run.out;
    EXPECT_EQ(rs[k]["latency"].get<std::int64_t>(), std::stoll(run.out.substr(at + 14))) << rs[k];
  }
  // The front, checked pairwise here: the rows no other row beats on latency, energy and area.
  std::vector<nlohmann::json> front;
  for (const auto& a : rs) {
    bool dominated = false;
    for (const auto& b : rs) {
      bool no_worse = true, better = false;
      for (const char* key : {"latency", "energy_pj", "area_mm2"}) {
        no_worse = no_worse && b[key].get<double>() <= a[key].get<double>();
        better = better || b[key].get<double>() < a[key].get<double>();
      }
      dominated = dominated || (no_worse && better);
    }
    if (!dominated) front.push_back(a["id"]);
  }
  const auto pareto = read(dir / "out" / "pareto.csv");
  EXPECT_EQ(std::count(pareto.begin(), pareto.end(), '\n'), static_cast<std::ptrdiff_t>(front.size() + 1)) << pareto;
  // report.html carries the same rows (without the clock reading wall_s) and the front's ids.
  const auto html = read(dir / "out" / "report.html");
  const std::string open = "<script type=\"application/json\" id=\"sweep-data\">";
  ASSERT_NE(html.find(open), std::string::npos);
  const auto from = html.find(open) + open.size();
  const auto data = nlohmann::json::parse(html.substr(from, html.find("</script>", from) - from));
  ASSERT_EQ(data["rows"].size(), 4u);
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_FALSE(data["rows"][k].contains("wall_s"));
    auto without_clock = rs[k];
    without_clock.erase("wall_s");
    EXPECT_EQ(data["rows"][k], without_clock);
  }
  EXPECT_EQ(data["pareto"], nlohmann::json(front));
  const auto csv = read(dir / "out" / "results.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "point,id,hardware,workload,area_mm2,peak_energy_pj_per_cycle,latency,energy_pj,edp,"
            "mac_spatial_utilization,end_to_end_mac_utilization,estimates,estimate_latency_share,estimate_energy_share,"
            "peak_memory_core,peak_memory_bits,peak_memory_share,status,reason,wall_s");
}

// --keep-points: every ok point's full results under points/<id>/, the same figures as its row
// (the summary's latency), and the row names the point's report, which report.html links.
TEST(SweepCli, KeptPointsHaveTheirFullResultsLinkedFromTheReport) {
  const auto dir = fixture("keep", "axes:\n  hardware: [tpu_like_quad_core.yaml, simba_small.yaml]\n");
  const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string() + " --keep-points");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rs.size(), 2u);
  for (const auto& row : rs) {
    const std::string id = row["id"].get<std::string>();
    EXPECT_EQ(row["report"], "points/" + id + "/report.html");
    const auto point = dir / "out" / "points" / id;
    ASSERT_TRUE(fs::exists(point / "report.html")) << point;
    ASSERT_TRUE(fs::exists(point / "group_0" / "schedule.svg")) << point;
    const auto summary = nlohmann::json::parse(read(point / "summary.json"));
    EXPECT_EQ(summary["total_latency"], row["latency"]);
  }
  EXPECT_EQ(rs[0]["latency"], 14344);
  EXPECT_EQ(rs[1]["latency"], 10750);
  // The sweep page's table makes the column a link (the page script's rule for `report`).
  EXPECT_NE(read(dir / "out" / "report.html").find("\"report\":\"points/" + rs[0]["id"].get<std::string>()), std::string::npos);
  // Without the flag nothing is kept.
  const auto plain = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "plain").string());
  ASSERT_EQ(plain.code, 0) << plain.out;
  EXPECT_FALSE(fs::exists(dir / "plain" / "points"));
  EXPECT_FALSE(stream::test::sweep_rows(dir / "plain" / "results.jsonl")[0].contains("report"));
}

TEST(SweepCli, AMissingFileIsAFailedRowAndTheOthersRun) {
  const auto dir = fixture("missing", "axes:\n  hardware: [tpu_like_quad_core.yaml, nowhere.yaml]\n");
  const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0]["latency"], 14344);
  EXPECT_EQ(rs[1]["status"], "failed");
  EXPECT_NE(rs[1]["reason"].get<std::string>().find("hardware 'nowhere.yaml': no such file"), std::string::npos);
}

TEST(SweepCli, ResumesSkippingThePointsAlreadyDone) {
  const auto dir = fixture("resume", "axes:\n  hardware: [tpu_like_quad_core.yaml, simba_small.yaml]\n"
                                     "  intra_core_tiling: [\"\", \"Conv1.D0=1\"]\n");
  const auto sweep = "sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string();
  ASSERT_EQ(run_stream(sweep).code, 0);
  const auto full = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(full.size(), 4u);
  // As a sweep killed after two points leaves it, with a last line cut short, and a line nested
  // 100,000 deep between them (a hostile or corrupt file: read as no row, not a stack overflow).
  std::string kept;
  {
    std::ifstream in(dir / "out" / "results.jsonl");
    std::string l1, l2;
    std::getline(in, l1);
    std::getline(in, l2);
    const std::string deep = "{\"point\": 9, \"id\": \"deep\", \"x\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    kept = l1 + "\n" + deep + "\n" + l2 + "\n" + "{\"point\": 2, \"id\": \"";
  }
  std::ofstream(dir / "out" / "results.jsonl") << kept;
  const auto r = run_stream(sweep);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("resuming: 2 of 4 points already done"), std::string::npos) << r.out;
  EXPECT_EQ(stream::test::sweep_rows(dir / "out" / "results.jsonl"), full);
}

TEST(SweepCli, ShardsMergeIntoTheUnshardedResultAndThreadsChangeNothing) {
  const auto dir = fixture("shards", "axes:\n  hardware: [tpu_like_quad_core.yaml, simba_small.yaml]\n"
                                     "  cast: [none, bf16]\n  intra_core_tiling: [\"\", \"Conv1.D0=1\"]\n");
  const auto base = "sweep " + (dir / "sweep.yaml").string();
  ASSERT_EQ(run_stream(base + " --out " + (dir / "one").string() + " --jobs 1").code, 0);
  ASSERT_EQ(run_stream(base + " --out " + (dir / "two").string() + " --jobs 2").code, 0);
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(run_stream(base + " --out " + (dir / ("s" + std::to_string(i))).string() + " --shard " + std::to_string(i) + "/3").code, 0);
  const auto m = run_stream("sweep merge " + (dir / "s0").string() + " " + (dir / "s1").string() + " " +
                            (dir / "s2").string() + " --out " + (dir / "merged").string());
  ASSERT_EQ(m.code, 0) << m.out;
  const auto one = stream::test::sweep_rows(dir / "one" / "results.jsonl");
  ASSERT_EQ(one.size(), 8u);
  EXPECT_EQ(stream::test::sweep_rows(dir / "two" / "results.jsonl"), one);
  EXPECT_EQ(stream::test::sweep_rows(dir / "merged" / "results.jsonl"), one);
  EXPECT_EQ(stream::test::sweep_rows(dir / "s1" / "results.jsonl").size(), 3u);  // points 1, 4, 7
}

TEST(SweepCli, BadSweepFileIsExit2WithItsLine) {
  const auto dir = fixture("bad", "axes:\n  hardware: tpu_like_quad_core.yaml\n");
  const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("sweep.yaml:2:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("must be a non-empty list"), std::string::npos) << r.out;
  EXPECT_EQ(run_stream("sweep " + (dir / "sweep.yaml").string() + " --shard 3/3").code, 2);
}

// Overrides: the same array size gives the golden (the override machinery changes nothing else);
// 16x16 arrays give the area derived in HardwareOverrides.ACoreNameSelectsEveryCoreOfThatName.
TEST(SweepCli, HardwareOverridesMakeVariantsOfOneFile) {
  const auto dir = fixture("overrides",
                           "axes:\n  hardware: [tpu_like_quad_core.yaml]\n"
                           "  hardware/cores/tpu_like/operational_array/sizes: [[32, 32], [16, 16]]\n");
  const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0]["hardware/cores/tpu_like/operational_array/sizes"], "[32, 32]");
  EXPECT_EQ(rs[0]["latency"], 14344);
  EXPECT_NEAR(rs[0]["area_mm2"].get<double>(), 8.1866368, 1e-12);
  EXPECT_EQ(rs[1]["status"], "ok");
  EXPECT_NEAR(rs[1]["area_mm2"].get<double>(), 8.1866368 - 0.9290752, 1e-12);
  EXPECT_NE(rs[0]["id"], rs[1]["id"]);
}

// An override path is checked against the first hardware file before any point runs: the issue's
// typo stops the sweep at its line (exit 2), naming the path and the keys there, and writes nothing.
TEST(SweepCli, AnOverrideTypoStopsTheSweepAtItsLine) {
  const auto dir = fixture("override-typo", "axes:\n  hardware: [tpu_like_array.yaml]\n  hardware/array/cuont: [1, 2]\n");
  const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("sweep.yaml:3:3: hardware/array/cuont: no 'cuont' at array in tpu_like_array.yaml"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("there: the keys core, count, link_bandwidth, offchip, bus_bandwidth (did you mean 'count'?)"),
            std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "out"));
  // The default hardware (no hardware axis) is the file checked; a core name that is not there.
  std::ofstream(dir / "sweep.yaml") << "axes:\n  hardware/cores/tpu_lik/operational_array/sizes: [[16, 16]]\n";
  const auto d = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(d.code, 2) << d.out;
  EXPECT_NE(d.out.find("sweep.yaml:2:3: hardware/cores/tpu_lik/operational_array/sizes: no 'tpu_lik' at cores"),
            std::string::npos) << d.out;
  EXPECT_NE(d.out.find("did you mean 'tpu_like'?"), std::string::npos) << d.out;
}

TEST(SweepCli, AnOverrideValueOfTheWrongTypeStopsTheSweepAtItsLine) {
  const auto dir = fixture("override-type", "axes:\n  hardware: [tpu_like_array.yaml]\n  hardware/array/count: [2, two]\n");
  const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("sweep.yaml:3:29: hardware/array/count: value 'two' is text, but tpu_like_array.yaml has a "
                       "number there ('4')"),
            std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "out"));
  // `stream sweep submit` reads the sweep first: the same error, before any script is written.
  const auto s = run_stream("sweep submit " + (dir / "sweep.yaml").string() + " --slurm --dry-run --out " + (dir / "slurm").string());
  EXPECT_EQ(s.code, 2) << s.out;
  EXPECT_NE(s.out.find("sweep.yaml:3:29:"), std::string::npos) << s.out;
  EXPECT_FALSE(fs::exists(dir / "slurm" / "shards.sbatch"));
}

// Axis values keep their YAML type in the rows (a number was "2"); a rerun says it resumes, and
// --restart evaluates every point again (a row tampered with is recomputed, not kept).
TEST(SweepCli, NumbersStayNumbersARerunSaysItResumesAndRestartStartsOver) {
  const auto dir = fixture("typed", "axes:\n  hardware: [tpu_like_array.yaml]\n  hardware/array/count: [1, 2]\n"
                                    "  cast: [none, \"bf16\"]\n");
  const auto sweep = "sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string();
  const auto first = run_stream(sweep);
  ASSERT_EQ(first.code, 0) << first.out;
  const auto rows = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_TRUE(rows[2]["hardware/array/count"].is_number_integer()) << rows[2];
  EXPECT_EQ(rows[2]["hardware/array/count"], 2);
  EXPECT_EQ(rows[3]["cast"], "bf16");
  EXPECT_EQ(read(dir / "out" / "results.csv").find("\"2\""), std::string::npos);

  const auto again = run_stream(sweep);
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_NE(again.out.find("resuming: 4 of 4 points already done in " + (dir / "out").string() + " (--restart starts over)"),
            std::string::npos) << again.out;

  // A row made wrong by hand and a points folder with a killed run's staging folder in it.
  std::string text = read(dir / "out" / "results.jsonl");
  const auto latency = rows[0]["latency"].get<std::int64_t>();
  const auto at = text.find("\"latency\":" + std::to_string(latency));
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 10 + std::to_string(latency).size(), "\"latency\":1");
  std::ofstream(dir / "out" / "results.jsonl") << text;
  fs::create_directories(dir / "out" / "points" / ".old.partial-x");
  const auto restarted = run_stream(sweep + " --restart");
  ASSERT_EQ(restarted.code, 0) << restarted.out;
  EXPECT_NE(restarted.out.find("4 points, 0 already in"), std::string::npos) << restarted.out;
  const auto after = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(after.size(), 4u);
  EXPECT_EQ(after[0]["latency"], latency);
  EXPECT_FALSE(fs::exists(dir / "out" / "points"));
}

// A point's identity covers the core files its hardware names: editing one reruns the point.
TEST(SweepCli, EditingACoreFileChangesThePointsIdentity) {
  const auto dir = fixture("core-edit", "axes:\n  hardware: [tpu_like_quad_core.yaml]\n");
  const std::string cmd = "sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string();
  ASSERT_EQ(run_stream(cmd).code, 0);
  const auto before = stream::test::sweep_rows(dir / "out" / "results.jsonl").at(0)["id"];
  std::ofstream(dir / "cores" / "tpu_like.yaml", std::ios::app) << "# edited\n";
  const auto rerun = run_stream(cmd);
  ASSERT_EQ(rerun.code, 0);
  EXPECT_NE(rerun.out.find("1 points, 0 already in"), std::string::npos) << rerun.out;
  const auto after = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(after.size(), 1u);
  EXPECT_NE(after[0]["id"], before);
}

TEST(SweepCli, AHardwareFilesWarningShowsOncePerSweepNotPerPoint) {
  // Four points on tpu_like_quad_core.yaml, whose bus replaces its 12 links, over two threads and
  // with the bus's bandwidth overridden (each point reads the file again): the one-line summary
  // comes once, and the full list of replacements (validate's) never.
  const auto dir = fixture("warn_once",
                           "axes:\n"
                           "  hardware: [tpu_like_quad_core.yaml]\n"
                           "  workload: [2conv.onnx]\n"
                           "  hardware/core_connectivity/12/bandwidth: [64, 128, 256, 512]\n");
  const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string() + " --jobs 2");
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_EQ(stream::test::sweep_rows(dir / "out" / "results.jsonl").size(), 4u);
  const std::string summary = "12 links of core_connectivity are replaced by the bus at line 69";
  const auto first = r.out.find(summary);
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(summary, first + 1), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("replaces core_connectivity"), std::string::npos) << r.out;
}

TEST(SweepCli, HardwareTheCostModelCannotUseFailsItsPoint) {
  // Issue 33: every point of a core file without port allocations was `ok`, ranked on estimates.
  const fs::path source(STREAM_SOURCE_DIR);
  const auto broken = source / "tests" / "data" / "hardware" / "mesh_8core_32x32_no_allocation.yaml";
  const auto dir = fixture("no_allocation", "axes:\n  hardware: [" + (kInputs / "hardware" / "mesh_8core_32x32.yaml").string() +
                                                ", " + broken.string() + "]\n  workload: [2conv.onnx]\n");
  const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string());
  const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rs.size(), 2u) << r.out;
  EXPECT_EQ(rs[0]["status"], "ok") << rs[0];
  EXPECT_EQ(rs[1]["status"], "failed") << rs[1];
  const auto reason = rs[1]["reason"].get<std::string>();
  EXPECT_NE(reason.find((broken.parent_path() / "cores" / "mesh_core_32x32_no_allocation.yaml").string() +
                        ":25:3: error: core 'mesh_core_32x32': memory level 0 of operand O (rf_4B_O) has no port "
                        "allocated"),
            std::string::npos)
      << reason;
  EXPECT_FALSE(rs[1].contains("latency")) << rs[1];
}

// An axis `input/NAME` gives a graph input its values, as `stream run --input NAME=VALUE`: the
// sample-rate If (Silero VAD's pattern) takes x[1,16] @ W8k[16,8] at 8000 and x @ W16k[16,32] at
// 16000; each point is the run of its branch, and a point with no value fails naming the If.
TEST(SweepCli, AnInputAxisGivesAGraphInputItsValues) {
  const fs::path model = fs::path(STREAM_SOURCE_DIR) / "tests/plugins/onnx-frontend/data/sample_rate_if.onnx";
  const auto dir = fixture("input_axis", "axes:\n  workload: [" + model.string() + "]\n  input/sr: [8000, 16000]\n");
  const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_NE(rs[0]["id"], rs[1]["id"]);
  for (int k : {0, 1}) {
    ASSERT_EQ(rs[k]["status"], "ok") << rs[k];
    const auto run = run_stream("run --workload " + model.string() + " --input sr=" + std::to_string(rs[k]["input/sr"].get<int>()) +
                                " --out " + (dir / "run").string());
    const auto at = run.out.find("Total latency:");
    ASSERT_NE(at, std::string::npos) << run.out;
    EXPECT_EQ(rs[k]["latency"].get<std::int64_t>(), std::stoll(run.out.substr(at + 14))) << rs[k];
  }
  // Four times the MACs (512 against 128) in the 16 kHz branch.
  EXPECT_GT(rs[1]["energy_pj"].get<double>(), rs[0]["energy_pj"].get<double>());
  const auto none = fixture("input_none", "axes:\n  workload: [" + model.string() + "]\n");
  ASSERT_EQ(run_stream("sweep " + (none / "sweep.yaml").string() + " --out " + (none / "out").string()).code, 0);
  const auto failed = stream::test::sweep_rows(none / "out" / "results.jsonl");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0]["status"], "failed");
  EXPECT_NE(failed[0]["reason"].get<std::string>().find("If node 'If_sr' cannot be resolved"), std::string::npos) << failed[0];
}

// A full disk under the row log (here a 1 KB file-size limit, so writes fail with EFBIG) while two
// workers run: an error naming the cause, exit 1, not an abort from a worker thread; the sweep
// resumed on a free disk then holds every row once, as an uninterrupted sweep's.
TEST(SweepCli, AFullDiskIsAnErrorAndTheSweepResumes) {
  const auto dir = fixture("full_disk", "axes:\n  hardware: [tpu_like_quad_core.yaml, simba_small.yaml]\n"
                                        "  cast: [none, bf16, f16, int8]\n");
  const std::string args = "sweep " + (dir / "sweep.yaml").string() + " --jobs 2 --out ";
  const auto full = stream::test::run_command("(trap '' XFSZ; ulimit -f 1; exec '" + std::string(STREAM_BUILD_DIR) +
                                              "/bin/stream' " + args + (dir / "out").string() + ") 2>&1");
  EXPECT_EQ(full.code, 1) << full.out;
  EXPECT_NE(full.out.find("cannot append to the sweep results (is the disk full?)"), std::string::npos) << full.out;
  ASSERT_EQ(run_stream(args + (dir / "out").string()).code, 0);
  ASSERT_EQ(run_stream(args + (dir / "fresh").string()).code, 0);
  const auto resumed = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  EXPECT_EQ(resumed.size(), 8u);
  EXPECT_EQ(resumed, stream::test::sweep_rows(dir / "fresh" / "results.jsonl"));
}

// A file that is there but cannot be read (/proc/self/mem: every read fails with EIO) fails the
// points that name it, naming the file, and the others run; it once failed the whole sweep.
TEST(SweepCli, AnUnreadableFileFailsItsPointsNamingIt) {
  for (const std::string axis : {"hardware", "workload"}) {
    const auto dir = fixture("unreadable_" + axis, "axes:\n  " + axis + ": [/proc/self/mem, " +
                                                       (axis == "hardware" ? "tpu_like_quad_core.yaml" : "2conv.onnx") + "]\n");
    const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string());
    ASSERT_EQ(r.code, 0) << r.out;
    const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
    ASSERT_EQ(rs.size(), 2u);
    EXPECT_EQ(rs[0]["status"], "failed");
    EXPECT_EQ(rs[0]["reason"].get<std::string>().rfind(axis + " '/proc/self/mem': cannot read /proc/self/mem: ", 0), 0u) << rs[0];
    EXPECT_EQ(rs[1]["status"], "ok") << rs[1];
    EXPECT_EQ(rs[1]["latency"], 14344);
  }
}

// docs/energy.md's worked example, the bundled sweep inputs/sweeps/dram_width_2conv.yaml: a DRAM
// port 4096 bits wide instead of 64 at the same cost per access cuts the 11,680 off-chip accesses
// to 32 + 5 + 18 + 128 = 183 (1000 pJ each); at 64,000 pJ per access (the same energy per bit) they
// cost 11,712,000 pJ. Compute stays 7,231,243.392 pJ (docs/energy.md's table).
TEST(SweepCli, DramWidthChangesOffChipEnergy) {
  const auto dir = stream::test::fresh_scratch_dir("sweep", "dram_width");
  const auto r = run_stream("sweep " + (kInputs / "sweeps" / "dram_width_2conv.yaml").string() + " --out " + (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rs.size(), 3u);
  const double compute = 7231243.392;
  EXPECT_NEAR(rs[0]["energy_pj"].get<double>(), compute + 11680 * 1000.0, 1e-3) << rs[0];
  EXPECT_NEAR(rs[1]["energy_pj"].get<double>(), compute + 183 * 1000.0, 1e-3) << rs[1];
  EXPECT_NEAR(rs[2]["energy_pj"].get<double>(), compute + 183 * 64000.0, 1e-3) << rs[2];
  EXPECT_EQ(rs[1]["hardware/cores/6/memories/dram/ports/0/bandwidth_max"], 4096);
}
