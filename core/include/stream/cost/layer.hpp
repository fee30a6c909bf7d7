// The ZigZag-like layer the cost model works on, built from a tile (tile.hpp).
//
// Stream turns each tensor axis into a loop dimension: a single dimension with coefficient 1 is
// that dimension (its constant dropped); a two-term window expression such as `ox + fx - 1`
// becomes a new "partially relevant" (pr) dimension with the relation `D{n+j} = c1*Da + c2*Db`,
// symmetric padding `-const`, and a full size equal to the number of indices the expression
// covers inside the tensor's logical extent. Any other form makes Stream raise (StreamLayerError).
//
// Dimension ids: [0, n) are the loop dims D0..D{n-1}; [n, n+p) the pr dims; then, for the
// decoupled view of the cost model, [n+p, n+2p) the "_r" halves and [n+2p, n+3p) the "_ir"
// halves of the pr dims. Relevancy sets are bitmasks over these ids, in ZigZag's two flavours:
// the plain one (r, ir: a pr operand's window sources are neither) and the pr-decoupled one.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "stream/cost/tile.hpp"
#include "stream/export.hpp"

namespace stream::cost {

/// Stream itself cannot build the layer (no cost entry exists at all): status `stream_error`.
class STREAM_API StreamLayerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using DimMask = std::uint64_t;
inline constexpr DimMask bit(int dim) { return DimMask{1} << dim; }

struct PrRelation {
  int a = 0;               ///< first source dim (expression order)
  std::int64_t ca = 1;     ///< its coefficient
  int b = 0;               ///< second source dim
  std::int64_t cb = 1;
  std::int64_t padding = 0;
  std::int64_t full_size = 0;  ///< clipped extent: every tile-level pr size is clipped to it
  std::int64_t sa = 1, sb = 1; ///< ca / gcd, cb / gcd (precomputed for the size formula)
};

struct LayerOperand {
  std::string name;        ///< "O", "A", "B", ...
  int precision = 0;       ///< bits (for O: the partial-sum precision)
  std::vector<int> index;  ///< dim id per tensor axis (loop or pr dim)
  bool has_pr = false;     ///< indexes a pr dim
  DimMask r = 0, ir = 0;          ///< plain relevancy
  DimMask r_dec = 0, ir_dec = 0;  ///< pr-decoupled relevancy (adds the _r / _ir halves)
  DimMask pr_dims = 0;            ///< pr dims in the index
  std::vector<int> r_loop_dims;   ///< loop dims in r (tensor size factors)
  std::vector<int> pr_list;       ///< indices k of the pr dims in the index
  /// Per loop dim, for the cost model's decoupled view: 0 = counts in neither product,
  /// 1 = relevant, 2 = irrelevant, 3 + k = source of pr dim k of this operand.
  std::vector<int> dim_class;
};

class STREAM_API Layer {
 public:
  /// Applies Stream's rules; throws StreamLayerError on an unsupported axis form.
  static Layer from_tile(const Tile& tile);

  int n_loop = 0;
  int n_pr = 0;
  std::vector<std::int64_t> sizes;   ///< loop dims
  std::vector<PrRelation> pr;        ///< pr dim k has id n_loop + k
  std::vector<LayerOperand> operands;  ///< O first, then inputs in order
  int precision_out_final = 0;       ///< O_final
  std::int64_t macs = 1;             ///< product of the loop sizes
  std::vector<int> pr_of_source;     ///< per loop dim: the pr index it is a source of, or -1

  [[nodiscard]] int n_inputs() const { return static_cast<int>(operands.size()) - 1; }
  [[nodiscard]] int pr_id(int k) const { return n_loop + k; }
  [[nodiscard]] int pr_r_id(int k) const { return n_loop + n_pr + k; }
  [[nodiscard]] int pr_ir_id(int k) const { return n_loop + 2 * n_pr + k; }
  [[nodiscard]] int n_ids() const { return n_loop + 3 * n_pr; }

  /// ZigZag's calc_tensor_dim: the pr extent of relation k for source products `a` and `b`
  /// (truncated to integers first), clipped to the full pr size.
  [[nodiscard]] double pr_size(int k, double a, double b) const {
    const PrRelation& rel = pr[static_cast<std::size_t>(k)];
    const auto A = static_cast<std::int64_t>(a);
    const auto B = static_cast<std::int64_t>(b);
    const std::int64_t over = B - rel.sa;
    const std::int64_t v = A * B - (over > 0 ? over : 0) * (A - rel.sb);
    return static_cast<double>(v < rel.full_size ? v : rel.full_size);
  }
  /// Elements of operand `op` for per-loop-dim products `prod` (size n_loop).
  [[nodiscard]] double tensor_size(int op, const double* prod) const {
    const LayerOperand& o = operands[static_cast<std::size_t>(op)];
    double s = 1.0;
    for (int d : o.r_loop_dims) s *= prod[d];
    for (int k : o.pr_list) {
      const PrRelation& rel = pr[static_cast<std::size_t>(k)];
      s *= pr_size(k, prod[rel.a], prod[rel.b]);
    }
    return s;
  }
  /// Elements of operand `op` over the whole layer.
  [[nodiscard]] double full_tensor_size(int op) const;
  /// "D3"-style name of any dim id ("D7_r" for decoupled halves).
  [[nodiscard]] std::string dim_name(int id) const;
};

}  // namespace stream::cost
