// What the mapping optimizer is asked (optimizer.hpp), as the text `--mapping optimize[?...]`, a
// sweep's `mapping: optimize?...`, Python's and MCP's `mapping="optimize..."` give it:
//
//   optimize?objective=latency|energy|edp|pareto&evaluations=N&seed=K&jobs=J
//
// any subset, `&`-separated. objective: what a candidate is ranked by (pareto: the latency-energy
// front, the search's ranking rotating between them); evaluations: the budget of candidate
// mappings (1 to 1,000,000; default 2,000); seed: the search's random stream (0 to 2^63-1; the
// result is a function of the seed and the budget, whatever `jobs`); jobs: threads evaluating
// candidates (1 to 1,024; default: the machine's cores).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "stream/export.hpp"

namespace stream::optimize {

enum class Objective { Latency, Energy, Edp, Pareto };

struct OptimizeSpec {
  Objective objective = Objective::Latency;
  std::size_t evaluations = 2000;
  std::uint64_t seed = 1;
  int jobs = 0;  ///< 0: std::thread::hardware_concurrency()
};

[[nodiscard]] STREAM_API const char* name(Objective objective);
/// True for "optimize" and "optimize?...".
[[nodiscard]] STREAM_API bool is_optimize_spec(const std::string& text);
/// Parses the text; throws stream::Error naming the option and its range for a bad or unknown one.
[[nodiscard]] STREAM_API OptimizeSpec parse_optimize_spec(const std::string& text);

}  // namespace stream::optimize
