#include "aie_backend.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <stream/error.hpp>

namespace stream::aie {

std::int64_t aie_macs(const std::vector<std::int64_t>& tiled_dims, const std::vector<std::int64_t>& splits) {
  std::int64_t product = 1;
  for (auto d : tiled_dims) product *= d;
  std::int64_t f = 1;
  for (auto s : splits) f *= s;
  if (f == 0) f = 1;  // the reference's guard (aie_cost_estimator.py:45-51)
  return product / f;
}

int aie_ops_per_cycle(const std::string& node, const std::vector<DType>& inputs, DType output) {
  for (auto t : inputs)
    if (t != inputs.front())
      throw Error("AIE cost backend: node '" + node + "' has inputs of different element types (" +
                  std::string(name(inputs.front())) + " and " + std::string(name(t)) +
                  "); the aie2 model needs one input type");
  const DType in = inputs.empty() ? output : inputs.front();
  if (in == DType::bf16 && output == DType::bf16) return 32;
  if (in == DType::f32 && output == DType::f32) return 16;
  throw Error("AIE cost backend: node '" + node + "' is " + std::string(name(in)) + " -> " + std::string(name(output)) +
              "; the aie2 model knows only bf16 -> bf16 (32 ops/cycle) and f32 -> f32 (16); cast the workload "
              "(--cast bf16)");
}

cost::CostEntry aie_cost(const CostRequest& r) {
  // The reference's formula floors a share a split does not divide (58 channels on 4 tiles: 14
  // each); the longest tile's share, which the request's tile holds (15), is what the schedule
  // waits for. Where the splits divide, the two agree.
  std::int64_t longest_share = 1;
  for (const auto& d : r.tile.dims) longest_share *= d.size;
  const std::int64_t macs = std::max(aie_macs(r.tiled_dims, r.split_factors), longest_share);
  const double ideal = aie_ops_per_cycle(r.tile.name, r.input_dtypes, r.output_dtype);
  const double u = r.kernel_utilization.value_or(100.0);
  const double m = static_cast<double>(macs);
  cost::CostEntry e;
  e.ideal_cycle = std::ceil(m / ideal);
  e.ideal_temporal_cycle = e.ideal_cycle;
  e.latency_total = std::ceil(m / (ideal * (u / 100.0)));  // IEEE double as the reference: 32 x 0.618 = 19.776
  e.energy_total = 0;
  e.mac_spatial_utilization = 0;  // the reference has no cme: "none" (metrics treat it as an estimate)
  e.backend = "aie";
  e.utilization = u;
  return e;
}

CostBackend aie_backend() {
  CostBackend b;
  b.name = "aie";
  b.priority = 10;
  b.core_types = {"aie2.compute"};
  b.claims = [](const hardware::Core& core) {
    return core.type.ns == hardware::Namespace::Aie2 && core.type.kind == hardware::CoreKind::Compute;
  };
  b.cost = aie_cost;
  return b;
}

}  // namespace stream::aie
