// A sweep's report.html: one self-contained page (no network; the frame of html_report.hpp) with
// the latency and energy of every point on log scales, the Pareto front (latency, energy, area)
// marked, and the table of all points, sortable by any column. Points whose figures rest partly
// on ideal-cycle estimates (a row's `estimates` > 0) are drawn hollow and marked in the table, and
// a checkbox leaves them out of the plot, showing the front of the other points. Its data are the rows of
// results.jsonl without their clock reading (`wall_s`), so the same points give the same page.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "stream/export.hpp"

namespace stream::report {

/// Writes the page to `path` atomically (io/atomic_file.hpp). `rows`: results.jsonl's lines (one JSON object each); `pareto_ids`:
/// the `id`s of the rows on the Pareto front (pareto.csv's); `exact_pareto_ids`: those of the
/// front of the rows without estimates.
STREAM_API void write_sweep_report(const std::filesystem::path& path, const std::vector<std::string>& rows,
                                   const std::vector<std::string>& pareto_ids,
                                   const std::vector<std::string>& exact_pareto_ids);

}  // namespace stream::report
