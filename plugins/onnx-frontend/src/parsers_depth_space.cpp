// DepthToSpace (DCR and CRD) and SpaceToDepth: pure layout, lowered as the ONNX spec defines them,
// to a Reshape, a Transpose and a Reshape FusionEdge through two intermediate tensors. Layout
// folding (layout_folding.hpp) then removes the three where its rules allow: the inner splits and
// the permutation always compose, and the outer merge of (H, b) into H*b folds when every reader
// walks the merged axis with one bare loop (an elementwise reader or a graph output); behind a
// windowed reader (a padded convolution) the chain stays one FusionEdge, which splits fusion groups.
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using Ints = std::vector<std::int64_t>;

Ints permuted(const Ints& shape, const Ints& perm) {
  Ints out;
  for (auto p : perm) out.push_back(shape[static_cast<std::size_t>(p)]);
  return out;
}

std::vector<Node> reshape_transpose_reshape(const OnnxNodeView& v, OnnxParseContext& ctx, const TensorPtr& X,
                                            const TensorPtr& Y, const Ints& split, const Ints& perm) {
  auto split_t = ctx.new_tensor(v.name + "_blocks", X->dtype, split);
  auto moved_t = ctx.new_tensor(v.name + "_moved", X->dtype, permuted(split, perm));
  const auto transpose = v.name + "_transpose";
  ctx.set_transpose_perm(transpose, perm);
  return {make_fusion_edge(v.name + "_split", "Reshape", X, split_t), make_fusion_edge(transpose, "Transpose", split_t, moved_t),
          make_fusion_edge(v.name, "Reshape", moved_t, Y)};
}

std::int64_t block_size(const OnnxNodeView& v) {
  if (!v.has_attribute("blocksize")) v.fail("missing attribute blocksize");
  const auto b = v.attr_int("blocksize", 0);
  if (b < 1) v.fail("blocksize must be >= 1, got " + std::to_string(b));
  return b;
}

std::vector<Node> parse_depth_to_space(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  if (X->rank() != 4) v.fail("input must be 4-D (N, C, H, W), got rank " + std::to_string(X->rank()), X->name);
  const auto b = block_size(v);
  const auto mode = v.attr_string("mode", "DCR");
  if (mode != "DCR" && mode != "CRD") v.fail("unknown mode '" + mode + "' (expected DCR or CRD)");
  const auto n = X->shape[0], c = X->shape[1], h = X->shape[2], w = X->shape[3];
  if (c % (b * b) != 0) v.fail("channels " + std::to_string(c) + " are not a multiple of blocksize^2 " + std::to_string(b * b), X->name);
  const auto cb = c / (b * b);
  auto Y = output_tensor(v, ctx, 0);
  check_output_shape(v, *Y, {n, cb, h * b, w * b}, "the blocksize");
  // DCR: [N, b, b, C/b^2, H, W] -> (0, 3, 4, 1, 5, 2); CRD: [N, C/b^2, b, b, H, W] -> (0, 1, 4, 2, 5, 3).
  if (mode == "DCR") return reshape_transpose_reshape(v, ctx, X, Y, {n, b, b, cb, h, w}, {0, 3, 4, 1, 5, 2});
  return reshape_transpose_reshape(v, ctx, X, Y, {n, cb, b, b, h, w}, {0, 1, 4, 2, 5, 3});
}

std::vector<Node> parse_space_to_depth(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  if (X->rank() != 4) v.fail("input must be 4-D (N, C, H, W), got rank " + std::to_string(X->rank()), X->name);
  const auto b = block_size(v);
  const auto n = X->shape[0], c = X->shape[1], h = X->shape[2], w = X->shape[3];
  if (h % b != 0 || w % b != 0)
    v.fail("spatial extents " + std::to_string(h) + "x" + std::to_string(w) + " are not multiples of blocksize " + std::to_string(b),
           X->name);
  auto Y = output_tensor(v, ctx, 0);
  check_output_shape(v, *Y, {n, c * b * b, h / b, w / b}, "the blocksize");
  // [N, C, H/b, b, W/b, b] -> (0, 3, 5, 1, 2, 4) = [N, b, b, C, H/b, W/b].
  return reshape_transpose_reshape(v, ctx, X, Y, {n, c, h / b, b, w / b, b}, {0, 3, 5, 1, 2, 4});
}

}  // namespace

void add_depth_space_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("DepthToSpace", parse_depth_to_space);
  out.emplace_back("SpaceToDepth", parse_space_to_depth);
}

}  // namespace stream::onnx_frontend
