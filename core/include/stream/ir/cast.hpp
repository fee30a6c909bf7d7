// Deployment casting: re-typing a model's floating-point tensors before costing.
//
// The seed costs every tensor at the element type its model gives it, so an fp32 export is
// costed in fp32. A deployment compiler casts such a model to the type the hardware computes in
// (bf16 or f16 for LLM blocks, int8 for CNNs) before mapping it; `stream run --cast T` and
// `stream parse --cast T` do the same here: every f64, f32, f16 and bf16 tensor becomes T (any
// element type, f8e4m3fn or i4 as well), integer tensors (int32 biases, int8 weights already
// quantized, indices) and the 8- and 4-bit floats (already quantized) keep their type. Shapes, maps
// and node structure are unchanged, so only widths (and with them memory fits and transfer sizes)
// change. Partial sums still follow each core's accumulator precision.
#pragma once

#include <cstddef>

#include "stream/export.hpp"
#include "stream/ir/workload.hpp"

namespace stream {

/// True for f64, f32, f16 and bf16 (the wide floats a deployment casts; not the 8- and 4-bit ones).
[[nodiscard]] STREAM_API bool is_floating_point(DType t);

struct CastResult {
  Workload workload;
  std::size_t retyped = 0;  ///< tensors whose element type changed
};

/// Every floating-point tensor of `workload` re-typed to `target` (one new Tensor per value, so
/// nodes that shared a tensor still share it).
[[nodiscard]] STREAM_API CastResult cast_floating_point(const Workload& workload, DType target);

}  // namespace stream
