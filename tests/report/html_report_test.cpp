// report.html of real runs, read as a file (the browser test, scenarios/browser_report_test.cpp,
// renders it): self-contained (no resource it would fetch), its embedded data the run's own figures
// (summary.json verbatim, one entry per group), bars of one lane that never overlap, memory the
// allocation reserves within every core's capacity, and the slot bottleneck consistent with the
// slot latencies. Same inputs, same bytes: stream_run_test's rerun comparison covers the file. A run
// of the mapping optimizer also embeds its search (every candidate, the best so far, the front), the
// figures of its optimize.yaml; any other run embeds none.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "report_runs.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json embedded_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"report-data\">";
  const auto a = html.find(open);
  if (a == std::string::npos) return nullptr;
  const auto b = html.find("</script>", a);
  return json::parse(html.substr(a + open.size(), b - a - open.size()));
}

void expect_self_contained(const std::string& html) {
  // Nothing the browser would load: no src/href attributes, no <link>, <iframe> or <object>, no
  // fetch or XMLHttpRequest, and every URL in the file is the SVG namespace name (an identifier,
  // never fetched).
  for (const char* s : {" src=", " href=", "<link", "<iframe", "<object", "fetch(", "XMLHttpRequest", "import("})
    EXPECT_EQ(html.find(s), std::string::npos) << s;
  const std::regex url("https?://[^\"' )]*");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), url); it != std::sregex_iterator(); ++it)
    EXPECT_EQ(it->str(), "http://www.w3.org/2000/svg");
  EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
}

void check_group(const json& g, const fs::path& group_dir) {
  SCOPED_TRACE("group " + std::to_string(g["index"].get<int>()));
  const auto& sch = g["schedule"];
  const auto& bars = sch["bars"];
  ASSERT_FALSE(bars.empty());
  // Lanes: two bars on one row and lane never overlap in cycles.
  for (std::size_t a = 0; a < bars.size(); ++a)
    for (std::size_t b = a + 1; b < bars.size(); ++b) {
      if (bars[a]["row"] != bars[b]["row"] || bars[a]["lane"] != bars[b]["lane"]) continue;
      const double s1 = bars[a]["start"], e1 = s1 + bars[a]["dur"].get<double>();
      const double s2 = bars[b]["start"], e2 = s2 + bars[b]["dur"].get<double>();
      EXPECT_TRUE(e1 <= s2 || e2 <= s1) << bars[a]["name"] << " and " << bars[b]["name"];
    }
  for (const auto& b : bars) EXPECT_LT(b["lane"].get<int>(), sch["rows"][b["row"].get<std::size_t>()]["lanes"].get<int>());
  // A feasible allocation keeps every core within its capacity (the MILP's capacity row), and
  // no slot holds more than the core reserves.
  ASSERT_FALSE(g["memory"].empty());
  for (const auto& m : g["memory"]) {
    if (m["capacity_bits"].get<double>() > 0) {
      EXPECT_LE(m["reserved_bits"].get<double>(), m["capacity_bits"].get<double>()) << m["label"];
    }
    for (const auto& o : m["occupancy_bits"]) EXPECT_LE(o.get<double>(), m["reserved_bits"].get<double>());
  }
  // The slot latency is at least its binding contribution; a slot with a positive latency has one.
  ASSERT_EQ(g["bottleneck"].size(), sch["slots"].size());
  for (const auto& b : g["bottleneck"]) {
    EXPECT_LE(b["contribution_cycles"].get<double>(), b["latency_cycles"].get<double>() + 1e-6);
    if (b["latency_cycles"].get<double>() > 0) {
      EXPECT_NE(b["kind"], "none") << "slot " << b["slot"];
    }
  }
  // The heatmap has one row per node of the group's cost table.
  const auto lut = stream::test::read(group_dir / "core_cost_lut.yaml");
  std::size_t nodes = 0;
  for (auto p = lut.find("- name: "); p != std::string::npos; p = lut.find("- name: ", p + 1)) ++nodes;
  EXPECT_EQ(g["costs"]["nodes"].size(), nodes);
}

void check_report(const fs::path& run) {
  const auto html = stream::test::read(run / "report.html");
  ASSERT_FALSE(html.empty());
  expect_self_contained(html);
  const json data = embedded_data(html);
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data["summary"], json::parse(stream::test::read(run / "summary.json")));
  // The search's section only for a run of the optimizer (which writes optimize.yaml).
  EXPECT_EQ(data.contains("optimizer"), fs::exists(run / "optimize.yaml"));
  const int groups = stream::test::group_count(run);
  ASSERT_EQ(data["groups"].size(), static_cast<std::size_t>(groups));
  for (int g = 0; g < groups; ++g) check_group(data["groups"][static_cast<std::size_t>(g)], run / ("group_" + std::to_string(g)));
}

}  // namespace

TEST(HtmlReport, DefaultRunReportIsSelfContainedWithTheRunsFigures) {
  check_report(stream::test::default_run("html_default"));
}

TEST(HtmlReport, MultiGroupReportIsSelfContainedWithTheRunsFigures) {
  const auto run = stream::test::multi_group_run("html_multi");
  ASSERT_EQ(stream::test::group_count(run), 10);
  check_report(run);
}

TEST(HtmlReport, SummaryOnlyRunsWriteNoReport) {
  const auto run = stream::test::report_run("html_summary_only", "--summary-only");
  EXPECT_TRUE(fs::exists(run / "summary.json"));
  EXPECT_FALSE(fs::exists(run / "report.html"));
}

// One name per resource: the schedule's rows, the bottleneck table, resource_slack in
// slot_latency_breakdown.yaml and the trace's links all say "bus 5 (cores 0, 1, 2, 3, 4)" for the
// Eyeriss-like dual core's DRAM bus (core_connectivity entry 5, the file's sixth), never "Bus 24",
// "bus (connection 5)" or "link 24". A transfer binds "off-chip" when it reads DRAM (the graph input
// and the weights), not when a core-to-core transfer merely uses that bus.
TEST(HtmlReport, EachLinkHasOneNameAndOnlyDramTransfersBindOffChip) {
  const auto run = stream::test::report_run(
      "html_names", "--hardware '" + std::string(STREAM_INPUTS_DIR) + "/hardware/eyeriss_like_dual_core.yaml' --workload '" +
                        stream::test::kMultiGroupWorkload + "'");
  const json data = embedded_data(stream::test::read(run / "report.html"));
  ASSERT_TRUE(data.is_object());
  const std::string bus = "bus 5 (cores 0, 1, 2, 3, 4)";
  const std::regex one_name(R"re(link \d+->\d+|bus \d+ \(cores [0-9, ]+\))re");
  std::map<std::string, std::string> kind_of;  // transfer -> kind, group 0's bottleneck
  for (const auto& g : data["groups"]) {
    std::set<std::string> rows, named;
    for (const auto& r : g["schedule"]["rows"])
      if (r["kind"] == "link") rows.insert(std::regex_replace(r["label"].get<std::string>(), std::regex(" \\(bw=[^)]*\\)$"), ""));
    EXPECT_EQ(rows, std::set<std::string>{bus});
    for (const auto& b : g["bottleneck"]) {
      // A transfer between two tensors on one core moves over no link; the cell says so.
      if (b["kind"] == "link" || b["kind"] == "off-chip") {
        EXPECT_TRUE(b["resource"] == bus || b["resource"].get<std::string>().rfind("no link: within core ", 0) == 0) << b["node"];
      }
      EXPECT_NE(b["resource"], "") << "slot " << b["slot"] << " has an empty 'on' cell";
      if (g["index"] == 0) kind_of[b["node"]] = b["kind"];
    }
    const auto dir = run / ("group_" + std::to_string(g["index"].get<int>()));
    for (const auto& r : YAML::LoadFile((dir / "slot_latency_breakdown.yaml").string())["resource_slack"])
      if (r["kind"].as<std::string>() == "link") named.insert(r["resource"].as<std::string>());
    const auto trace = json::parse(stream::test::read(dir / "steady_state_trace.json"));
    for (const auto& e : trace["traceEvents"])
      if (e.contains("args") && e["args"].contains("this_link")) named.insert(e["args"]["this_link"].get<std::string>());
    EXPECT_EQ(named, rows);
    for (const auto& n : named) EXPECT_TRUE(std::regex_match(n, one_name)) << n;
  }
  // Group 0 (conv1, relu, maxpool): the input image and conv1's weights come from DRAM; conv1's
  // output goes from the compute cores to the next layer's core over the same bus.
  ASSERT_TRUE(kind_of.count("Transfer(input.1)"));
  EXPECT_EQ(kind_of["Transfer(input.1)"], "off-chip");
  ASSERT_TRUE(kind_of.count("Transfer(/conv1/Conv_output_0)"));
  EXPECT_EQ(kind_of["Transfer(/conv1/Conv_output_0)"], "link");
}

namespace {

// optimize.yaml's objective value: a number, or .inf for a failed candidate (null in the page).
json yaml_value(const YAML::Node& v) {
  const auto text = v.as<std::string>();
  return text == ".inf" ? json(nullptr) : json(v.as<double>());
}

}  // namespace

// The pareto search on the default run: the page's data holds every candidate optimize.yaml
// lists (its ranked value, accepted flag and figures), the best-so-far curve, the automatic
// mapping's value for the reference line and the front with its mapping files.
TEST(HtmlReport, OptimizedRunsReportHoldsTheSearchOfOptimizeYaml) {
  const auto run = stream::test::report_run("html_optimized", "--mapping 'optimize?objective=pareto&evaluations=24&jobs=2'");
  check_report(run);
  const json data = embedded_data(stream::test::read(run / "report.html"));
  ASSERT_TRUE(data.contains("optimizer"));
  const auto& o = data["optimizer"];
  const auto opt = YAML::LoadFile((run / "optimize.yaml").string());
  EXPECT_EQ(o["objective"], "pareto");
  EXPECT_EQ(o["budget"], 24);
  EXPECT_EQ(o["ranked_unit"], "cycles");
  EXPECT_EQ(o["unit"], "pJ x cycles");
  ASSERT_EQ(o["candidates"].size(), opt["candidates"].size());
  ASSERT_EQ(o["candidates"].size(), opt["budget"]["spent"].as<std::size_t>() + 1);  // and the automatic mapping
  for (std::size_t k = 0; k < o["candidates"].size(); ++k) {
    const auto& c = o["candidates"][k];
    const auto y = opt["candidates"][k];
    SCOPED_TRACE("candidate " + std::to_string(k));
    EXPECT_EQ(c[0], y["index"].as<std::size_t>());
    EXPECT_EQ(c[1], yaml_value(y["objective"]));
    EXPECT_EQ(c[2], y["accepted"].as<bool>());
    if (y["latency"]) {
      EXPECT_EQ(c[3], y["latency"].as<long>());
      EXPECT_EQ(c[4], y["energy"].as<double>());
    } else {
      EXPECT_TRUE(c[3].is_null());
    }
  }
  EXPECT_EQ(o["automatic_ranked"], yaml_value(opt["automatic"]["objective"]));
  ASSERT_EQ(o["best_so_far"].size(), opt["best_so_far"].size());
  for (std::size_t k = 0; k < o["best_so_far"].size(); ++k) {
    EXPECT_EQ(o["best_so_far"][k][0], opt["best_so_far"][k][0].as<std::size_t>());
    EXPECT_EQ(o["best_so_far"][k][1], opt["best_so_far"][k][1].as<double>());
  }
  ASSERT_EQ(o["front"].size(), opt["front"].size());
  ASSERT_FALSE(o["front"].empty());
  for (std::size_t k = 0; k < o["front"].size(); ++k) {
    EXPECT_EQ(o["front"][k]["evaluation"], opt["front"][k]["evaluation"].as<std::size_t>());
    EXPECT_EQ(o["front"][k]["latency"], opt["front"][k]["latency"].as<long>());
    EXPECT_EQ(o["front"][k]["mapping"], opt["front"][k]["mapping"].as<std::string>());
    EXPECT_TRUE(fs::exists(run / o["front"][k]["mapping"].get<std::string>()));
  }
}
