// A mapping: which cores run each layer, how a layer is split across them, and how a fused group
// is tiled in time on each core (spec §3.1).
//
// The mapping file is the reference's YAML: a mapping with `layers` (required), `fused_groups` and
// `runtime_args` (and, beyond the reference, `workload`: MappedWorkload), or a bare list (= layers,
// no fused groups). Two fused groups or more are the run's fusion groups, in file order (each a
// consecutive run of the workload's compute nodes); one or none: the whole workload is one group. A layer entry names a node or an op
// type; nodes take the FIRST entry (file order) whose name equals their name or their op type, as
// in the reference (a type entry listed before a name entry wins). Dimensions are positional:
// `D<n>` in inter_core_tiling is the node's n-th loop dim; `<Node>.D<n>` in intra_core_tiling is
// node Node's n-th loop dim (the unified dim it maps to is what gets tiled). Only one core group
// per layer ([[...]]) is supported downstream, so more is an error here.
//
// Reading collects every problem with file:line:column (Diagnostics) before failing; check() then
// validates a mapping against a workload and an accelerator (every computation node matched,
// core ids exist and can compute, dims exist).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <unordered_map>
#include <vector>

#include "stream/diagnostics/diagnostics.hpp"
#include "stream/error.hpp"
#include "stream/export.hpp"

namespace stream {
class Workload;
struct Node;
namespace hardware {
class Accelerator;
}
}  // namespace stream

namespace stream::mapping {

/// `{dim: D<n>, split: f}`: loop dim n of the node is split f ways across the core group.
struct DimSplit {
  int dim = 0;
  std::int64_t split = 1;
  bool operator==(const DimSplit&) const = default;
};

/// AIE kernel hint; ignored by the generic pipeline.
struct Kernel {
  std::string name;
  std::vector<std::pair<std::string, std::string>> kwargs;  ///< scalar kwargs as text, file order
  double utilization = 100.0;                               ///< kwargs.utilization when given
  bool operator==(const Kernel&) const = default;
};

struct STREAM_API LayerMapping {
  std::string name;  ///< node name or op type
  std::vector<std::vector<int>> core_allocation;
  std::vector<std::vector<DimSplit>> inter_core_tiling;  ///< inner lists are equal (validated)
  std::optional<Kernel> kernel;
  Location where;

  /// The (single) core group; empty when none.
  [[nodiscard]] const std::vector<int>& cores() const;
  /// The splits of the first inner list (the only one that matters); empty = not split.
  [[nodiscard]] const std::vector<DimSplit>& splits() const;
  /// Product of the split factors.
  [[nodiscard]] std::int64_t total_split() const;
};

/// `{dim: <Node>.D<n>, tile: t}`: the per-core tile size of node Node's n-th loop dim.
struct STREAM_API TileEntry {
  std::string node;
  int dim = 0;
  std::int64_t tile = 1;
  [[nodiscard]] std::string dim_text() const;  ///< "Node.D<n>"
  bool operator==(const TileEntry&) const = default;
};

struct FusedGroup {
  std::string name;
  std::vector<std::string> layers;  ///< names of layer entries
  std::vector<TileEntry> intra_core_tiling;  ///< order = temporal loop order, innermost first
  Location where;
};

struct RuntimeArg {
  std::string tensor;
  std::optional<std::string> layout;  ///< e.g. "(d0,d1)->(d1,d0)"; not validated (AIE codegen)
};

/// Which workload a mapping file names. AsLoaded: the model as read (every hand-written file).
/// AutomaticPath (`workload: automatic-path`, written by `--mapping optimize`): the workload as the
/// automatic path prepares it, in the reference's name order with Softmax and LpNormalization
/// expanded, so that a rerun schedules the nodes the optimizer mapped in the order it ran them.
enum class MappedWorkload { AsLoaded, AutomaticPath };

struct STREAM_API Mapping {
  std::vector<LayerMapping> layers;
  std::vector<FusedGroup> fused_groups;
  std::vector<RuntimeArg> runtime_args;
  bool bare_list = false;  ///< the file was a bare list of layers
  MappedWorkload workload = MappedWorkload::AsLoaded;
  std::string source_file;
  std::vector<Diagnostic> warnings;

  /// The first layer entry whose name is the node's name or op type, or nullptr.
  [[nodiscard]] const LayerMapping* find(const Node& node) const;
  /// Like find; throws stream::Error "No mapping data found for node ..." when absent.
  [[nodiscard]] const LayerMapping& for_node(const Node& node) const;
};

/// Mapping::find's first-match rule over an index built once: the automatic mapping of a group has
/// a layer entry per node, and scanning them per node made mapping a 20,000-node chain quadratic.
/// Holds a reference: the mapping must outlive it and keep its layers unchanged.
class LayerLookup {
 public:
  explicit LayerLookup(const Mapping& mapping);
  [[nodiscard]] const LayerMapping* find(const Node& node) const;
  [[nodiscard]] const LayerMapping& for_node(const Node& node) const;

 private:
  const Mapping& mapping_;
  std::unordered_map<std::string, std::size_t> first_;  ///< name -> first layer entry so named
};

/// Reads and validates a mapping file (schema only). Throws ValidationError with every problem.
[[nodiscard]] STREAM_API Mapping load_mapping_file(const std::filesystem::path& path, Diagnostics* diagnostics = nullptr);
[[nodiscard]] STREAM_API Mapping parse_mapping_text(const std::string& text, const std::string& file_label,
                                                    Diagnostics* diagnostics = nullptr);
/// Non-throwing form.
[[nodiscard]] STREAM_API std::optional<Mapping> read_mapping_file(const std::filesystem::path& path, Diagnostics& diagnostics);

/// Validates a mapping against a workload and an accelerator, adding errors to `diagnostics`:
/// every computation node has an entry, core groups use existing compute cores, split dims exist
/// in the node and splits are positive, intra-core tiles name existing nodes and dims.
STREAM_API void check_mapping(const Mapping& mapping, const Workload& workload, const hardware::Accelerator& accelerator,
                              Diagnostics& diagnostics);

/// The hardware half of check_mapping, usable without a workload: every core id of every layer
/// entry exists in the accelerator and is a compute core.
STREAM_API void check_mapping_cores(const Mapping& mapping, const hardware::Accelerator& accelerator, Diagnostics& diagnostics);

/// The mapping as YAML that load_mapping_file reads back to an equal mapping.
[[nodiscard]] STREAM_API std::string to_yaml(const Mapping& mapping);
/// Writes to_yaml(mapping) to `path`; throws stream::Error when the file cannot be written.
STREAM_API void write_mapping_file(const Mapping& mapping, const std::filesystem::path& path);

/// Parses a command-line tiling list "Gemm_Left.D1=128,Gemm_Down.D2=128" (entries separated by
/// commas, node names may contain dots and slashes: the last ".D<n>=" splits). Throws stream::Error.
[[nodiscard]] STREAM_API std::vector<TileEntry> parse_tiling_spec(const std::string& text);

}  // namespace stream::mapping
