#include "stream/schedule/steady_state.hpp"

#include <algorithm>

#include "stream/error.hpp"
#include "stream/schedule/reference_memory_tiles.hpp"
#include "stream/numeric/rounding.hpp"

namespace stream::schedule {

const char* name(SsKind k) {
  switch (k) {
    case SsKind::InEdge: return "in_edge";
    case SsKind::OutEdge: return "out_edge";
    case SsKind::Compute: return "computation";
    case SsKind::Transfer: return "transfer";
  }
  return "?";
}
const char* name(TransferType t) {
  switch (t) {
    case TransferType::MemToCompute: return "MEM_TO_COMPUTE";
    case TransferType::ComputeToCompute: return "COMPUTE_TO_COMPUTE";
    case TransferType::ComputeToMem: return "COMPUTE_TO_MEM";
    case TransferType::MemToMem: return "MEM_TO_MEM";
  }
  return "?";
}
const char* name(LoopEffect e) {
  switch (e) {
    case LoopEffect::Varying: return "VARYING";
    case LoopEffect::Invariant: return "INVARIANT";
    case LoopEffect::Absent: return "ABSENT";
  }
  return "?";
}

int SteadyState::tensor_index(const std::string& n) const {
  for (std::size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == n) return static_cast<int>(i);
  return -1;
}
int SteadyState::node_index(const std::string& n) const {
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].name == n) return static_cast<int>(i);
  return -1;
}

std::int64_t active_latency(const std::vector<TemporalLoop>& loops, double x) {
  double all = 1, present = 1;
  for (const auto& l : loops) {
    all *= static_cast<double>(l.size);
    if (l.effect != LoopEffect::Absent) present *= static_cast<double>(l.size);
  }
  return numeric::round_half_even_int(x * present / all);  // int(round(...)), pipeline-spec §4.8
}

SteadyState add_compute_latencies(SteadyState ss, const cost::CostTable& costs) {
  for (auto& n : ss.nodes) {
    if (n.kind != SsKind::Compute) continue;
    auto it = costs.find(n.name);
    if (it == costs.end() || it->second.empty())
      throw Error("no cost entry for compute node '" + n.name + "'", Location{.node = n.name}, ErrorKind::Internal);
    double mx = 0;
    for (const auto& e : it->second) mx = std::max(mx, e.latency_total);
    n.lut_latency = std::ceil(mx);
    n.active_latency = active_latency(n.loops, n.lut_latency);
  }
  return ss;
}

SteadyState steady_state(const tiling::TiledGroup& tiled, const cost::CostTable& costs, const hardware::Accelerator& acc,
                         Router* router, int nb_cols_to_use, Compat compat) {
  SteadyState ss = add_compute_latencies(assign_time_slots(add_iteration_spaces(add_transfers(tiled, acc, nb_cols_to_use, router))), costs);
  return compat == Compat::Stream113 ? with_reference_memory_tiles(std::move(ss), tiled) : ss;
}

}  // namespace stream::schedule
