// The mapping optimizer's outcome as the result files show it (report/optimizer_report.hpp):
// the host joins the two areas, so that report does not depend on optimize.
#pragma once

#include <stream/optimize/optimizer.hpp>
#include <stream/report/optimizer_report.hpp>

namespace stream::host {

/// The figures optimize.yaml gives (the same objective values, budget and flags), for summary.*
/// and report.html. `best`: the best mapping's run, the one the result files describe
/// (`result.best_run` until the host moves it out: run_spec_builder.hpp).
[[nodiscard]] report::OptimizerReport optimizer_report(const optimize::OptimizeResult& result, const pipeline::RunResult& best);

}  // namespace stream::host
