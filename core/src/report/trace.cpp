#include "stream/report/trace.hpp"

#include <algorithm>

#include <cmath>
#include <nlohmann/json.hpp>

#include "resources.hpp"
#include "stream/report/utf8.hpp"

namespace stream::report {

namespace {

using json = nlohmann::ordered_json;

// The Chrome-trace events of three steady-state iterations (i-1, i, i+1), one builder step per
// event family: thread metadata, compute events per core, transfer events per link.
class TraceBuilder {
 public:
  TraceBuilder(const pipeline::GroupResult& g, const hardware::Accelerator& acc)
      : g_(g), acc_(acc), res_(detail::resources(g, acc)) {}

  json build() const {
    json events = json::array();
    add_thread_metadata(events);
    const auto& a = g_.allocation;
    std::vector<std::int64_t> start(a.slot_latency.size(), 0);
    for (std::size_t s = 1; s < start.size(); ++s) start[s] = start[s - 1] + a.slot_latency[s - 1];
    for (int k = -1; k <= 1 && !a.slot_latency.empty(); ++k) {
      const std::int64_t base = (k + 1) * (a.latency_per_iteration - a.overlap);
      for (std::size_t i = 0; i < g_.schedule.nodes.size(); ++i) {
        const auto& n = g_.schedule.nodes[i];
        if (n.slot < 0) continue;
        const std::int64_t ts = base + start[static_cast<std::size_t>(n.slot)];
        if (n.kind == schedule::SsKind::Compute) add_compute_events(events, n, k, ts);
        else if (n.kind == schedule::SsKind::Transfer && a.plan[i] >= 0) add_transfer_events(events, i, k, ts);
      }
    }
    return events;
  }

 private:
  int tid_of(bool core, int id) const {
    for (std::size_t k = 0; k < res_.size(); ++k)
      if (res_[k].is_core == core && res_[k].id == id) return static_cast<int>(k);
    return -1;
  }

  void add_thread_metadata(json& events) const {
    for (std::size_t k = 0; k < res_.size(); ++k) {
      events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", kPid}, {"tid", k}, {"args", {{"name", res_[k].label}}}});
      events.push_back(
          {{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", kPid}, {"tid", k}, {"args", {{"sort_index", res_[k].sort_key}}}});
    }
  }

  // One event per core the node runs on, lasting its active latency.
  void add_compute_events(json& events, const schedule::SsNode& n, int k, std::int64_t ts) const {
    const auto& a = g_.allocation;
    const auto s = static_cast<std::size_t>(n.slot);
    for (int c : n.cores) {
      auto it = acc_.coordinates.find(c);
      events.push_back({{"name", n.name + " [" + std::to_string(k) + "]"},
                        {"cat", "computation"},
                        {"ph", "X"},
                        {"ts", ts},
                        {"dur", std::max<std::int64_t>(n.active_latency, 1)},
                        {"pid", kPid},
                        {"tid", tid_of(true, c)},
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
                          {"row", it == acc_.coordinates.end() ? json(nullptr) : json(it->second[1])}}}});
    }
  }

  // As the reference: constant when the source is an InEdge or a destination an OutEdge (so a
  // transfer staged through a memory core is constant only on its off-chip side).
  bool reads_constant_input(const schedule::SsNode& n) const {
    const auto& in_t = g_.schedule.tensors[static_cast<std::size_t>(n.inputs.front())];
    return g_.schedule.nodes[static_cast<std::size_t>(in_t.producer)].kind == schedule::SsKind::InEdge;
  }
  bool writes_constant_output(const schedule::SsNode& n) const {
    const auto& nodes = g_.schedule.nodes;
    return std::any_of(nodes.begin(), nodes.end(), [&](const schedule::SsNode& m) {
      return m.kind == schedule::SsKind::OutEdge && std::any_of(m.inputs.begin(), m.inputs.end(), [&](int t) {
               return std::find(n.outputs.begin(), n.outputs.end(), t) != n.outputs.end();
             });
    });
  }

  // One event per link of the chosen plan, lasting the slot.
  void add_transfer_events(json& events, std::size_t i, int k, std::int64_t ts) const {
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
    for (int l : p.links) path += " " + acc_.links()[static_cast<std::size_t>(l)].str();
    for (int l : p.links)
      events.push_back({{"name", n.name + " [" + std::to_string(k) + "]"},
                        {"cat", const_in || const_out ? "transfer_const" : "transfer"},
                        {"ph", "X"},
                        {"ts", ts},
                        {"dur", std::max<std::int64_t>(a.slot_latency[s], 1)},
                        {"pid", kPid},
                        {"tid", tid_of(false, l)},
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
                          {"this_link", acc_.links()[static_cast<std::size_t>(l)].str()},
                          {"reuse", {{"reuse_factor", R}, {"loops", loops}}}}}});
  }

  static constexpr const char* kPid = "steady_state_schedule";
  const pipeline::GroupResult& g_;
  const hardware::Accelerator& acc_;
  std::vector<detail::Resource> res_;
};

json other_data(const pipeline::GroupResult& g) {
  const auto& a = g.allocation;
  json slots = json::object();
  for (std::size_t s = 0; s < a.slot_latency.size(); ++s) slots[std::to_string(s)] = a.slot_latency[s];
  return {{"note", "1 trace time unit = 1 clock cycle; iterations i-1, i, i+1 of the steady state"},
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
  return dump_json(j, 2) + "\n";
}

}  // namespace stream::report
