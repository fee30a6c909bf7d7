// Tile (constant repeats) and Range (a non-int64 output; an int64 Range is shape metadata that
// the frontend skips before any parser runs).
//
// Tile reads x[o mod I] on a repeated axis. As for Resize, the mod is replaced by a loop split
// o = I*t + i: output y[I*t + i] and input x[i], with t in [0, repeats) a loop no operand indexes
// alone (a window extent). Both are forms the per-core cost model accepts, where a mod is a
// piecewise-affine read it cannot describe. Range is a computation with no inputs: y[i] over one
// loop (its start, limit and delta are scalars that only set the output extent, which shape
// inference has given).
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

std::vector<Node> parse_tile(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  if (!v.inputs[1].int_values) v.fail("repeats must be a constant integer tensor", v.inputs[1].name);
  const auto& repeats = *v.inputs[1].int_values;
  const auto rank = X->rank();
  if (repeats.size() != rank)
    v.fail("repeats has " + std::to_string(repeats.size()) + " values for an input of rank " + std::to_string(rank),
           v.inputs[1].name);
  if (Y->rank() != rank) v.fail("output rank differs from the input rank", Y->name);
  int dims = static_cast<int>(rank);
  std::vector<E> xr, yr;
  std::vector<std::string> names = numbered_names("i", rank);
  std::vector<std::pair<int, std::int64_t>> windows;
  for (std::size_t a = 0; a < rank; ++a) {
    const auto rep = repeats[a];
    if (rep < 1) v.fail("repeats must be >= 1, got " + std::to_string(rep) + " for axis " + std::to_string(a));
    if (Y->shape[a] != X->shape[a] * rep)
      v.fail("output axis " + std::to_string(a) + " has extent " + std::to_string(Y->shape[a]) + ", expected " +
                 std::to_string(X->shape[a] * rep), Y->name);
    const int i = static_cast<int>(a);
    xr.push_back(E::dim(i));
    if (rep == 1) {
      yr.push_back(E::dim(i));
      continue;
    }
    yr.push_back(E::dim(dims) * X->shape[a] + E::dim(i));
    windows.emplace_back(dims++, rep);
    names.push_back("t" + std::to_string(a));
  }
  auto node = make_computation(v.name, "Tile", {X}, {Y}, {AffineMap(dims, xr), AffineMap(dims, yr)});
  node.dim_names = names;
  node.window_extents = windows;
  validate(node);
  return {std::move(node)};
}

std::vector<Node> parse_range(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 3);
  static const char* roles[] = {"start", "limit", "delta"};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& s = v.inputs[i].shape;
    if (!(s.empty() || (s.size() == 1 && s[0] == 1)))
      v.fail(std::string(roles[i]) + " must be a scalar", v.inputs[i].name);
  }
  auto Y = output_tensor(v, ctx, 0);
  if (Y->rank() != 1) v.fail("output must be 1-D", Y->name);
  auto node = make_computation(v.name, "Range", {}, {Y}, {AffineMap::identity(1)});
  node.dim_names = {"i"};
  return {std::move(node)};
}

}  // namespace

void add_tile_range_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("Tile", parse_tile);
  out.emplace_back("Range", parse_range);
}

}  // namespace stream::onnx_frontend
