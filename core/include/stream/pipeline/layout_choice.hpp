// Choosing each tensor's layout (`stream run --layout choose`, docs/layout.md).
//
// `--layout fixed` (the default) keeps the model's row-major layouts and only prices them. Under
// `--layout choose` the run is two passes: the first schedules every group with the model's
// layouts; then, per tensor moved to or from the off-chip core, the options are its current layout
// ("model"), its producer's preferred order and each reader's preferred order (the order in which
// the node's affine map walks the tensor's axes under the tiling: layout_candidates.hpp). Each
// option costs the sum over the groups of the tensor's off-chip transfer cycles x firings under
// that layout, with the first pass's plans. A tensor a computation node writes may take any
// option: its producer writes it that way. Graph inputs and constants stay row-major in memory, so
// another order is reachable only through a conversion node (a Transpose-like copy in a group of
// its own, before the first group reading the tensor), and that option costs the conversion
// group's latency as well. Graph outputs keep the model's order (the caller reads them). The
// chosen option is the first of least cost: the model's order wins ties, then options in the
// order above. When something changes, the second pass schedules the same groups (the first
// pass's fused groups, unchanged) with the chosen layouts and the conversion groups.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/layout.hpp"

namespace stream::pipeline {

enum class LayoutMode { Fixed, Choose };

[[nodiscard]] const char* name(LayoutMode mode);  ///< "fixed", "choose"
/// "fixed" or "choose"; anything else throws a stream::Error (bad input) naming `where`.
[[nodiscard]] STREAM_API LayoutMode parse_layout_mode(const std::string& text, const std::string& where);

/// The operator type of a conversion node: a copy whose output has another layout is what a
/// Transpose is once folded, so the cores whose operator_types list Transpose (or list nothing)
/// may run it.
inline constexpr const char* kLayoutConversionType = "Transpose";

struct LayoutOption {
  std::string from;  ///< "model", "producer <node>", "reader <node>"
  Layout layout;
  std::int64_t transfer_cycles = 0;  ///< sum over groups of the off-chip transfer cycles x firings
  bool conversion = false;           ///< reached through a conversion node (graph inputs, constants)
  std::int64_t conversion_cycles = 0;  ///< the conversion group's latency (when `conversion`)
  double conversion_energy = 0;        ///< pJ, the conversion group's energy
  /// The conversion group was run: only for options whose transfers beat the model's (a
  /// conversion costs >= 0, so the others cannot win and are left unpriced).
  bool conversion_priced = false;
  [[nodiscard]] std::int64_t total() const { return transfer_cycles + conversion_cycles; }
};

struct LayoutChoice {
  std::string tensor;
  std::vector<std::int64_t> shape;
  std::vector<LayoutOption> options;  ///< distinct layouts, the model's first
  std::size_t chosen = 0;             ///< index into options
  [[nodiscard]] const LayoutOption& chosen_option() const { return options.at(chosen); }
  [[nodiscard]] bool changes() const { return chosen != 0; }
};

/// The first option of least total cost (the model's order, first, wins ties).
[[nodiscard]] STREAM_API std::size_t cheapest_option(const std::vector<LayoutOption>& options);

/// The name of the tensor a conversion writes: `<tensor>_as_<order joined by _>`.
[[nodiscard]] std::string converted_name(const std::string& tensor, const Layout& layout, std::size_t rank);

/// The conversion node's name: `convert_<tensor>`.
[[nodiscard]] std::string conversion_node_name(const std::string& tensor);

}  // namespace stream::pipeline
