// The reference's mapping search (`optimize_mapping`, dse §3.3): every variant of the SwiGLU
// mapping generator (mapping/mapping_generator.hpp), in its order and at most `max` of them, run
// through the whole pipeline with that mapping; the best is the first with a strictly lower
// latency. A variant that fails (an error, or an allocation without an optimal solution) counts
// as an infinite latency and keeps its reason; a search where every variant fails has no best.
//
// As a text (a sweep's `mapping` value, `stream run --mapping`): `search`, or
// `search?max=N&seq_tile=S&emb_tile=E&hidden_tile=H&rows=R&cols=C&order=O&seed=K` (any subset,
// `&`-separated; defaults: optimize_mapping's 20, 32, 128, 64, 4, 8, and the generator's
// `descending`, 42). `cols` is also the steady state's nb_cols_to_use, as in the reference, where
// one context key feeds both. `order` is the generator's ordering: `descending` or `ascending` by
// cores used, or `random`, the reference's `random.Random(seed).shuffle` of the combinations.
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/mapping/mapping_generator.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::pipeline {

struct SearchSpec {
  std::size_t max = 20;
  mapping::MappingGeneratorOptions generator;
};

/// True for "search" and "search?...".
[[nodiscard]] STREAM_API bool is_search_spec(const std::string& text);
/// Parses a search text; throws stream::Error naming a bad or unknown key.
[[nodiscard]] STREAM_API SearchSpec parse_search_spec(const std::string& text);

struct VariantOutcome {
  std::size_t index = 0;
  std::string tag;
  double latency = std::numeric_limits<double>::infinity();  ///< cycles; inf when it failed
  std::string reason;                                        ///< why it failed, empty when it did not
  mapping::Mapping mapping;                                  ///< the variant's full mapping
  std::string infeasibility;  ///< the unsolved groups' diagnoses, when its allocation failed
};

struct STREAM_API SearchResult {
  std::vector<VariantOutcome> variants;  ///< every evaluated variant, in order
  std::optional<std::size_t> best;       ///< index into variants
  std::optional<RunResult> best_run;
  std::optional<RunTimings> best_timings;  ///< the best run's clocks
  std::optional<mapping::Mapping> best_mapping;
  [[nodiscard]] std::size_t failed() const;
};

/// Runs the search; `base` supplies everything but the mapping (cost backends, limits, ...), `env`
/// the caches (one shared by the variants when it has none), progress and cancellation.
/// Throws stream::Error when the generator does (not SwiGLU-shaped, size checks) or when no
/// variant fits the accelerator's compute cores.
[[nodiscard]] STREAM_API SearchResult search_mapping(const Workload& workload, const hardware::Accelerator& accelerator,
                                                     const SearchSpec& spec, RunSpec base = {}, const RunEnv& env = {});

}  // namespace stream::pipeline
