// Reads at positions the data chooses: RoiAlign (regions of interest) and ReverseSequence.
//
// RoiAlign: each output bin (r, c, oy, ox) averages or maxes sampling_ratio x sampling_ratio
// bilinear samples (4 input points each) inside its roi's bin: loops r, c, oy, ox, sy, sx, q (the
// corner), the input read data-dependently (routed by the rois) with the bound at the origin of
// channel c, the roi's 4 coordinates read per output point (one piece each). The adaptive
// sampling_ratio 0 takes its count from the rois' values and is rejected. The batch indices are
// not an operand.
// ReverseSequence: each output element is the input element at its mirrored time position (or its
// own past the sequence's length): loops over the output's axes, the input read data-dependently
// (routed by sequence_lens) at 0 on the time axis.
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

std::vector<Node> parse_roi_align(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 3);
  auto X = input_tensor(v, ctx, 0), rois = input_tensor(v, ctx, 1);
  auto Y = output_tensor(v, ctx, 0);
  if (X->rank() != 4 || rois->rank() != 2 || rois->shape[1] != 4) v.fail("expects X (N, C, H, W) and rois (R, 4)", rois->name);
  const auto oh = v.attr_int("output_height", 1), ow = v.attr_int("output_width", 1), ratio = v.attr_int("sampling_ratio", 0);
  if (ratio < 1)
    v.fail("sampling_ratio " + std::to_string(ratio) + " is not supported (0, adaptive, takes its count from the rois' values)");
  check_output_shape(v, *Y, {rois->shape[0], X->shape[1], oh, ow}, "(rois, C, output_height, output_width)");
  // Dims: r 0, c 1, oy 2, ox 3, sy 4, sx 5, q 6.
  const int dims = 7;
  const AffineMap xbound(dims, {E::constant(0), E::dim(1), E::constant(0), E::constant(0)});
  AccessRelation corners;
  corners.kind = AccessKind::PiecewiseAffine;
  for (int k = 0; k < 4; ++k) corners.pieces.emplace_back(dims, std::vector<E>{E::dim(0), E::constant(k)});
  auto node = make_computation(v.name, "RoiAlign", {X, rois}, {Y},
                               {xbound, corners.pieces.front(), AffineMap(dims, {E::dim(0), E::dim(1), E::dim(2), E::dim(3)})});
  node.access_overrides = {routed_by(xbound, rois->name), corners, std::nullopt};
  node.window_extents = {{4, ratio}, {5, ratio}, {6, 4}};
  node.dim_names = {"r", "c", "oy", "ox", "sy", "sx", "q"};
  validate(node);
  return {std::move(node)};
}

std::vector<Node> parse_reverse_sequence(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  check_output_shape(v, *Y, X->shape, "the input's shape");
  const int r = static_cast<int>(X->rank());
  if (r < 2) v.fail("the input must have a time and a batch axis", X->name);
  const int time = normalize_axis(v, v.attr_int("time_axis", 0), X->rank());
  std::vector<E> xr;
  for (int a = 0; a < r; ++a) xr.push_back(a == time ? E::constant(0) : E::dim(a));
  const AffineMap bound(r, xr);
  auto node = make_computation(v.name, "ReverseSequence", {X}, {Y}, {bound, AffineMap::identity(r)});
  node.access_overrides = {routed_by(bound, v.inputs[1].name), std::nullopt};
  validate(node);
  return {std::move(node)};
}

}  // namespace

void add_region_read_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("RoiAlign", parse_roi_align);
  out.emplace_back("ReverseSequence", parse_reverse_sequence);
}

}  // namespace stream::onnx_frontend
