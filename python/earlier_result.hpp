// skip_if_exists=True (the Python Stream's argument of its api functions): a run whose results are
// already in its output directory is not run again; its Result is read back from them. The
// original reloads `<output>/ctx.pickle`, which nothing writes, so there it never skips; here the
// results `stream run` writes are the record: summary.json for the figures (a directory is only
// ever there whole, report/result_directory.hpp), each group's core_cost_lut.yaml for its cost
// table (a --summary-only run has none: its groups' cost tables are empty).
#pragma once

#include <filesystem>
#include <optional>

#include "run_result.hpp"

namespace stream::python {

/// The Result of the run whose results are in `dir`, as evaluate_mapping returned it (without the
/// figures summary.json does not hold: a cost entry's mac_spatial_utilization is None); none when
/// `dir` holds no summary.json.
[[nodiscard]] std::optional<RunFigures> earlier_result(const std::filesystem::path& dir);

}  // namespace stream::python
