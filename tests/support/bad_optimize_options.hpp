// The bad `optimize?...` options every front end must refuse naming the option (docs/optimize.md):
// the CLI, sweeps and MCP each check them, with what the error says.
#pragma once

namespace stream::test {

struct BadOptimizeOption {
  const char* text;
  const char* says;
};

inline constexpr BadOptimizeOption kBadOptimizeOptions[] = {
    {"optimize?evaluations=0", "evaluations must be an integer from 1 to 1000000, got '0'"},
    {"optimize?objective=speed", "objective must be latency, energy, edp or pareto, got 'speed'"},
    {"optimize?jobs=x", "jobs must be an integer from 1 to 1024, got 'x'"},
    {"optimize?evals=20", "unknown option 'evals'"},
};

}  // namespace stream::test
