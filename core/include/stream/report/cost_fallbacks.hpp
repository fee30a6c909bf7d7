// Which (node, core) costs of a run are estimates instead of the per-core model's figures.
//
// The per-core cost model cannot cost every pair: a map form it does not describe, operands that
// fit no loop ordering of the core's memories (often an fp32 model on hardware sized for bf16 or
// int8), or a core type it does not model. Such a pair gets the ideal-cycle estimate (MACs over
// the core's units, no energy). Every figure built on an estimate must say so: the summary counts
// them, core_cost_lut.yaml gives each one's reason, and `stream run` warns on stderr with the
// first few and the distinct reasons.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::report {

struct CostFallback {
  int group = 0;
  std::string node;
  int core_id = -1;
  std::string reason;
};

struct CostFallbacks {
  std::size_t entries = 0;  ///< (node, core) pairs costed
  std::vector<CostFallback> fallbacks;  ///< the estimated ones, in group then workload order
  [[nodiscard]] std::size_t count() const { return fallbacks.size(); }
};

[[nodiscard]] STREAM_API CostFallbacks cost_fallbacks(const pipeline::GroupResult& group);
[[nodiscard]] STREAM_API CostFallbacks cost_fallbacks(const pipeline::RunResult& run);

/// One warning paragraph (empty when nothing fell back): the count, the first `listed` pairs
/// and every distinct reason with its count.
[[nodiscard]] STREAM_API std::string fallback_warning(const CostFallbacks& fallbacks, std::size_t listed = 3);

}  // namespace stream::report
