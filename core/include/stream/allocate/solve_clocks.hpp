// The clocks of one allocate::solve, kept apart from its Allocation: an Allocation is a value
// (byte-identical between two runs of the same problem, so it can be reused and compared), while
// each MILP solve's seconds differ from run to run and go to timings.* only.
#pragma once

#include <string>
#include <vector>

#include "stream/export.hpp"

namespace stream::allocate {

/// MilpSolveTime::what of a solve that explains an infeasible model (infeasibility.hpp).
inline constexpr const char* kDiagnosisSolve = "diagnosis";

/// One MILP solve: an objective level of the lexicographic solve or a diagnosis solve.
struct MilpSolveTime {
  std::string what;  ///< the level's name, or kDiagnosisSolve
  double solve_time_s = 0;
  std::string status;  ///< as name(SolveStatus) says it
};

/// Every MILP solve of one allocate::solve, in order: the levels solved, then any diagnosis solve.
struct STREAM_API SolveClocks {
  std::vector<MilpSolveTime> solves;

  /// The seconds of the level named `level` (0 when it was not solved here, as for a reused
  /// allocation).
  [[nodiscard]] double level_s(const std::string& level) const;
  /// The lexicographic solve's seconds: every level, no diagnosis.
  [[nodiscard]] double levels_s() const;
};

}  // namespace stream::allocate
