// Where a command's workload comes from: a file through the frontend registry, or a reference
// block with parameters, optionally with every registered decomposition applied. Shared by
// `stream parse` and `stream run` so both accept the same options the same way.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <stream/ir/workload.hpp>

namespace CLI {
class App;
}

namespace stream::host {

struct HostContext;

struct WorkloadSource {
  std::string file;                 ///< a model file (empty when a block is given)
  std::string block;                ///< a block key (--block)
  std::vector<std::string> params;  ///< block parameters, k=v (--param)
  std::vector<std::string> dims;    ///< symbolic sizes, NAME=SIZE (--dim)
  std::vector<std::string> inputs;  ///< scalar graph-input values, NAME=VALUE (--input)
  bool decompose = false;           ///< apply every registered decomposition (--decompose)
  bool report_unsupported = false;  ///< list every unsupported operator at once (--report-unsupported)
  std::string cast;                 ///< re-type floating-point tensors to this type (--cast), empty: keep
  /// Keep layout operators as FusionEdges, unfolded (`--compat stream-1.13`; frontends.hpp,
  /// kKeepLayoutOps). Not in label(): the run's experiment id names the mode.
  bool keep_layout_ops = false;

  [[nodiscard]] bool empty() const { return file.empty() && block.empty(); }
  /// A name for output folders: the file's stem or the block key, then every --param, --dim and
  /// --input as -KEY=VALUE sorted by key (two runs that differ in them do not share a folder).
  [[nodiscard]] std::string label() const;
};

/// Adds --block, --param, --dim, --input, --decompose, --report-unsupported and --cast to a subcommand.
void add_workload_source_options(CLI::App& cmd, WorkloadSource& source);

struct LoadedWorkload {
  Workload workload;
  std::size_t cast_tensors = 0;  ///< tensors --cast re-typed
};

/// Loads the workload (decomposed, then cast, when asked); throws stream::Error for bad input
/// (both a file and a block, a malformed k=v, an unknown block or parameter).
[[nodiscard]] LoadedWorkload load_workload(HostContext& ctx, const WorkloadSource& source);

/// The workload as the automatic path schedules it (pipeline/run_spec.hpp, WorkloadOrder): in the
/// reference's name-keyed order, then with Softmax and LpNormalization expanded by their
/// registered decompositions, as the reference's ExpandNormalizationStage does after its
/// re-sequencing (aie-and-defaults §4a). Uses the registries: call it where the plugin host may
/// be used (prepare_run, a sweep's set-up), never from a run.
[[nodiscard]] Workload automatic_path_workload(const Workload& workload, HostContext& ctx);

}  // namespace stream::host
