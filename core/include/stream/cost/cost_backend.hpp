// Per-core cost backends: who costs a (node tile, core) pair (the reference's core_cost_backends).
//
// A backend has a name, a priority, a predicate saying which cores it claims, and a function from
// a cost request (the node's per-core tile plus what a backend may need beyond it: the node's loop
// sizes in the tiled workload before the inter-core split, the split factors, the mapping's kernel
// utilisation, the element types) to a cost-table entry. For each core the cost table keeps, among
// the claiming backends, the one with the highest priority; a tie goes to the later registration
// (select_cost_backend, the one place that rule is written). The ZigZag-equivalent model is built
// in (name "zigzag", priority 0, claims every core, registered before any plugin), so a core no
// plugin claims is costed exactly as without backends. A backend is called from the cost table's
// worker threads and must be safe to call concurrently; it reports an input it cannot cost by
// throwing a stream::Error naming the node.
//
// CostBackend and CostRequest are the vocabulary cost-backend plugins are written in, so they are
// `stream` itself, as the IR and the registries are (docs/architecture.md); plugins register them
// through PluginRegistrar::add_cost_backend and include registry/cost_backends.hpp, which brings
// this header.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "stream/cost/cost_table.hpp"
#include "stream/cost/tile.hpp"
#include "stream/export.hpp"
#include "stream/hardware/core.hpp"
#include "stream/ir/dtype.hpp"

namespace stream {

struct CostRequest {
  const cost::Tile& tile;  ///< per-core tile: dims divided by the split where it divides
  /// The node's loop sizes in the tiled workload (one steady-state iteration), before the split.
  std::vector<std::int64_t> tiled_dims;
  const hardware::Core& core;
  std::vector<std::int64_t> split_factors;  ///< the node's inter-core split factors, file order
  std::optional<double> kernel_utilization;  ///< the mapping entry's kernel utilisation (percent)
  std::vector<DType> input_dtypes;           ///< ONNX input order
  DType output_dtype = DType::f32;           ///< outputs[0]
};

struct CostBackend {
  std::string name;
  std::int64_t priority = 0;
  std::vector<std::string> core_types;  ///< what it declares it costs (informative, for listings)
  std::function<bool(const hardware::Core&)> claims;
  /// core_id and core_type of the result are filled by the caller.
  std::function<cost::CostEntry(const CostRequest&)> cost;
};

}  // namespace stream

namespace stream::cost {

/// The built-in model's name: its entries' backend, and a name no plugin may register.
inline constexpr const char* kBuiltinCostBackend = "zigzag";

/// The backend that costs `core` among `backends` (registration order, after the built-in), or
/// nullptr when the built-in ZigZag-equivalent model wins.
[[nodiscard]] STREAM_API const CostBackend* select_cost_backend(const std::vector<CostBackend>& backends,
                                                                const hardware::Core& core);

}  // namespace stream::cost
