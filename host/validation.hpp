// What `stream validate` checks, as a function shared with the Python module: the hardware
// description (and optionally a workload and a mapping) read with every problem collected as a
// diagnostic (file:line:column and the rule broken) rather than thrown; the fusion groups
// `stream run` would schedule, each checked as run checks it before solving; and, with a
// workload and no mapping, the automatic mapping. The JSON forms are `stream validate --format
// json`'s (docs/validate.md).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>
#include <stream/cost/core_probe.hpp>
#include <stream/diagnostics/diagnostics.hpp>
#include <stream/hardware/accelerator.hpp>
#include <stream/ir/workload.hpp>
#include <stream/mapping/mapping.hpp>
#include <stream/cost/cost_backend.hpp>

namespace stream::host {

struct HostContext;

struct ValidateRequest {
  std::string hardware, workload, mapping, tiling;  ///< empty workload/mapping/tiling: not given
};

struct Validation {
  Diagnostics diag;
  std::optional<hardware::Accelerator> accelerator;
  std::optional<mapping::Mapping> mapping;
  std::optional<Workload> workload;
  std::size_t fusion_groups = 0;
  std::optional<mapping::Mapping> generated;  ///< the automatic mapping (workload, no mapping, no errors)
};

/// The per-core cost model's problems with the accelerator's cores (cost::probe_accelerator) as
/// errors, each distinct one once, leaving out the cores a backend of `backends` costs instead.
void add_probe_errors(const hardware::Accelerator& acc, const std::vector<cost::CoreProblem>& problems,
                      const std::vector<CostBackend>& backends, Diagnostics& diag);

[[nodiscard]] Validation validate_inputs(const ValidateRequest& request, HostContext& ctx);

[[nodiscard]] nlohmann::json diagnostic_json(const Diagnostic& d);
[[nodiscard]] nlohmann::json accelerator_json(const hardware::Accelerator& acc);
[[nodiscard]] nlohmann::json mapping_json(const mapping::Mapping& m);
/// {valid, errors, warnings, and when valid: accelerator, workload, mapping, automatic_mapping}.
[[nodiscard]] nlohmann::json validation_json(const Validation& v, const ValidateRequest& request);

}  // namespace stream::host
