#include "stream/report/trace.hpp"

#include <algorithm>

#include <cmath>
#include <nlohmann/json.hpp>

#include "resources.hpp"
#include "stream/report/utf8.hpp"

namespace stream::report {

std::string steady_state_trace_json(const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  using json = nlohmann::ordered_json;
  const auto& ss = g.schedule;
  const auto& a = g.allocation;
  const auto res = detail::resources(g, acc);
  const std::int64_t P = a.latency_per_iteration, V = a.overlap;
  json events = json::array();
  const std::string pid = "steady_state_schedule";
  auto tid_of = [&](bool core, int id) {
    for (std::size_t k = 0; k < res.size(); ++k)
      if (res[k].is_core == core && res[k].id == id) return static_cast<int>(k);
    return -1;
  };
  for (std::size_t k = 0; k < res.size(); ++k) {
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", k}, {"args", {{"name", res[k].label}}}});
    events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", pid}, {"tid", k}, {"args", {{"sort_index", res[k].sort_key}}}});
  }
  std::vector<std::int64_t> start(a.slot_latency.size(), 0);
  for (std::size_t s = 1; s < start.size(); ++s) start[s] = start[s - 1] + a.slot_latency[s - 1];
  for (int k = -1; k <= 1 && !a.slot_latency.empty(); ++k) {
    const std::int64_t base = (k + 1) * (P - V);
    for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
      const auto& n = ss.nodes[i];
      if (n.slot < 0) continue;
      const auto s = static_cast<std::size_t>(n.slot);
      const std::int64_t ts = base + start[s];
      if (n.kind == schedule::SsKind::Compute) {
        for (int c : n.cores) {
          auto it = acc.coordinates.find(c);
          events.push_back({{"name", n.name + " [" + std::to_string(k) + "]"},
                            {"cat", "computation"},
                            {"ph", "X"},
                            {"ts", ts},
                            {"dur", std::max<std::int64_t>(n.active_latency, 1)},
                            {"pid", pid},
                            {"tid", tid_of(true, c)},
                            {"cname", "good"},
                            {"args",
                             {{"iteration", k},
                              {"slot", n.slot},
                              {"slot_latency_cycles", a.slot_latency[s]},
                              {"total_latency_cycles", a.total_latency},
                              {"active_latency_cycles", n.active_latency},
                              {"core_id", c},
                              {"core_type", acc.core(c).type.str()},
                              {"col", it == acc.coordinates.end() ? json(nullptr) : json(it->second[0])},
                              {"row", it == acc.coordinates.end() ? json(nullptr) : json(it->second[1])}}}});
        }
      } else if (n.kind == schedule::SsKind::Transfer && a.plan[i] >= 0) {
        const auto& p = n.plans[static_cast<std::size_t>(a.plan[i])];
        const auto& in_t = ss.tensors[static_cast<std::size_t>(n.inputs.front())];
        const bool const_in = ss.nodes[static_cast<std::size_t>(in_t.producer)].kind == schedule::SsKind::InEdge;
        // As the reference: constant when the source is an InEdge or a destination an OutEdge (so a
        // transfer staged through a memory core is constant only on its off-chip side).
        const bool const_out = std::any_of(ss.nodes.begin(), ss.nodes.end(), [&](const schedule::SsNode& m) {
          return m.kind == schedule::SsKind::OutEdge &&
                 std::any_of(m.inputs.begin(), m.inputs.end(), [&](int t) {
                   return std::find(n.outputs.begin(), n.outputs.end(), t) != n.outputs.end();
                 });
        });
        const auto R = a.reuse_factor[static_cast<std::size_t>(n.outputs.front())];
        const auto active = schedule::active_latency(n.loops, static_cast<double>(p.latency));
        json loops = json::array();
        for (const auto& l : ss.tensors[static_cast<std::size_t>(n.outputs.front())].loops)
          loops.push_back({{"dim", "z" + std::to_string(l.dim)}, {"size", l.size}, {"relevant", l.effect == schedule::LoopEffect::Varying}});
        std::string path = "Path";
        for (int l : p.links) path += " " + acc.links()[static_cast<std::size_t>(l)].str();
        for (int l : p.links)
          events.push_back({{"name", n.name + " [" + std::to_string(k) + "]"},
                            {"cat", const_in || const_out ? "transfer_const" : "transfer"},
                            {"ph", "X"},
                            {"ts", ts},
                            {"dur", std::max<std::int64_t>(a.slot_latency[s], 1)},
                            {"pid", pid},
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
                              {"output_of", ss.tensors[static_cast<std::size_t>(n.outputs.front())].name},
                              {"full_path", path},
                              {"this_link", acc.links()[static_cast<std::size_t>(l)].str()},
                              {"reuse", {{"reuse_factor", R}, {"loops", loops}}}}}});
      }
    }
  }
  json slots = json::object();
  for (std::size_t s = 0; s < a.slot_latency.size(); ++s) slots[std::to_string(s)] = a.slot_latency[s];
  json j;
  j["traceEvents"] = events;
  j["displayTimeUnit"] = "ns";
  j["otherData"] = {{"note", "1 trace time unit = 1 clock cycle; iterations i-1, i, i+1 of the steady state"},
                    {"total_iterations", ss.iterations},
                    {"latency_per_iteration_cycles", P},
                    {"overlap_cycles", V},
                    {"iter_step_cycles", P - V},
                    {"total_latency_cycles", a.total_latency},
                    {"slot_latencies_cycles", slots},
                    {"compact", false}};
  return dump_json(j, 2) + "\n";
}

}  // namespace stream::report
