// The reference's SwiGLU mapping generator (stream/mapping/generator.py, MappingGenerator; spec
// dse §3.2): the mapping variants that `optimize_mapping` evaluates, in its order.
//
// The workload must be SwiGLU-shaped: two matmuls (Gemm or MatMul) of one input X[S, E] by
// weights [E, H] ("Gemm_Left", whose output feeds a Silu, and "Gemm_Right"), a Mul of the Silu's
// output and Gemm_Right's ("Elt_Mul"), and optionally a matmul of that product by [H, E]
// ("Gemm_Down"), and no other computation node. The roles are found from the graph, not from
// names (the reference reads tensors named `input`/`weights_1`); every dim is found from the
// operand maps, so a matmul whose loops are (m, n, k) is split on m and n as one in (m, k, n) is.
//
// Per layer, in the template order Gemm_Left, Gemm_Right, Silu, Elt_Mul, Gemm_Down, the options
// are the split shapes over its inter-core dims (matmul: M then N; elementwise: the row dim):
// every dim split by a divisor of its size that is at most the number of compute cores, the
// product at most that number and in the layer's allowed totals, fitting an R x C array (1-D:
// s <= max(R, C); 2-D: either orientation); then per total only the 2-D shapes closest to "rows
// first" (s0 = min(N, R)), and at most `max_shapes_per_total` of them (sorted by -s0, -s1),
// totals ascending. Variants are the Cartesian product of the layers' options (last layer
// fastest), stably sorted by the sum of their totals (descending by default); each takes
// disjoint compute cores in graph order, layer after layer, and a variant that runs out of cores
// is skipped. Each mapping has one fused group "Fused_Group_1" with the reference's intra-core
// tiling (Gemm_Left K = embedding tile, Gemm_Down N = embedding tile, Gemm_Left N = hidden tile,
// Gemm_Left M = seq tile) and the reference's kernels.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/ir/workload.hpp"
#include "stream/mapping/mapping.hpp"

namespace stream::mapping {

/// The generator's orders: by cores used (stable), or `random.Random(shuffle_seed).shuffle`.
enum class MappingOrder { UtilizationDescending, UtilizationAscending, Random };

/// The reference's layer names (its templates), used as keys of the per-layer policies.
inline constexpr const char* kSwigluRoles[] = {"Gemm_Left", "Gemm_Right", "Silu", "Elt_Mul", "Gemm_Down"};

struct MappingGeneratorOptions {
  std::int64_t seq_len_tile_size = 32;   ///< optimize_mapping's defaults
  std::int64_t embedding_tile_size = 128;
  std::int64_t hidden_tile_size = 64;
  std::optional<int> nb_rows = 4;  ///< none: no array-shape fit and no rows-first filter
  std::optional<int> nb_cols = 8;  ///< none: no array-shape fit
  /// Map the down projection; none: when the workload has one. Given and not matching the
  /// workload, an error (a mapping must cover every node).
  std::optional<bool> last_gemm_down;
  std::optional<std::size_t> max_variants;  ///< none: all
  /// Allowed totals per role (the mapping-generation stage's values); a role not listed: any.
  std::map<std::string, std::vector<std::int64_t>> layer_core_splits = {
      {"Gemm_Left", {4, 8, 16}}, {"Gemm_Right", {4, 8, 16}}, {"Silu", {1, 4}}, {"Elt_Mul", {1, 4}}, {"Gemm_Down", {4, 8, 16}}};
  /// Shapes kept per (role, total); a role not listed: no cap.
  std::map<std::string, int> layer_max_shapes_per_total = {
      {"Gemm_Left", 1}, {"Gemm_Right", 1}, {"Silu", 1}, {"Elt_Mul", 1}, {"Gemm_Down", 1}};
  MappingOrder ordering = MappingOrder::UtilizationDescending;
  std::uint32_t shuffle_seed = 42;  ///< the reference's seed for MappingOrder::Random
  bool disjoint_cores_per_layer = true;
};

/// The SwiGLU nodes and their dims (loop positions of each node).
struct SwigluShape {
  std::string left, right, silu, mul, down;  ///< node names; `down` empty when there is none
  std::int64_t seq_len = 0, embedding_dim = 0, hidden_dim = 0;
  struct MatmulDims {
    int m = 0, k = 0, n = 0;
  };
  MatmulDims left_dims, right_dims, down_dims;
  int silu_row = 0, mul_row = 0;  ///< the loop dim of the output's first axis
  std::string input, weights_1, weights_2, weights_3, output;  ///< tensor names (runtime_args)
};

/// The workload's SwiGLU roles; throws stream::Error naming what does not match.
[[nodiscard]] STREAM_API SwigluShape swiglu_shape(const Workload& workload);

/// One split shape of one layer: (loop dim, split) per inter-core dim.
struct LayerOption {
  std::vector<DimSplit> splits;
  [[nodiscard]] std::int64_t total() const;
};

struct MappingVariant {
  std::size_t index = 0;  ///< contiguous over the emitted variants
  std::string tag;        ///< "Gemm_Left_D0x4_D2x1__...__Gemm_Down_D0x4_D2x4" (node names, loop dims)
  Mapping mapping;
};

/// Per role in template order: its options (exposed for tests).
[[nodiscard]] STREAM_API std::vector<std::vector<LayerOption>> layer_options(const SwigluShape& shape, std::size_t nb_compute_cores,
                                                                             const MappingGeneratorOptions& options);

/// The variants in the reference's order, at most max_variants. Throws stream::Error when the
/// workload is not SwiGLU-shaped, a size check fails, or the accelerator has no compute core.
[[nodiscard]] STREAM_API std::vector<MappingVariant> generate_mapping_variants(const Workload& workload,
                                                                               const hardware::Accelerator& accelerator,
                                                                               const MappingGeneratorOptions& options = {});

}  // namespace stream::mapping
