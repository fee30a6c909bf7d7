// The built-in ATen converters. Node types use the ONNX vocabulary (MatMul, Conv, Add, Softmax,
// ...) so that mappings, core operator_types and fusion rules written for ONNX workloads apply
// unchanged, and the maps follow the ONNX frontend's conventions (MatMul dims: batch, m, n, k;
// Conv dims: b, ox, oy, fx, fy, c, k[, g]); biases are not operands, as for ONNX Gemm/Conv.
#include <algorithm>
#include <numeric>
#include <set>

#include <stream/error.hpp>

#include <stream/ir/concat_layout.hpp>
#include <stream/ir/conv_layout.hpp>
#include <stream/ir/matmul_layout.hpp>
#include "stream_torch/torch_frontend.hpp"

namespace stream::torch_frontend {
namespace {

using E = AffineExpr;

int norm_axis(const AtenCall& c, AtenContext& ctx, std::int64_t axis, std::size_t rank) {
  const auto r = static_cast<std::int64_t>(rank);
  const auto a = axis < 0 ? axis + r : axis;
  if (a < 0 || a >= std::max<std::int64_t>(r, 1))
    ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank) + " (" + c.op + ")");
  return static_cast<int>(a);
}

// Right-aligned broadcast of an operand onto an output iterated by dims 0..rank-1.
AffineMap broadcast_map(AtenContext& ctx, const Tensor& t, const std::vector<std::int64_t>& out, int dims) {
  if (t.rank() > out.size()) ctx.fail("operand has a higher rank than the output", t.name);
  std::vector<E> r;
  const auto off = out.size() - t.rank();
  for (std::size_t j = 0; j < t.rank(); ++j) {
    const auto o = off + j;
    if (t.shape[j] == out[o]) r.push_back(E::dim(static_cast<int>(o)));
    else if (t.shape[j] == 1) r.push_back(E::constant(0));
    else
      ctx.fail("axis " + std::to_string(j) + " of size " + std::to_string(t.shape[j]) + " does not broadcast to " +
                   std::to_string(out[o]),
               t.name);
  }
  return AffineMap(dims, r);
}

AtenConverter elementwise(const std::string& type) {
  return [type](const AtenCall& c, AtenContext& ctx) -> std::vector<Node> {
    auto Y = ctx.output(0);
    const int r = static_cast<int>(Y->rank());
    std::vector<TensorPtr> ins;
    std::vector<AffineMap> maps;
    for (const char* key : {"self", "input", "other", "exponent"}) {
      const auto name = c.tensor_arg(key);
      if (name.empty()) continue;  // a Python scalar in a Tensor slot is a constant, not an operand
      auto t = ctx.tensor(name);
      maps.push_back(broadcast_map(ctx, *t, Y->shape, r));
      ins.push_back(std::move(t));
    }
    if (ins.empty()) ctx.fail(c.op + " has no tensor operand");
    maps.push_back(AffineMap::identity(r));
    return {make_computation(c.name, type, ins, {Y}, maps)};
  };
}

// numpy matmul (the ONNX MatMul maps, matmul_layout.hpp): dims batch..., m, n, k. With b_nk the
// second operand is stored [n, k] (a linear layer's weight).
Node contraction(const std::string& node_name, const TensorPtr& A, const TensorPtr& B, const TensorPtr& Y, bool b_nk) {
  return matmul_node(node_name, "MatMul", A, B, Y, b_nk ? MatmulLayout::OperandB::NK : MatmulLayout::OperandB::KN);
}

std::vector<Node> convert_matmul(const AtenCall& c, AtenContext& ctx) {
  const auto a = c.tensor_arg("self"), b = c.tensor_arg(c.has("mat2") ? "mat2" : "other");
  if (a.empty() || b.empty()) ctx.fail(c.op + " needs two tensor operands");
  return {contraction(c.name, ctx.tensor(a), ctx.tensor(b), ctx.output(0), false)};
}

std::vector<Node> convert_addmm(const AtenCall& c, AtenContext& ctx) {
  const auto a = c.tensor_arg("mat1"), b = c.tensor_arg("mat2");
  if (a.empty() || b.empty()) ctx.fail("addmm needs mat1 and mat2");
  return {contraction(c.name, ctx.tensor(a), ctx.tensor(b), ctx.output(0), false)};
}

std::vector<Node> convert_linear(const AtenCall& c, AtenContext& ctx) {
  const auto x = c.tensor_arg("input"), w = c.tensor_arg("weight");
  if (x.empty() || w.empty()) ctx.fail("linear needs input and weight");
  auto W = ctx.tensor(w);
  if (W->rank() != 2) ctx.fail("the weight must be 2-D [out, in]", W->name);
  return {contraction(c.name, ctx.tensor(x), W, ctx.output(0), true)};
}

// scaled_dot_product_attention -> its affine sub-operators, tagged with the fused kernel:
// scores = q k^T (MatMul), [+ attn_mask (Add)], Softmax over the key axis, out = probs v (MatMul).
// The 1/sqrt(E) scale is a constant factor of the scores and is not a node; is_causal masks half
// the scores, which the dense maps over-approximate.
std::vector<Node> convert_sdpa(const AtenCall& c, AtenContext& ctx) {
  auto q = ctx.tensor(c.tensor_arg("query")), k = ctx.tensor(c.tensor_arg("key")), v = ctx.tensor(c.tensor_arg("value"));
  auto Y = ctx.output(0);
  if (q->rank() < 2 || k->rank() != q->rank() || v->rank() != q->rank())
    ctx.fail("query, key and value must have the same rank >= 2", q->name);
  const auto r = q->rank();
  for (std::size_t a = 0; a + 2 < r; ++a)
    if (k->shape[a] != q->shape[a] && k->shape[a] != 1)
      ctx.fail("key batch/head axis " + std::to_string(a) + " (" + std::to_string(k->shape[a]) + ") differs from the query's (" +
                   std::to_string(q->shape[a]) + "): grouped-query attention (enable_gqa) is not supported",
               k->name);
  std::vector<std::int64_t> sshape(q->shape.begin(), q->shape.end() - 1);
  sshape.push_back(k->shape[r - 2]);
  const std::string tag = "ScaledDotProductAttention:" + c.name;
  std::vector<Node> out;
  auto scores = ctx.new_tensor(c.name + "_scores", q->dtype, sshape);
  out.push_back(contraction(scores->name, q, k, scores, true));
  auto logits = scores;
  if (const auto mask = c.tensor_arg("attn_mask"); !mask.empty()) {
    auto M = ctx.tensor(mask);
    auto masked = ctx.new_tensor(c.name + "_masked", q->dtype, sshape);
    const int rr = static_cast<int>(r);
    out.push_back(make_computation(masked->name, "Add", {scores, M}, {masked},
                                   {AffineMap::identity(rr), broadcast_map(ctx, *M, sshape, rr), AffineMap::identity(rr)}));
    logits = masked;
  }
  auto probs = ctx.new_tensor(c.name + "_probs", q->dtype, sshape);
  out.push_back(make_normalization(probs->name, "Softmax", logits, probs, {static_cast<int>(r) - 1}));
  out.push_back(contraction(c.name, probs, v, Y, false));
  for (auto& n : out) n.fused_kernel = tag;
  return out;
}

// slice.Tensor: a strided sub-range read along one axis (the ONNX Slice maps).
std::vector<Node> convert_slice(const AtenCall& c, AtenContext& ctx) {
  auto X = ctx.tensor(c.tensor_arg("self"));
  auto Y = ctx.output(0);
  const auto r = X->rank();
  const int axis = norm_axis(c, ctx, c.int_arg("dim", 0), r);
  const auto extent = X->shape[static_cast<std::size_t>(axis)];
  auto start = c.int_arg("start", 0);
  if (start < 0) start += extent;
  start = std::clamp<std::int64_t>(start, 0, extent);
  const auto step = c.int_arg("step", 1);
  if (step < 1) ctx.fail("slice step must be >= 1");
  std::vector<E> xr;
  for (int a = 0; a < static_cast<int>(r); ++a) xr.push_back(a == axis ? E::dim(a) * step + start : E::dim(a));
  const int dims = static_cast<int>(r);
  return {make_computation(c.name, "Slice", {X}, {Y}, {AffineMap(dims, xr), AffineMap::identity(dims)})};
}

// select.int: one index along an axis, which the output drops.
std::vector<Node> convert_select(const AtenCall& c, AtenContext& ctx) {
  auto X = ctx.tensor(c.tensor_arg("self"));
  auto Y = ctx.output(0);
  const auto r = X->rank();
  const int axis = norm_axis(c, ctx, c.int_arg("dim", 0), r);
  auto index = c.int_arg("index", 0);
  if (index < 0) index += X->shape[static_cast<std::size_t>(axis)];
  std::vector<E> xr;
  for (int a = 0; a < static_cast<int>(r); ++a)
    xr.push_back(a == axis ? E::constant(index) : E::dim(a < axis ? a : a - 1));
  const int dims = static_cast<int>(Y->rank());
  return {make_computation(c.name, "Slice", {X}, {Y}, {AffineMap(dims, xr), AffineMap::identity(dims)})};
}


// split / split_with_sizes / unbind: one sub-range read per used output part.
std::vector<Node> convert_split(const AtenCall& c, AtenContext& ctx) {
  auto X = ctx.tensor(c.tensor_arg("self"));
  const auto r = X->rank();
  const int axis = norm_axis(c, ctx, c.int_arg("dim", 0), r);
  const bool unbind = c.op == "aten::unbind";
  std::vector<Node> out;
  std::int64_t offset = 0;
  for (const auto& name : c.outputs) {
    if (name.empty()) continue;
    auto Y = ctx.tensor(name);
    const auto extent = unbind ? 1 : Y->shape[static_cast<std::size_t>(axis)];
    if (ctx.used(name)) {
      std::vector<E> xr;
      for (int a = 0; a < static_cast<int>(r); ++a) {
        if (a != axis) xr.push_back(E::dim(unbind && a > axis ? a - 1 : a));
        else xr.push_back(unbind ? E::constant(offset) : E::dim(a) + offset);
      }
      const int dims = static_cast<int>(Y->rank());
      out.push_back(make_computation(name, "Slice", {X}, {Y}, {AffineMap(dims, xr), AffineMap::identity(dims)}));
    }
    offset += extent;
  }
  if (offset != X->shape[static_cast<std::size_t>(axis)]) ctx.fail("the parts do not add up to the split axis", X->name);
  return out;
}

// where(condition, self, other) / masked_fill(self, mask, value): element-wise select; a bool
// condition is metadata (the IR has no bool), so only the data operands are read.
std::vector<Node> convert_where(const AtenCall& c, AtenContext& ctx) {
  auto Y = ctx.output(0);
  const int r = static_cast<int>(Y->rank());
  std::vector<TensorPtr> ins;
  std::vector<AffineMap> maps;
  for (const char* key : {"condition", "self", "mask", "other", "value"}) {
    const auto name = c.tensor_arg(key);
    if (name.empty() || !ctx.modelled(name)) continue;
    auto t = ctx.tensor(name);
    maps.push_back(broadcast_map(ctx, *t, Y->shape, r));
    ins.push_back(std::move(t));
  }
  if (ins.empty()) ctx.fail(c.op + " has no operand of a modelled element type");
  maps.push_back(AffineMap::identity(r));
  return {make_computation(c.name, "Where", ins, {Y}, maps)};
}

// Tensor factories (arange, zeros, ones, full, ...): a constant the program materializes, an
// InEdge like a lifted constant; bool/int64 ones (masks, positions) are metadata.
std::vector<Node> convert_factory(const AtenCall& c, AtenContext& ctx) {
  if (c.outputs.empty() || c.outputs[0].empty() || !ctx.modelled(c.outputs[0])) return {};
  return {make_in_edge(c.name, ctx.output(0))};
}

// cat: each input fills its part of the output along the axis (a masked, piecewise read).
std::vector<Node> convert_cat(const AtenCall& c, AtenContext& ctx) {
  const auto* list = c.arg("tensors");
  if (!list || list->kind != AtenArg::Kind::Tensors || list->tensors.empty()) ctx.fail("cat needs a list of tensors");
  auto Y = ctx.output(0);
  const int axis = norm_axis(c, ctx, c.int_arg("dim", 0), Y->rank());
  std::vector<TensorPtr> ins;
  for (const auto& name : list->tensors) ins.push_back(ctx.tensor(name));
  return {concat_node(c.name, std::move(ins), Y, axis)};
}

// conv1d/2d/3d and convolution: the ONNX Conv maps (strides, dilations, groups honoured).
std::vector<Node> convert_conv(const AtenCall& c, AtenContext& ctx) {
  auto X = ctx.tensor(c.tensor_arg("input"));
  auto W = ctx.tensor(c.tensor_arg("weight"));
  auto Y = ctx.output(0);
  if (c.int_arg("transposed", 0) != 0) ctx.fail("transposed convolution is not supported");
  if (X->rank() < 3 || W->rank() != X->rank() || Y->rank() != X->rank())
    ctx.fail("input, weight and output must have the same rank >= 3", X->name);
  const std::size_t n = X->rank() - 2;
  auto per_axis = [&](const std::string& key, std::int64_t fallback) {
    auto v = c.ints_arg(key, {});
    if (v.empty()) v.assign(n, fallback);
    if (v.size() == 1) v.assign(n, v[0]);
    if (v.size() != n) ctx.fail(key + " has " + std::to_string(v.size()) + " values for " + std::to_string(n) + " spatial axes");
    return v;
  };
  const auto strides = per_axis("stride", 1);
  const auto dil = per_axis("dilation", 1);
  const auto G = c.int_arg("groups", 1);
  const auto C = X->shape[1], K = W->shape[0];
  if (G < 1 || C % G != 0 || K % G != 0 || W->shape[1] * G != C)
    ctx.fail("groups " + std::to_string(G) + " do not fit C=" + std::to_string(C) + ", K=" + std::to_string(K), W->name);
  std::vector<std::int64_t> pad(n, 0);
  const auto* pa = c.arg("padding");
  if (pa && pa->kind == AtenArg::Kind::String) {
    const auto mode = pa->strings.front();
    if (mode == "same") {
      for (std::size_t s = 0; s < n; ++s) pad[s] = (dil[s] * (W->shape[2 + s] - 1)) / 2;  // torch pads left total//2
    } else if (mode != "valid") {
      ctx.fail("unknown padding mode '" + mode + "'");
    }
  } else {
    pad = per_axis("padding", 0);
  }
  // Grouped: the channel axes are read and written split by group through Reshape views that
  // fold into the neighbours (conv_layout.hpp), as the ONNX frontend does.
  const auto l = conv_layout(C, K, G, strides, dil, pad, /*split_groups=*/true);
  auto grouped = [&](const TensorPtr& t, std::size_t axis, const std::string& role) {
    auto shape = t->shape;
    shape[axis] /= G;
    shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(axis), G);
    return ctx.new_tensor(c.name + "_" + role + "_by_group", t->dtype, shape);
  };
  std::vector<Node> nodes;
  TensorPtr Xg = X, Wg = W, Yg = Y;
  if (G > 1 && C / G > 1) {
    Xg = grouped(X, 1, "input");
    nodes.push_back(make_fusion_edge(c.name + "_group_input", "Reshape", X, Xg));
  }
  if (G > 1 && K / G > 1) {
    Wg = grouped(W, 0, "weight");
    Yg = grouped(Y, 1, "output");
    nodes.push_back(make_fusion_edge(c.name + "_group_weight", "Reshape", W, Wg));
  }
  auto node = make_computation(c.name, "Conv", {Xg, Wg}, {Yg}, {l.input, l.weight, l.output});
  node.dim_names = l.names;
  if (G > 1 && K / G == 1) node.window_extents = {{l.k, 1}};
  for (std::size_t s = 0; s < n; ++s)
    if (dil[s] != 1) node.window_extents.emplace_back(l.f[s], W->shape[2 + s]);
  nodes.push_back(std::move(node));
  if (Yg != Y) nodes.push_back(make_fusion_edge(c.name + "_group_output", "Reshape", Yg, Y));
  return nodes;
}

AtenConverter softmax(const std::string& type) {
  return [type](const AtenCall& c, AtenContext& ctx) -> std::vector<Node> {
    auto X = ctx.tensor(c.tensor_arg("self"));
    auto Y = ctx.output(0);
    const int axis = norm_axis(c, ctx, c.int_arg("dim", -1), Y->rank());
    return {make_normalization(c.name, type, X, Y, {axis})};
  };
}

std::vector<Node> convert_layer_norm(const AtenCall& c, AtenContext& ctx) {
  auto X = ctx.tensor(c.tensor_arg("input"));
  auto Y = ctx.output(0);
  const auto shape = c.ints_arg("normalized_shape", {});
  if (shape.empty() || shape.size() > Y->rank()) ctx.fail("normalized_shape must name 1.." + std::to_string(Y->rank()) + " axes");
  std::vector<int> axes;
  for (std::size_t a = Y->rank() - shape.size(); a < Y->rank(); ++a) axes.push_back(static_cast<int>(a));
  return {make_normalization(c.name, "LayerNormalization", X, Y, axes)};
}

// embedding(weight, indices): a Gather of table rows; the table read is data-dependent, routed
// by the index tensor (whose int64 values the IR does not model as an operand).
std::vector<Node> convert_embedding(const AtenCall& c, AtenContext& ctx) {
  auto Wt = ctx.tensor(c.tensor_arg("weight"));
  const auto idx = c.tensor_arg("indices");
  auto Y = ctx.output(0);
  if (Wt->rank() != 2) ctx.fail("the embedding table must be 2-D", Wt->name);
  const int ry = static_cast<int>(Y->rank()), src = ry;
  if (ry < 1 || Y->shape.back() != Wt->shape[1]) ctx.fail("the output's last axis must be the embedding width", Y->name);
  std::vector<E> yr;
  for (int a = 0; a < ry; ++a) yr.push_back(E::dim(a));
  auto node = make_computation(c.name, "Gather", {Wt}, {Y},
                               {AffineMap(ry + 1, {E::dim(src), E::dim(ry - 1)}), AffineMap(ry + 1, yr)});
  AccessRelation rel;
  rel.kind = AccessKind::DataDependent;
  rel.pieces = {node.operand_mapping[0]};
  rel.index_tensor = idx;
  node.access_overrides = {rel, std::nullopt};
  return {std::move(node)};
}

// index.Tensor with one index tensor (x[idx], x[:, idx]): a Gather along that axis, read
// data-dependently; several index tensors (a point gather) are not supported.
std::vector<Node> convert_index(const AtenCall& c, AtenContext& ctx) {
  auto X = ctx.tensor(c.tensor_arg("self"));
  auto Y = ctx.output(0);
  const auto* idx = c.arg("indices");
  if (!idx || idx->kind != AtenArg::Kind::Tensors) ctx.fail("index needs a list of index tensors");
  int axis = -1;
  std::string index_name;
  for (std::size_t a = 0; a < idx->tensors.size(); ++a) {
    if (idx->tensors[a].empty()) continue;
    if (axis >= 0) ctx.fail("indexing with several index tensors is not supported");
    axis = static_cast<int>(a);
    index_name = idx->tensors[a];
  }
  if (axis < 0 || static_cast<std::size_t>(axis) >= X->rank()) ctx.fail("index has no index tensor");
  const int r = static_cast<int>(X->rank()), ry = static_cast<int>(Y->rank());
  const int q = ry - r + 1;  // the index tensor's rank
  if (q < 0) ctx.fail("output rank does not match the indexing", Y->name);
  const int src = ry;
  std::vector<E> xr, yr;
  for (int a = 0; a < r; ++a) xr.push_back(a < axis ? E::dim(a) : a == axis ? E::dim(src) : E::dim(a - 1 + q));
  for (int a = 0; a < ry; ++a) yr.push_back(E::dim(a));
  auto node = make_computation(c.name, "Gather", {X}, {Y}, {AffineMap(ry + 1, xr), AffineMap(ry + 1, yr)});
  AccessRelation rel;
  rel.kind = AccessKind::DataDependent;
  rel.pieces = {node.operand_mapping[0]};
  rel.index_tensor = index_name;
  node.access_overrides = {rel, std::nullopt};
  return {std::move(node)};
}

// sum.dim_IntList / mean.dim / amax: dims are the output positions, then one per reduced axis.
AtenConverter reduction(const std::string& type) {
  return [type](const AtenCall& c, AtenContext& ctx) -> std::vector<Node> {
    auto X = ctx.tensor(c.tensor_arg("self"));
    auto Y = ctx.output(0);
    const auto r = X->rank();
    std::set<int> axes;
    auto given = c.ints_arg("dim", {});
    if (given.empty()) for (std::size_t a = 0; a < r; ++a) axes.insert(static_cast<int>(a));
    for (auto a : given) axes.insert(norm_axis(c, ctx, a, r));
    const bool keep = c.int_arg("keepdim", 0) != 0;
    const int ry = static_cast<int>(Y->rank());
    if (ry != static_cast<int>(keep ? r : r - axes.size())) ctx.fail("output rank does not match the reduction", Y->name);
    std::vector<E> xr;
    int extra = ry, before = 0;
    for (int a = 0; a < static_cast<int>(r); ++a) {
      if (axes.count(a) != 0) {
        xr.push_back(E::dim(extra++));
        ++before;
      } else {
        xr.push_back(E::dim(keep ? a : a - before));
      }
    }
    std::vector<E> yr;
    for (int a = 0; a < ry; ++a) yr.push_back(E::dim(a));  // a kept unit axis: a parallel loop of size 1
    const int dims = extra;
    return {make_computation(c.name, type, {X}, {Y}, {AffineMap(dims, xr), AffineMap(dims, yr)})};
  };
}

// Reshape-like views: a FusionEdge the core layout folding removes; a same-shape view is the tensor.
AtenConverter reshape(const std::string& type) {
  return [type](const AtenCall& c, AtenContext& ctx) -> std::vector<Node> {
    const auto xname = c.tensor_arg("self").empty() ? c.tensor_arg("input") : c.tensor_arg("self");
    auto X = ctx.tensor(xname);
    auto Y = ctx.output(0);
    if (X->shape == Y->shape) {
      ctx.alias(c.outputs.at(0), xname);
      return {};
    }
    if (X->size_elements() != Y->size_elements())
      ctx.fail("a view of " + std::to_string(X->size_elements()) + " elements as " + std::to_string(Y->size_elements()), Y->name);
    return {make_fusion_edge(c.name, type, X, Y)};
  };
}

std::vector<Node> convert_permute(const AtenCall& c, AtenContext& ctx) {
  const auto xname = c.tensor_arg("self");
  auto X = ctx.tensor(xname);
  auto Y = ctx.output(0);
  const auto r = X->rank();
  std::vector<std::int64_t> perm(r);
  std::iota(perm.begin(), perm.end(), 0);
  if (c.op == "aten::permute") {
    const auto dims = c.ints_arg("dims", {});
    if (dims.size() != r) ctx.fail("permute needs " + std::to_string(r) + " dims");
    for (std::size_t k = 0; k < r; ++k) perm[k] = norm_axis(c, ctx, dims[k], r);
  } else if (c.op == "aten::transpose" || c.op == "aten::swapaxes") {
    const auto a = norm_axis(c, ctx, c.int_arg("dim0", 0), r), b = norm_axis(c, ctx, c.int_arg("dim1", 0), r);
    std::swap(perm[static_cast<std::size_t>(a)], perm[static_cast<std::size_t>(b)]);
  } else {  // t, numpy_T: reverse the axes (t is only defined for rank <= 2)
    std::reverse(perm.begin(), perm.end());
  }
  bool identity = true;
  for (std::size_t k = 0; k < r; ++k) identity = identity && perm[k] == static_cast<std::int64_t>(k);
  if (identity) {
    ctx.alias(c.outputs.at(0), xname);
    return {};
  }
  for (std::size_t k = 0; k < r; ++k)
    if (Y->shape[k] != X->shape[static_cast<std::size_t>(perm[k])]) ctx.fail("output shape does not match the permutation", Y->name);
  ctx.set_permutation(c.name, perm);
  return {make_fusion_edge(c.name, "Transpose", X, Y)};
}

// expand: a broadcast copy; the frontend folds it into its readers when they are all computations.
std::vector<Node> convert_expand(const AtenCall& c, AtenContext& ctx) {
  const auto xname = c.tensor_arg("self");
  auto X = ctx.tensor(xname);
  auto Y = ctx.output(0);
  if (X->shape == Y->shape) {
    ctx.alias(c.outputs.at(0), xname);
    return {};
  }
  const int r = static_cast<int>(Y->rank());
  return {make_computation(c.name, "Expand", {X}, {Y}, {broadcast_map(ctx, *X, Y->shape, r), AffineMap::identity(r)})};
}

// Copies that keep the element type are the same tensor; a type change is a Cast.
std::vector<Node> convert_copy(const AtenCall& c, AtenContext& ctx) {
  auto xname = c.tensor_arg("self");
  if (xname.empty()) xname = c.tensor_arg("input");
  auto X = ctx.tensor(xname);
  auto Y = ctx.output(0);
  if (X->shape != Y->shape) ctx.fail("a copy that changes the shape", Y->name);
  if (X->dtype == Y->dtype) {
    ctx.alias(c.outputs.at(0), xname);
    return {};
  }
  const int r = static_cast<int>(Y->rank());
  return {make_computation(c.name, "Cast", {X}, {Y}, {AffineMap::identity(r), AffineMap::identity(r)})};
}

void fill(AtenConverterTable& t) {
  const std::vector<std::pair<std::string, std::string>> ew{
      {"add", "Add"},   {"sub", "Sub"},         {"rsub", "Sub"},     {"mul", "Mul"},         {"div", "Div"},
      {"relu", "Relu"}, {"silu", "Silu"},       {"gelu", "Gelu"},    {"sigmoid", "Sigmoid"}, {"tanh", "Tanh"},
      {"exp", "Exp"},   {"neg", "Neg"},         {"sqrt", "Sqrt"},    {"rsqrt", "Rsqrt"},     {"pow", "Pow"},
      {"abs", "Abs"},   {"erf", "Erf"},         {"log", "Log"},      {"reciprocal", "Reciprocal"},
      {"hardswish", "HardSwish"}, {"leaky_relu", "LeakyRelu"}, {"maximum", "Max"}, {"minimum", "Min"},
      {"tril", "Tril"}, {"triu", "Triu"}};
  for (const auto& [op, type] : ew) {
    t.add("aten::" + op, elementwise(type));
    t.add("aten::" + op + "_", elementwise(type));  // in-place forms of the training IR
  }
  t.add("aten::mm", convert_matmul);
  t.add("aten::bmm", convert_matmul);
  t.add("aten::matmul", convert_matmul);
  t.add("aten::addmm", convert_addmm);
  t.add("aten::linear", convert_linear);
  for (const char* op : {"aten::conv1d", "aten::conv2d", "aten::conv3d", "aten::convolution", "aten::_convolution"})
    t.add(op, convert_conv);
  t.add("aten::softmax", softmax("Softmax"));
  t.add("aten::_softmax", softmax("Softmax"));
  t.add("aten::log_softmax", softmax("LogSoftmax"));
  t.add("aten::_log_softmax", softmax("LogSoftmax"));
  t.add("aten::layer_norm", convert_layer_norm);
  t.add("aten::native_layer_norm", convert_layer_norm);
  t.add("aten::embedding", convert_embedding);
  t.add("aten::index", convert_index);
  t.add("aten::scaled_dot_product_attention", convert_sdpa);
  t.add("aten::_scaled_dot_product_flash_attention_for_cpu", convert_sdpa);
  t.add("aten::slice", convert_slice);
  t.add("aten::cat", convert_cat);
  t.add("aten::concat", convert_cat);
  for (const char* op : {"aten::split", "aten::split_with_sizes", "aten::unbind", "aten::chunk"}) t.add(op, convert_split);
  t.add("aten::where", convert_where);
  t.add("aten::masked_fill", convert_where);
  t.add("aten::masked_fill_", convert_where);
  for (const char* op : {"aten::arange", "aten::zeros", "aten::ones", "aten::full", "aten::empty", "aten::scalar_tensor",
                         "aten::zeros_like", "aten::ones_like", "aten::full_like", "aten::empty_like", "aten::rand", "aten::randn"})
    t.add(op, convert_factory);
  t.add("aten::select", convert_select);
  t.add("aten::sum", reduction("ReduceSum"));
  t.add("aten::mean", reduction("ReduceMean"));
  t.add("aten::amax", reduction("ReduceMax"));
  for (const char* op : {"aten::view", "aten::reshape", "aten::_unsafe_view", "aten::_reshape_alias"}) t.add(op, reshape("Reshape"));
  t.add("aten::flatten", reshape("Flatten"));
  t.add("aten::unsqueeze", reshape("Unsqueeze"));
  t.add("aten::squeeze", reshape("Squeeze"));
  for (const char* op : {"aten::permute", "aten::transpose", "aten::swapaxes", "aten::t", "aten::numpy_T"})
    t.add(op, convert_permute);
  t.add("aten::expand", convert_expand);
  for (const char* op : {"aten::contiguous", "aten::clone", "aten::alias", "aten::detach", "aten::lift_fresh_copy",
                         "aten::dropout", "aten::_to_copy", "aten::to", "aten::type_as"})
    t.add(op, convert_copy);
}

}  // namespace

AtenConverterTable& AtenConverterTable::builtin() {
  static AtenConverterTable* table = [] {
    auto* t = new AtenConverterTable();
    fill(*t);
    return t;
  }();
  return *table;
}

void AtenConverterTable::add(const std::string& key, AtenConverter converter) { table_[key] = std::move(converter); }

const AtenConverter* AtenConverterTable::find(const std::string& op, const std::string& overload) const {
  if (auto it = table_.find(op + "." + overload); it != table_.end()) return &it->second;
  if (auto it = table_.find(op); it != table_.end()) return &it->second;
  return nullptr;
}

std::vector<std::string> AtenConverterTable::keys() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : table_) out.push_back(k);
  return out;
}

bool is_skipped_target(const std::string& target) {
  static const std::set<std::string> skipped{
      "torch.ops.aten._assert_tensor_metadata.default", "torch.ops.aten._assert_scalar.default",
      "torch.ops.aten.sym_constrain_range_for_size.default", "torch.ops.aten.sym_constrain_range.default",
      "torch.ops.aten._assert_async.msg", "torch.ops.aten._assert_async.default", "torch.ops.aten.sym_size.int",
      "torch.ops.aten.sym_numel.default", "torch.ops.aten.sym_stride.int", "torch.ops.aten.sym_storage_offset.default"};
  if (skipped.count(target) != 0) return true;
  // Python-level symbolic arithmetic (_operator.mul, torch.sym_max, math.trunc, ...)
  for (const char* prefix : {"_operator.", "operator.", "torch.sym_", "math."})
    if (target.rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace stream::torch_frontend
