// report.html of real runs, read as a file (the browser test, scenarios/browser_report_test.cpp,
// renders it): self-contained (no resource it would fetch), its embedded data the run's own figures
// (summary.json verbatim, one entry per group), bars of one lane that never overlap, memory the
// allocation reserves within every core's capacity, and the slot bottleneck consistent with the
// slot latencies. Same inputs, same bytes: stream_run_test's rerun comparison covers the file.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include <nlohmann/json.hpp>

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
