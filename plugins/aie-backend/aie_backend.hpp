// The AIE per-core cost backend (the reference's AIECostEstimator, aie-and-defaults §1.2).
//
// It claims the cores whose type is `aie2.compute` (priority 10, above the built-in ZigZag model's
// 0) and costs a node as its tiled loop sizes' product, floor-divided by the product of the
// node's inter-core split factors, at 32 (bf16) or 16 (f32) operations per cycle, slowed by the
// mapping kernel's utilisation. Energy is not modelled (0), as in the reference. A static library
// so that the MODULE plugin and its tests share one implementation.
#pragma once

#include <cstdint>
#include <vector>

#include <stream/registry/cost_backends.hpp>

namespace stream::aie {

/// `(prod dims) // F`, F = product of the split factors (1 when there are none or it is 0).
[[nodiscard]] std::int64_t aie_macs(const std::vector<std::int64_t>& tiled_dims, const std::vector<std::int64_t>& splits);

/// Operations per cycle of an aie2 compute tile; throws a stream::Error naming `node` for a type
/// combination the reference does not model (mixed input types, anything but bf16 or f32).
[[nodiscard]] int aie_ops_per_cycle(const std::string& node, const std::vector<DType>& inputs, DType output);

[[nodiscard]] cost::CostEntry aie_cost(const CostRequest& request);

/// name "aie", priority 10, claims aie2.compute cores.
[[nodiscard]] CostBackend aie_backend();

}  // namespace stream::aie
