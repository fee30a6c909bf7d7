// The options of `stream run` as text, with their defaults: what every front end asks of a run
// (the CLI's options, a sweep point's values, Python's and MCP's arguments), turned into the
// pipeline's RunSpec by build_run_spec (run_spec_builder.hpp) alone.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "workload_source.hpp"

namespace stream::host {

struct HostContext;

/// The options of `stream run`, with its defaults (the bundled 2-conv on the TPU-like quad core).
struct RunRequest {
  std::string hardware = "hardware/tpu_like_quad_core.yaml";
  WorkloadSource workload{.file = "workload/2conv_1_8_32_32_16_32_3.onnx"};
  std::string mapping;            ///< empty: automatic
  std::string intra_core_tiling;  ///< Node.D<n>=<tile>,...
  std::string fusion_cut_points;  ///< empty: automatic; "per-layer"; or N1,N2
  std::string out = "outputs";
  std::optional<std::string> experiment_id;
  int threads = 1;
  double time_limit = 0;
  bool no_memory_fallback = false;
  bool no_decompose = false;
  bool inline_timings = false;
  bool no_dedup = false;
  bool summary_only = false;
  std::string config;
  std::string constraint_selection;
  int nb_cols_to_use = 0;  ///< 0: the config's, else the default
  /// Data layouts (docs/layout.md): "fixed" keeps the model's and prices them; "choose" picks one
  /// per tensor and inserts conversions where cheaper (layout/choice.hpp).
  std::string layout = "fixed";
  /// The ideal-cycle estimates' latency (docs/cost-model.md, "Cost profiles"): "reference" keeps
  /// the reference's rule; "full" bounds it by their memory traffic as well.
  std::string cost_profile = "reference";
  /// Whose automatic path (stream/compat.hpp): "none" (this tool's) or "stream-1.13" (the
  /// reference's, where the two deliberately differ).
  std::string compat = "none";
  /// `--strict`: an ideal-cycle estimate for a node doing MAC work (report/cost_fallbacks.hpp,
  /// first_mac_estimate) is an error (bad input, exit 2) and no result is written.
  bool strict = false;
};

using Progress = std::function<void(const std::string&)>;


}  // namespace stream::host
