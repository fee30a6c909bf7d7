// A strict checker of the Chrome trace-event JSON object format, written from the format
// document (Trace Event Format, catapult docs/trace-event-format.md and its Google document) plus
// the rules Perfetto's JSON importer enforces. Debian packages no trace processor, so this is the
// independent reader of steady_state_trace.json. Returns every violation found, one line each.
//
// Rules checked:
//  * the file is an object with a `traceEvents` array; `displayTimeUnit`, when present, is "ms"
//    or "ns"; `otherData`, when present, is an object;
//  * every event is an object with a string `name`, a one-character `ph` of a known phase, and
//    integer `pid` and `tid` (Perfetto keys tracks by integer ids; a string pid is not a process);
//  * X (complete) events: a numeric `ts` and a numeric `dur` >= 0 (microseconds), a string `cat`,
//    `cname` (when present) one of trace-viewer's reserved colour names, `args` an object;
//  * M (metadata) events: name one of process_name, process_labels, process_sort_index,
//    thread_name, thread_sort_index, with args.name a string (the *_name ones) or
//    args.sort_index an integer (the *_sort_index ones);
//  * every process with events has a process_name, every thread with X events a thread_name, and
//    no thread is named twice;
//  * complete events on one thread nest: two either are disjoint or one contains the other
//    (Perfetto drops a complete event that partially overlaps an earlier one on its track).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace stream::test {

struct TraceSpan {
  double start = 0, end = 0;
  std::string name;
};

struct TraceCheck {
  std::vector<std::string> problems;
  /// Complete events per (pid, tid), in file order.
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<TraceSpan>> tracks;
  std::map<std::pair<std::int64_t, std::int64_t>, std::string> thread_names;
  std::map<std::int64_t, std::string> process_names;
};

namespace trace_detail {

inline bool reserved_colour(const std::string& c) {
  static const std::set<std::string> names = {
      "thread_state_uninterruptible", "thread_state_iowait", "thread_state_running", "thread_state_runnable",
      "thread_state_sleeping", "thread_state_unknown", "background_memory_dump", "light_memory_dump",
      "detailed_memory_dump", "vsync_highlight_color", "generic_work", "good", "bad", "terrible", "black", "grey",
      "white", "yellow", "olive", "rail_response", "rail_animation", "rail_idle", "rail_load", "startup"};
  return names.count(c) > 0;
}

inline void check_metadata(const nlohmann::json& e, std::int64_t pid, std::int64_t tid, TraceCheck& out,
                           const std::string& where) {
  const std::string name = e.value("name", "");
  const auto& args = e.contains("args") ? e["args"] : nlohmann::json();
  if (name == "process_name" || name == "thread_name" || name == "process_labels") {
    if (!args.is_object() || !args.contains(name == "process_labels" ? "labels" : "name") ||
        !args[name == "process_labels" ? "labels" : "name"].is_string()) {
      out.problems.push_back(where + ": " + name + " without a string args.name");
      return;
    }
    if (name == "process_name") out.process_names[pid] = args["name"].get<std::string>();
    if (name == "thread_name" && !out.thread_names.emplace(std::make_pair(pid, tid), args["name"].get<std::string>()).second)
      out.problems.push_back(where + ": thread " + std::to_string(tid) + " named twice");
  } else if (name == "process_sort_index" || name == "thread_sort_index") {
    if (!args.is_object() || !args.contains("sort_index") || !args["sort_index"].is_number_integer())
      out.problems.push_back(where + ": " + name + " without an integer args.sort_index");
  } else {
    out.problems.push_back(where + ": unknown metadata event '" + name + "'");
  }
}

inline void check_complete(const nlohmann::json& e, std::int64_t pid, std::int64_t tid, TraceCheck& out,
                           const std::string& where) {
  if (!e.contains("ts") || !e["ts"].is_number()) out.problems.push_back(where + ": X event without a numeric ts");
  if (!e.contains("dur") || !e["dur"].is_number() || e["dur"].get<double>() < 0)
    out.problems.push_back(where + ": X event without a numeric dur >= 0");
  if (!e.contains("cat") || !e["cat"].is_string()) out.problems.push_back(where + ": X event without a string cat");
  if (e.contains("cname") && (!e["cname"].is_string() || !reserved_colour(e["cname"].get<std::string>())))
    out.problems.push_back(where + ": cname is not a reserved colour name");
  if (e.contains("args") && !e["args"].is_object()) out.problems.push_back(where + ": args is not an object");
  if (e.contains("ts") && e["ts"].is_number() && e.contains("dur") && e["dur"].is_number()) {
    const double ts = e["ts"].get<double>(), dur = e["dur"].get<double>();
    out.tracks[{pid, tid}].push_back({ts, ts + dur, e["name"].get<std::string>()});
  }
}

// Two complete events on one thread must be disjoint or nested.
inline void check_nesting(TraceCheck& out) {
  for (const auto& [track, spans] : out.tracks)
    for (std::size_t i = 0; i < spans.size(); ++i)
      for (std::size_t j = i + 1; j < spans.size(); ++j) {
        const auto &a = spans[i], &b = spans[j];
        const bool disjoint = a.end <= b.start || b.end <= a.start;
        const bool nested = (a.start <= b.start && b.end <= a.end) || (b.start <= a.start && a.end <= b.end);
        if (!disjoint && !nested)
          out.problems.push_back("pid " + std::to_string(track.first) + " tid " + std::to_string(track.second) + ": '" +
                                 a.name + "' and '" + b.name + "' partially overlap");
      }
}

}  // namespace trace_detail

inline TraceCheck check_chrome_trace(const nlohmann::json& j) {
  TraceCheck out;
  if (!j.is_object() || !j.contains("traceEvents") || !j["traceEvents"].is_array()) {
    out.problems.push_back("not a JSON object with a traceEvents array");
    return out;
  }
  if (j.contains("displayTimeUnit") && j["displayTimeUnit"] != "ms" && j["displayTimeUnit"] != "ns")
    out.problems.push_back("displayTimeUnit is neither \"ms\" nor \"ns\"");
  if (j.contains("otherData") && !j["otherData"].is_object()) out.problems.push_back("otherData is not an object");
  std::set<std::int64_t> pids;
  const auto& events = j["traceEvents"];
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    const std::string where = "event " + std::to_string(i);
    if (!e.is_object() || !e.contains("name") || !e["name"].is_string() || !e.contains("ph") || !e["ph"].is_string() ||
        e["ph"].get<std::string>().size() != 1) {
      out.problems.push_back(where + ": not an object with a string name and a one-character ph");
      continue;
    }
    if (!e.contains("pid") || !e["pid"].is_number_integer() || !e.contains("tid") || !e["tid"].is_number_integer()) {
      out.problems.push_back(where + ": pid and tid are not both integers");
      continue;
    }
    const auto pid = e["pid"].get<std::int64_t>(), tid = e["tid"].get<std::int64_t>();
    pids.insert(pid);
    const std::string ph = e["ph"];
    if (ph == "M") trace_detail::check_metadata(e, pid, tid, out, where);
    else if (ph == "X") trace_detail::check_complete(e, pid, tid, out, where);
    else if (std::string("BEibenNOPCsftDdvVRcSTpF(").find(ph) == std::string::npos)
      out.problems.push_back(where + ": unknown phase '" + ph + "'");
  }
  for (auto pid : pids)
    if (!out.process_names.count(pid)) out.problems.push_back("process " + std::to_string(pid) + " has no process_name");
  for (const auto& [track, spans] : out.tracks)
    if (!out.thread_names.count(track))
      out.problems.push_back("thread " + std::to_string(track.second) + " has events but no thread_name");
  trace_detail::check_nesting(out);
  return out;
}

}  // namespace stream::test
