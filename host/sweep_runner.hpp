// One sweep as a function (`stream sweep` and the Python module's sweep()): plugins are used
// once, each hardware file and workload read once, and the points evaluated on a thread pool
// against those shared inputs. A point that fails is a row with its reason; the sweep goes on.
// Rows are appended to OUT/results.jsonl as points finish, so a killed sweep resumes where it
// stopped (points whose identity is already there are skipped); when all are done,
// OUT/results.jsonl and OUT/results.csv hold every point in product order, and OUT/pareto.csv the
// non-dominated ones over latency, energy and area; OUT/report.html shows them
// (report/sweep_report.hpp). A shard (I of N) evaluates every N-th point
// from the I-th (0-based), and merge_sweeps() combines shard directories into one result set,
// equal to the unsharded run's.
#pragma once

#include <cstddef>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include <stream/sweep/sweep_file.hpp>

#include "sweep_point.hpp"

namespace stream::host {

struct HostContext;

struct SweepRequest {
  sweep::SweepFile sweep;
  std::filesystem::path out;
  int jobs = 0;       ///< points evaluated at once; 0: one per hardware thread
  std::string shard;  ///< "I/N", empty: every point
  /// Also write every evaluated point's full results (those of `stream run`) to
  /// OUT/points/<id>/; its row then names its report (`report`: points/<id>/report.html).
  bool keep_points = false;
  /// Held while the sweep uses the plugin host (loading the inputs; each point's expansion), when
  /// several threads share that host (the Python module); the points run without it.
  std::mutex* plugin_lock = nullptr;
  /// Return every row in SweepOutcome::rows (the Python module, the MCP server); the CLI needs
  /// only the counts, and a sweep of many points then holds its rows as text alone.
  bool rows = true;
  /// `--strict`: a point whose figures would rest on an estimate for a Conv/Gemm/MatMul-like node
  /// fails with report::strict_message as its reason (the sweep goes on; the CLI then exits 2).
  bool strict = false;
  /// `--restart`: remove the rows and result files an earlier run left in `out` (under the
  /// sweep's lock) and evaluate every point again, instead of resuming.
  bool restart = false;
};

struct SweepOutcome {
  std::vector<Row> rows;  ///< every point of the request, in product order (when SweepRequest::rows)
  std::size_t points = 0;  ///< the request's points
  std::size_t resumed = 0;  ///< points an earlier run had done (their rows kept, not evaluated again)
  std::vector<Row> pareto;
  std::size_t ok = 0;  ///< rows with status ok
  std::size_t strict_failures = 0;   ///< rows --strict failed (this run's or a resumed one's)
  std::string first_strict_failure;  ///< "point <id>: <reason>" of the first in product order
};

/// Throws stream::Error for a bad shard or an output directory that cannot be written.
[[nodiscard]] SweepOutcome run_sweep(const SweepRequest& request, HostContext& ctx);
/// The rows of every shard directory, written to `out` (how many); throws a stream::Error naming
/// the directory when the shards are not every shard of one sweep, each complete (sweep_shard.hpp).
[[nodiscard]] std::size_t merge_sweeps(const std::vector<std::filesystem::path>& dirs,
                                            const std::filesystem::path& out);

}  // namespace stream::host
