#include "stream/report/trace.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "lanes.hpp"
#include "resources.hpp"
#include "stream/io/utf8.hpp"

namespace stream::report {

namespace {

using json = nlohmann::ordered_json;

// The Chrome-trace events of three steady-state iterations (i-1, i, i+1): compute events per
// core and transfer events per link, then the tracks (process and thread metadata, lanes).
class TraceBuilder {
 public:
  TraceBuilder(const pipeline::GroupResult& g, const hardware::Accelerator& acc)
      : g_(g), acc_(acc), res_(detail::resources(g, acc)) {
    for (const auto& m : g.schedule.nodes)
      if (m.kind == schedule::SsKind::OutEdge) out_edge_inputs_.insert(m.inputs.begin(), m.inputs.end());
  }

  json build() {
    const auto& a = g_.allocation;
    std::vector<std::int64_t> start(a.slot_latency.size(), 0);
    for (std::size_t s = 1; s < start.size(); ++s) start[s] = start[s - 1] + a.slot_latency[s - 1];
    for (int k = -1; k <= 1 && a.solved(); ++k) {
      const std::int64_t base = (k + 1) * (a.latency_per_iteration - a.overlap);
      for (std::size_t i = 0; i < g_.schedule.nodes.size(); ++i) {
        const auto& n = g_.schedule.nodes[i];
        if (n.slot < 0) continue;
        const std::int64_t ts = base + start[static_cast<std::size_t>(n.slot)];
        if (n.kind == schedule::SsKind::Compute) add_compute_events(n, k, ts);
        else if (n.kind == schedule::SsKind::Transfer && a.plan[i] >= 0) add_transfer_events(i, k, ts);
      }
    }
    return with_tracks();
  }

 private:
  struct Pending {
    std::size_t resource = 0;
    json event;
  };

  std::size_t row_of(bool core, int id) const {
    for (std::size_t k = 0; k < res_.size(); ++k)
      if (res_[k].is_core == core && res_[k].id == id) return k;
    return 0;
  }

  int pid() const { return g_.index + 1; }

  // Gives every event its track: resource k's events that overlap in time go on extra lanes, and
  // each (resource, lane) is one thread, numbered in row order, so that no two complete events on
  // one track overlap (Perfetto drops partially overlapping ones).
  json with_tracks() {
    std::vector<std::vector<std::size_t>> of_resource(res_.size());
    for (std::size_t e = 0; e < pending_.size(); ++e) of_resource[pending_[e].resource].push_back(e);
    json events = json::array();
    const std::string process = "Group " + std::to_string(g_.index) + " steady state (1 us = 1 clock cycle)";
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid()}, {"tid", 0}, {"args", {{"name", process}}}});
    events.push_back(
        {{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid()}, {"tid", 0}, {"args", {{"sort_index", g_.index}}}});
    int next_tid = 1;
    for (std::size_t k = 0; k < res_.size(); ++k) {
      std::vector<detail::Interval> spans;
      for (std::size_t e : of_resource[k]) {
        const auto ts = pending_[e].event["ts"].get<double>();
        spans.push_back({ts, ts + pending_[e].event["dur"].get<double>()});
      }
      const auto lanes = detail::assign_lanes(spans);
      const int first = next_tid, count = detail::lane_count(lanes);
      for (int l = 0; l < count; ++l, ++next_tid) {
        const std::string name = res_[k].label + (l == 0 ? "" : " lane " + std::to_string(l + 1));
        events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid()}, {"tid", next_tid}, {"args", {{"name", name}}}});
        events.push_back(
            {{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", pid()}, {"tid", next_tid}, {"args", {{"sort_index", next_tid}}}});
      }
      for (std::size_t j = 0; j < lanes.size(); ++j) pending_[of_resource[k][j]].event["tid"] = first + lanes[j];
    }
    for (auto& p : pending_) events.push_back(std::move(p.event));
    return events;
  }

  // One event per core the node runs on, lasting its active latency.
  void add_compute_events(const schedule::SsNode& n, int k, std::int64_t ts) {
    const auto& a = g_.allocation;
    const auto s = static_cast<std::size_t>(n.slot);
    for (int c : n.cores) {
      auto it = acc_.coordinates.find(c);
      pending_.push_back({row_of(true, c), json{{"name", n.name + " [" + std::to_string(k) + "]"},
                        {"cat", "computation"},
                        {"ph", "X"},
                        {"ts", ts},
                        {"dur", std::max<std::int64_t>(n.active_latency, 1)},
                        {"pid", pid()},
                        {"tid", 0},
                        {"cname", "good"},
                        {"args",
                         {{"iteration", k},
                          {"slot", n.slot},
                          {"slot_latency_cycles", a.slot_latency[s]},
                          {"total_latency_cycles", a.total_latency},
                          {"active_latency_cycles", n.active_latency},
                          {"core_id", c},
                          {"core_type", acc_.core(c).type.str()},
                          {"col", it == acc_.coordinates.end() ? json(nullptr) : json(it->second[0])},
                          {"row", it == acc_.coordinates.end() ? json(nullptr) : json(it->second[1])}}}}});
    }
  }

  // As the reference: constant when the source is an InEdge or a destination an OutEdge (so a
  // transfer staged through a memory core is constant only on its off-chip side).
  bool reads_constant_input(const schedule::SsNode& n) const {
    const auto& in_t = g_.schedule.tensors[static_cast<std::size_t>(n.inputs.front())];
    return g_.schedule.nodes[static_cast<std::size_t>(in_t.producer)].kind == schedule::SsKind::InEdge;
  }
  bool writes_constant_output(const schedule::SsNode& n) const {
    return std::any_of(n.outputs.begin(), n.outputs.end(), [&](int t) { return out_edge_inputs_.count(t) > 0; });
  }

  // One event per link of the chosen plan, lasting the slot.
  void add_transfer_events(std::size_t i, int k, std::int64_t ts) {
    const auto& ss = g_.schedule;
    const auto& a = g_.allocation;
    const auto& n = ss.nodes[i];
    const auto s = static_cast<std::size_t>(n.slot);
    const auto& p = n.plans[static_cast<std::size_t>(a.plan[i])];
    const auto& in_t = ss.tensors[static_cast<std::size_t>(n.inputs.front())];
    const auto& out_t = ss.tensors[static_cast<std::size_t>(n.outputs.front())];
    const bool const_in = reads_constant_input(n), const_out = writes_constant_output(n);
    const auto R = a.reuse_factor[static_cast<std::size_t>(n.outputs.front())];
    const auto active = schedule::active_latency(n.loops, static_cast<double>(p.latency));
    json loops = json::array();
    for (const auto& l : out_t.loops)
      loops.push_back({{"dim", "z" + std::to_string(l.dim)}, {"size", l.size}, {"relevant", l.effect == schedule::LoopEffect::Varying}});
    std::string path = "Path";
    for (int l : p.links) path += " " + acc_.link_name(l);
    for (int l : p.links)
      pending_.push_back({row_of(false, l), json{{"name", n.name + " [" + std::to_string(k) + "]"},
                        {"cat", const_in || const_out ? "transfer_const" : "transfer"},
                        {"ph", "X"},
                        {"ts", ts},
                        {"dur", std::max<std::int64_t>(a.slot_latency[s], 1)},
                        {"pid", pid()},
                        {"tid", 0},
                        {"cname", const_in || const_out ? "bad" : "thread_state_running"},
                        {"args",
                         {{"iteration", k},
                          {"slot", n.slot},
                          {"slot_latency_cycles", a.slot_latency[s]},
                          {"one_transfer_latency_cycles", p.latency},
                          {"active_transfer_latency_cycles", static_cast<std::int64_t>(std::ceil(static_cast<double>(active) / static_cast<double>(R)))},
                          {"is_const_io", const_in || const_out},
                          {"is_const_input", const_in},
                          {"is_const_output", const_out},
                          {"input_of", in_t.name},
                          {"output_of", out_t.name},
                          {"full_path", path},
                          {"this_link", acc_.link_name(l)},
                          {"tensor_bits", in_t.bits},
                          {"reuse", {{"reuse_factor", R}, {"loops", loops}}}}}}});
  }

  const pipeline::GroupResult& g_;
  const hardware::Accelerator& acc_;
  std::vector<detail::Resource> res_;
  std::vector<Pending> pending_;
  std::set<int> out_edge_inputs_;  ///< tensors an OutEdge reads (a transfer writing one is constant I/O)
};

json other_data(const pipeline::GroupResult& g) {
  const auto& a = g.allocation;
  json slots = json::object();
  for (std::size_t s = 0; s < a.slot_latency.size(); ++s) slots[std::to_string(s)] = a.slot_latency[s];
  return {{"note", "1 trace time unit (us) = 1 clock cycle; iterations i-1, i, i+1 of the steady state; overlapping events of one resource are on extra lanes"},
          {"total_iterations", g.schedule.iterations},
          {"latency_per_iteration_cycles", a.latency_per_iteration},
          {"overlap_cycles", a.overlap},
          {"iter_step_cycles", a.latency_per_iteration - a.overlap},
          {"total_latency_cycles", a.total_latency},
          {"slot_latencies_cycles", slots},
          {"compact", false}};
}

}  // namespace

std::string steady_state_trace_json(const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  json j;
  j["traceEvents"] = TraceBuilder(g, acc).build();
  j["displayTimeUnit"] = "ns";
  j["otherData"] = other_data(g);
  return io::dump_json(j, 2) + "\n";
}

}  // namespace stream::report
