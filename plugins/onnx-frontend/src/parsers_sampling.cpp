// Resampling by coordinates: GridSample, AffineGrid and CenterCropPad.
//
// GridSample: (N, C, D1..Dk) sampled at grid (N, O1..Ok, k) -> (N, C, O1..Ok). Each output point
// reads a window of input points around its grid coordinate (1 per axis for nearest, 2 for
// (bi)linear, 4 for (bi)cubic) at a position the grid's values choose: loops n, c, o.., f.., the
// input read data-dependently (routed by the grid) with a bound at the window's origin 0, the grid
// read once per output point (its k coordinates: one piece per coordinate).
// AffineGrid: theta (N, k, k+1) times each output point's homogeneous coordinates -> (N, D.., k).
// CenterCropPad: each axis cropped or padded symmetrically to the shape input: a masked read at an
// offset of (in - out) / 2 (floor, as ONNX's).
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

std::int64_t sample_window(const OnnxNodeView& v) {
  const auto mode = v.attr_string("mode", v.opset >= 20 || v.opset == 0 ? "linear" : "bilinear");
  if (mode == "nearest") return 1;
  if (mode == "linear" || mode == "bilinear") return 2;
  if (mode == "cubic" || mode == "bicubic") return 4;
  v.fail("unknown mode '" + mode + "' (nearest, linear, cubic)");
}

std::vector<Node> parse_grid_sample(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto X = input_tensor(v, ctx, 0), grid = input_tensor(v, ctx, 1);
  auto Y = output_tensor(v, ctx, 0);
  const int k = static_cast<int>(X->rank()) - 2;
  if (k < 1 || grid->rank() != X->rank() || grid->shape.back() != k || grid->shape[0] != X->shape[0])
    v.fail("grid must be (N, out spatial..., " + std::to_string(k) + ") for an input of rank " + std::to_string(X->rank()),
           grid->name);
  std::vector<std::int64_t> expected{X->shape[0], X->shape[1]};
  expected.insert(expected.end(), grid->shape.begin() + 1, grid->shape.end() - 1);
  check_output_shape(v, *Y, expected, "(N, C, the grid's spatial extents)");
  const auto window = sample_window(v);
  // Dims: n, c, o_1..o_k, f_1..f_k.
  const int dims = 2 + 2 * k;
  std::vector<E> xr{E::dim(0), E::dim(1)}, yr{E::dim(0), E::dim(1)}, gr{E::dim(0)};
  std::vector<std::string> names{"n", "c"};
  std::vector<std::pair<int, std::int64_t>> windows;
  for (int s = 0; s < k; ++s) {
    xr.push_back(E::constant(0));
    yr.push_back(E::dim(2 + s));
    gr.push_back(E::dim(2 + s));
    names.push_back("o" + std::to_string(s));
    windows.emplace_back(2 + k + s, window);
  }
  for (int s = 0; s < k; ++s) names.push_back("f" + std::to_string(s));
  AccessRelation grid_read;
  grid_read.kind = AccessKind::PiecewiseAffine;
  for (int c = 0; c < k; ++c) {
    auto piece = gr;
    piece.push_back(E::constant(c));
    grid_read.pieces.emplace_back(dims, piece);
  }
  const AccessRelation input_read = routed_by(AffineMap(dims, xr), grid->name);
  auto node = make_computation(v.name, "GridSample", {X, grid}, {Y},
                               {AffineMap(dims, xr), grid_read.pieces.front(), AffineMap(dims, yr)});
  node.access_overrides = {input_read, grid_read, std::nullopt};
  node.window_extents = windows;
  node.dim_names = names;
  validate(node);
  return {std::move(node)};
}

std::vector<Node> parse_affine_grid(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto theta = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const int k = static_cast<int>(Y->rank()) - 2;
  if (k != 2 && k != 3) v.fail("the grid must be (N, H, W, 2) or (N, D, H, W, 3)", Y->name);
  if (theta->shape != std::vector<std::int64_t>{Y->shape[0], k, k + 1})
    v.fail("theta must be (N, " + std::to_string(k) + ", " + std::to_string(k + 1) + ")", theta->name);
  // Dims: n, the k spatial positions, i (output coordinate), j (homogeneous input coordinate).
  const int dims = k + 3, i = k + 1, j = k + 2;
  std::vector<E> yr;
  for (int a = 0; a <= k; ++a) yr.push_back(E::dim(a));
  yr.push_back(E::dim(i));
  auto node = make_computation(v.name, "AffineGrid", {theta}, {Y},
                               {AffineMap(dims, {E::dim(0), E::dim(i), E::dim(j)}), AffineMap(dims, yr)});
  validate(node);
  return {std::move(node)};
}

std::vector<Node> parse_center_crop_pad(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  if (Y->rank() != X->rank()) v.fail("output rank differs from the input's", Y->name);
  const int r = static_cast<int>(X->rank());
  std::vector<E> xr;
  bool pads = false;
  for (int a = 0; a < r; ++a) {
    const auto in = X->shape[static_cast<std::size_t>(a)], out = Y->shape[static_cast<std::size_t>(a)];
    xr.push_back(in >= out ? E::dim(a) + (in - out) / 2 : E::dim(a) - (out - in) / 2);
    pads = pads || out > in;
  }
  auto node = make_computation(v.name, "CenterCropPad", {X}, {Y}, {AffineMap(r, xr), AffineMap::identity(r)});
  if (pads) node.access_overrides = {masked(node.operand_mapping[0]), std::nullopt};
  validate(node);
  return {std::move(node)};
}

}  // namespace

void add_sampling_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("GridSample", parse_grid_sample);
  out.emplace_back("AffineGrid", parse_affine_grid);
  out.emplace_back("CenterCropPad", parse_center_crop_pad);
}

}  // namespace stream::onnx_frontend
