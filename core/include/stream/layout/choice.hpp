// Choosing each tensor's layout (`stream run --layout choose`, docs/layout.md).
//
// `--layout fixed` (the default) keeps the model's row-major layouts and only prices them. Under
// `--layout choose` the run is two passes: the first schedules every group with the model's
// layouts; then, per tensor moved to or from the off-chip core, the options (candidates.hpp)
// are its current layout ("model"), its producer's and each reader's preferred order (the order in
// which the node's affine map walks the tensor's axes under the tiling) and their blocked
// variants (the node's tile of an axis as the block). Each option costs the sum over the groups
// of the tensor's off-chip transfer cycles x firings under that layout, with the first pass's
// plans, and their link energy. A tensor a computation node writes may take any of them: its
// producer writes it that way. Graph inputs and constants stay row-major in memory, so another
// layout is reachable only through a conversion; a computed tensor may also be written in its
// producer's order and converted into a reader's. A conversion runs on a compute core (a
// Transpose-like copy in a group of its own, before the first group reading the converted tensor,
// priced by a run of that group) or, where a connection to the off-chip core has a strided DMA,
// on that DMA alone (dma_conversion.hpp). Graph outputs keep the model's order (the caller
// reads them). The rule: fewest cycles, then least energy, then the first option (the model's
// order wins ties). When something changes, the second pass schedules the same groups (the first
// pass's fused groups, unchanged) with the chosen layouts and the conversion groups.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/layout.hpp"
#include "stream/layout/dma_conversion.hpp"

namespace stream::layout {

enum class LayoutMode { Fixed, Choose };

[[nodiscard]] const char* name(LayoutMode mode);  ///< "fixed", "choose"
/// "fixed" or "choose"; anything else throws a stream::Error (bad input) naming `where`.
[[nodiscard]] STREAM_API LayoutMode parse_layout_mode(const std::string& text, const std::string& where);

/// The operator type of a conversion node: a copy whose output has another layout is what a
/// Transpose is once folded, so the cores whose operator_types list Transpose (or list nothing)
/// may run it.
inline constexpr const char* kLayoutConversionType = "Transpose";

/// How an option's layout is reached: the tensor is written in it (None), or written in another
/// layout (`LayoutOption::written`) and rewritten by a conversion group on a compute core (Core)
/// or by a strided DMA engine without a core (Dma, dma_conversion.hpp).
enum class Conversion { None, Core, Dma };

[[nodiscard]] const char* name(Conversion conversion);  ///< "none", "core", "dma"

struct LayoutOption {
  std::string from;  ///< "model", "producer <node>", "reader <node>" (+ " blocked"), "producer <a> -> reader <b>"
  Layout layout;     ///< the layout the readers read
  Layout written;    ///< the layout the tensor is written in: `layout` unless a conversion rewrites it
  std::int64_t transfer_cycles = 0;  ///< sum over groups of the off-chip transfer cycles x firings
  double transfer_energy = 0;        ///< pJ, those transfers' link energy (schedule/transfer_energy.hpp)
  Conversion conversion = Conversion::None;
  std::int64_t conversion_cycles = 0;  ///< the conversion's latency (when priced)
  double conversion_energy = 0;        ///< pJ, the conversion's energy (when priced)
  /// The conversion was priced: a DMA conversion always; a core conversion only when its
  /// transfers alone beat every option without a conversion (the others cannot win, below), by a
  /// run of its group. An unpriced option is never chosen.
  bool conversion_priced = false;
  std::optional<DmaConversionCost> dma;  ///< Conversion::Dma: the engine's two sides
  [[nodiscard]] bool converts() const { return conversion != Conversion::None; }
  [[nodiscard]] std::int64_t total() const { return transfer_cycles + conversion_cycles; }
  [[nodiscard]] double total_energy() const { return transfer_energy + conversion_energy; }
};

struct LayoutChoice {
  std::string tensor;
  std::vector<std::int64_t> shape;
  std::vector<LayoutOption> options;  ///< the model's first (see candidates.hpp for the order)
  std::size_t chosen = 0;             ///< index into options
  [[nodiscard]] const LayoutOption& chosen_option() const { return options.at(chosen); }
  [[nodiscard]] bool changes() const { return chosen != 0; }
};

/// The chosen option: among the options without a conversion and the priced conversions, the one
/// of fewest total cycles, then of least total energy (energies within a relative 1e-9 are equal),
/// then the first (the model's order wins ties).
[[nodiscard]] STREAM_API std::size_t cheapest_option(const std::vector<LayoutOption>& options);

/// Whether `option` of `choice` is a core conversion worth running its group to price: a
/// conversion takes cycles (it moves the tensor twice), so one whose transfers alone do not beat
/// the best option without a conversion cannot win.
[[nodiscard]] bool worth_running(const LayoutChoice& choice, const LayoutOption& option);

/// The name of the tensor a conversion writes: `<tensor>_as_<order joined by _>`, and `_b<size>`
/// for a blocked layout (`K_as_1_0_1_b8` for (1,0,1:8)).
[[nodiscard]] std::string converted_name(const std::string& tensor, const Layout& layout, std::size_t rank);

/// The conversion node's name: `convert_<tensor>`.
[[nodiscard]] std::string conversion_node_name(const std::string& tensor);

}  // namespace stream::layout
