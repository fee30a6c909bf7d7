// Whether the per-core cost model can cost a core as its file describes it (`stream validate`).
//
// The model aborts a node's whole estimate, and Stream silently falls back to ideal cycles with no
// energy, on the first data movement a core's file gives no port for, or when no loop ordering of
// the node fits its memories. So, for every zigzag compute core that may run a Conv, Gemm or
// MatMul (its operator_types allow one), two checks answer before any workload is read. The
// ports: each memory level of an operand needs a port allocated for every direction the model
// moves that operand (an input: read towards lower levels at every level, written from the
// higher level below its top; the output: written from and read towards lower levels at every
// level, read towards and written from the higher level below its top), reported per memory at
// its line with the allocation tags to add. Then a probe: a small canonical Conv, Gemm and
// batched MatMul, each the core accepts, costed at the core's input precision
// (`operand_precision.input`, else 8 bits); an estimate there is a fault of the file, reported at
// the core's line with the reason in words. A core's verdict is cached by its identity (what it
// computes with, its name, precision, operator types and places in its file), so a sweep over many
// variants probes each distinct core once.
#pragma once

#include <string>
#include <vector>

#include "stream/error.hpp"
#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/hardware/core.hpp"

namespace stream::cost {

/// One reason the model cannot cost a core as written.
struct CoreProblem {
  int core_id = -1;  ///< the core it was found on (-1 for a core read on its own)
  Location where;    ///< the memory at fault, else the core
  std::string message;
};

/// The core's problems; empty when the model can cost it (or it is not a zigzag compute core that
/// accepts a Conv, Gemm or MatMul).
[[nodiscard]] STREAM_API std::vector<CoreProblem> probe_core(const hardware::Core& core);

/// probe_core of every core, in id order (identical cores report the same problems).
[[nodiscard]] STREAM_API std::vector<CoreProblem> probe_accelerator(const hardware::Accelerator& acc);

}  // namespace stream::cost
