// steady_state_trace.json of real runs read by a strict Chrome-trace checker
// (chrome_trace_validator.hpp): integer pids and tids with names, no two complete events of one
// track overlapping (lanes), the reference's time model, and every quantity with its unit.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "chrome_trace_validator.hpp"
#include "report_runs.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Argument keys that are counts or indices, not quantities (so they carry no unit).
bool unitless(const std::string& key) {
  static const std::set<std::string> keys = {"iteration", "slot", "core_id", "col", "row", "reuse_factor", "size"};
  return keys.count(key) > 0;
}

// Every numeric argument is a count/index or names its unit in its key.
void expect_units(const json& args, const std::string& where) {
  for (const auto& [key, value] : args.items()) {
    if (value.is_object()) expect_units(value, where);
    if (value.is_array())
      for (const auto& v : value)
        if (v.is_object()) expect_units(v, where);
    if (!value.is_number() || unitless(key)) continue;
    const bool unit = key.size() > 7 && (key.substr(key.size() - 7) == "_cycles" || key.substr(key.size() - 5) == "_bits");
    EXPECT_TRUE(unit) << where << ": argument '" << key << "' has no unit";
  }
}

// The checks every trace passes; `group` is its group index.
void check_trace(const fs::path& file, int group) {
  SCOPED_TRACE(file.string());
  const json j = json::parse(stream::test::read(file));
  const auto check = stream::test::check_chrome_trace(j);
  for (const auto& p : check.problems) ADD_FAILURE() << p;
  ASSERT_FALSE(check.tracks.empty());
  // One process per group, pid = index + 1, named.
  EXPECT_EQ(check.process_names.size(), 1u);
  EXPECT_EQ(check.process_names.count(group + 1), 1u);
  // Lanes: beyond the format's nesting rule, no two events of one thread overlap at all.
  for (const auto& [track, spans] : check.tracks)
    for (std::size_t a = 0; a < spans.size(); ++a)
      for (std::size_t b = a + 1; b < spans.size(); ++b)
        EXPECT_TRUE(spans[a].end <= spans[b].start || spans[b].end <= spans[a].start)
            << "tid " << track.second << ": " << spans[a].name << " and " << spans[b].name;
  // The reference's time model (dse-area-dedup-mcp.md §6.1): iteration k's slot s starts at
  // (k+1)(P-V) + sum_{j<s} L_j, with P-V and the L_j from otherData.
  const auto& other = j["otherData"];
  const auto step = other["iter_step_cycles"].get<double>();
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] != "X") continue;
    expect_units(e["args"], e["name"].get<std::string>());
    const int k = e["args"]["iteration"], s = e["args"]["slot"];
    double start = (k + 1) * step;
    for (int q = 0; q < s; ++q) start += other["slot_latencies_cycles"][std::to_string(q)].get<double>();
    EXPECT_EQ(e["ts"].get<double>(), start) << e["name"];
  }
}

}  // namespace

TEST(SteadyStateTrace, DefaultRunIsAStrictChromeTraceWithLanes) {
  const auto run = stream::test::default_run("trace_default");
  ASSERT_EQ(stream::test::group_count(run), 1);
  check_trace(run / "group_0" / "steady_state_trace.json", 0);
  const json j = json::parse(stream::test::read(run / "group_0" / "steady_state_trace.json"));
  const auto check = stream::test::check_chrome_trace(j);
  // Threads are numbered in row order: cores by ascending id first, then links.
  std::vector<int> cores;
  for (const auto& [track, name] : check.thread_names)
    if (name.rfind("core ", 0) == 0 && name.find(" lane ") == std::string::npos) cores.push_back(std::stoi(name.substr(5)));
  EXPECT_TRUE(std::is_sorted(cores.begin(), cores.end()));
  EXPECT_GE(cores.size(), 2u);
}

TEST(SteadyStateTrace, EveryGroupOfAMultiGroupRunIsAStrictChromeTrace) {
  const auto run = stream::test::multi_group_run("trace_multi");
  const int groups = stream::test::group_count(run);
  ASSERT_EQ(groups, 10);  // README: the int8 ResNet-18 maps in 10 groups
  bool second_lane = false;
  for (int g = 0; g < groups; ++g) {
    const auto file = run / ("group_" + std::to_string(g)) / "steady_state_trace.json";
    check_trace(file, g);
    const auto check = stream::test::check_chrome_trace(json::parse(stream::test::read(file)));
    for (const auto& [track, name] : check.thread_names) second_lane |= name.find(" lane 2") != std::string::npos;
  }
  // Six of the groups overlap consecutive iterations (overlap_cycles > 0), so a core's events of
  // iterations i-1 and i overlap in time; the lanes that keep them apart must be there.
  EXPECT_TRUE(second_lane);
}

// The checker itself rejects what the previous trace did and what Perfetto drops: a string pid,
// a thread without a name, and two complete events of one thread that partially overlap
// ([0, 10) and [5, 15)); nested events ([0, 10) and [2, 4)) are allowed by the format.
TEST(SteadyStateTrace, CheckerRejectsStringPidsUnnamedThreadsAndPartialOverlap) {
  const json string_pid = json::parse(R"({"traceEvents": [
      {"name": "a", "ph": "X", "ts": 0, "dur": 1, "pid": "steady_state_schedule", "tid": 0, "cat": "c"}]})");
  EXPECT_FALSE(stream::test::check_chrome_trace(string_pid).problems.empty());
  const json unnamed = json::parse(R"({"traceEvents": [
      {"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "p"}},
      {"name": "a", "ph": "X", "ts": 0, "dur": 1, "pid": 1, "tid": 1, "cat": "c"}]})");
  EXPECT_EQ(stream::test::check_chrome_trace(unnamed).problems.size(), 1u);
  const std::string named = R"({"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "p"}},
      {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "t"}},)";
  const json partial = json::parse(R"({"traceEvents": [)" + named + R"(
      {"name": "a", "ph": "X", "ts": 0, "dur": 10, "pid": 1, "tid": 1, "cat": "c"},
      {"name": "b", "ph": "X", "ts": 5, "dur": 10, "pid": 1, "tid": 1, "cat": "c"}]})");
  EXPECT_EQ(stream::test::check_chrome_trace(partial).problems.size(), 1u);
  const json nested = json::parse(R"({"traceEvents": [)" + named + R"(
      {"name": "a", "ph": "X", "ts": 0, "dur": 10, "pid": 1, "tid": 1, "cat": "c"},
      {"name": "b", "ph": "X", "ts": 2, "dur": 2, "pid": 1, "tid": 1, "cat": "c", "cname": "good"}]})");
  EXPECT_TRUE(stream::test::check_chrome_trace(nested).problems.empty());
}
