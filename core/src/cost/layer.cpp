#include "stream/cost/layer.hpp"

#include <algorithm>
#include <numeric>

#include "stream/cost/window_count.hpp"

namespace stream::cost {

namespace {

// Number of distinct indices c1*i + c2*j + const inside [0, extent-1] (closed form: the extents
// and the padding can be 2^31 and more).
std::int64_t window_extent(const AxisExpr& e, const std::vector<std::int64_t>& sizes, std::int64_t extent) {
  return distinct_window_indices(e.terms[0].coef, sizes[static_cast<std::size_t>(e.terms[0].dim)], e.terms[1].coef,
                                 sizes[static_cast<std::size_t>(e.terms[1].dim)], e.constant, extent);
}

PrRelation pr_relation(const AxisExpr& e, const std::vector<std::int64_t>& sizes, std::int64_t extent) {
  PrRelation rel;
  rel.a = e.terms[0].dim;
  rel.ca = e.terms[0].coef;
  rel.b = e.terms[1].dim;
  rel.cb = e.terms[1].coef;
  rel.padding = -e.constant;
  rel.full_size = e.window_size > 0 ? e.window_size : window_extent(e, sizes, extent);
  const std::int64_t g = std::gcd(rel.ca, rel.cb);
  rel.sa = rel.ca / g;
  rel.sb = rel.cb / g;
  return rel;
}

// An operand's axes: a plain dim, or a window (a new pr dim, its index patched by classify()).
LayerOperand read_operand(const TileOperand& op, Layer& l) {
  LayerOperand lo;
  lo.name = op.role;
  lo.precision = op.precision_bits;
  for (std::size_t ax = 0; ax < op.axes.size(); ++ax) {
    const AxisExpr& e = op.axes[ax];
    if (e.terms.size() == 1 && e.terms[0].coef == 1) {
      lo.index.push_back(e.terms[0].dim);
    } else if (e.terms.size() == 2 && e.constant <= 0) {
      const std::int64_t extent = ax < op.tensor_shape.size() ? op.tensor_shape[ax] : INT64_MAX / 4;
      lo.index.push_back(-1 - static_cast<int>(l.pr.size()));
      l.pr.push_back(pr_relation(e, l.sizes, extent));
    } else {
      throw StreamLayerError(e.terms.empty() ? "Unsupported affine expr type AffineConstantExpr in mapping."
                                             : "Unsupported affine expression form in mapping.");
    }
  }
  return lo;
}

// The relevant (r) and irrelevant (ir) loops of an operand, its dim classes and pr lists.
void classify(LayerOperand& op, const Layer& l, DimMask pr_loop_list) {
  DimMask index_mask = 0;
  for (int& d : op.index) {
    if (d < 0) {
      d = l.pr_id(-1 - d);
      op.has_pr = true;
      op.pr_dims |= bit(d);
    }
    index_mask |= bit(d);
  }
  for (int d = 0; d < l.n_loop; ++d) {
    const bool size_one = l.sizes[static_cast<std::size_t>(d)] == 1;
    if (op.has_pr) {
      if ((index_mask & bit(d)) && !(pr_loop_list & bit(d))) op.r |= bit(d);
      if (!(index_mask & bit(d)) && !(pr_loop_list & bit(d)) && !size_one) op.ir |= bit(d);
    } else {
      if ((index_mask & bit(d)) && !size_one) op.r |= bit(d);
      if (!(index_mask & bit(d)) && !size_one) op.ir |= bit(d);
    }
  }
  op.dim_class.assign(static_cast<std::size_t>(l.n_loop), 0);
  for (int d = 0; d < l.n_loop; ++d) {
    if (op.r & bit(d)) {
      op.r_loop_dims.push_back(d);
      op.dim_class[static_cast<std::size_t>(d)] = 1;
    } else if (op.ir & bit(d)) {
      op.dim_class[static_cast<std::size_t>(d)] = 2;
    }
  }
  for (int k = 0; k < l.n_pr; ++k)
    if (op.pr_dims & bit(l.pr_id(k))) {
      op.pr_list.push_back(k);
      op.dim_class[static_cast<std::size_t>(l.pr[static_cast<std::size_t>(k)].a)] = 3 + k;
      op.dim_class[static_cast<std::size_t>(l.pr[static_cast<std::size_t>(k)].b)] = 3 + k;
    }
  op.r_dec = op.r;
  op.ir_dec = op.ir;
  for (int k = 0; k < l.n_pr; ++k) {
    op.r_dec |= bit(l.pr_r_id(k));
    op.ir_dec |= bit(l.pr_ir_id(k));
  }
}

}  // namespace

Layer Layer::from_tile(const Tile& tile) {
  Layer l;
  l.n_loop = static_cast<int>(tile.dims.size());
  for (const auto& d : tile.dims) {
    l.sizes.push_back(d.size);
    l.macs *= d.size;
  }
  if (tile.operands.empty()) throw StreamLayerError("node has no tensors");
  // Axis forms and pr dims first, in operand order then axis order: every operand's pr ids
  // depend on the total pr count.
  for (const auto& op : tile.operands) l.operands.push_back(read_operand(op, l));
  l.n_pr = static_cast<int>(l.pr.size());
  if (l.n_ids() > 64) throw StreamLayerError("too many dimensions for the cost model");
  l.precision_out_final = l.operands[0].precision;
  l.pr_of_source.assign(static_cast<std::size_t>(l.n_loop), -1);
  DimMask pr_loop_list = 0;  // pr dims and their sources (ZigZag's pr-loop list)
  for (int k = 0; k < l.n_pr; ++k) {
    const PrRelation& rel = l.pr[static_cast<std::size_t>(k)];
    l.pr_of_source[static_cast<std::size_t>(rel.a)] = k;
    l.pr_of_source[static_cast<std::size_t>(rel.b)] = k;
    pr_loop_list |= bit(l.pr_id(k)) | bit(rel.a) | bit(rel.b);
  }
  for (auto& op : l.operands) classify(op, l, pr_loop_list);
  return l;
}

double Layer::full_tensor_size(int op) const {
  std::vector<double> p(sizes.begin(), sizes.end());
  return tensor_size(op, p.data());
}

std::string Layer::dim_name(int id) const {
  if (id < n_loop + n_pr) return "D" + std::to_string(id);
  if (id < n_loop + 2 * n_pr) return "D" + std::to_string(id - n_pr) + "_r";
  return "D" + std::to_string(id - 2 * n_pr) + "_ir";
}

}  // namespace stream::cost
