// GroupNormalization (opsets 18 and 21): X (N, C, spatial...) normalised per group of C/G channels
// over the group's channels and the spatial axes. A NormalizationNode over X's axes 1.. (channels
// and spatial): the same reads and writes, its statistics taken per group of channels. A (G, C/G)
// view of the channel axis would state the groups, but layout folding carries such a view on to
// every later tensor, the graph's outputs included, which would then not have their ONNX shapes.
// Scale and bias are parameters of the normalization, as LayerNormalization's.
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

std::vector<Node> parse_group_norm(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  if (X->rank() < 2) v.fail("expects an (N, C, ...) input", X->name);
  check_output_shape(v, *Y, X->shape, "the input's shape");
  const auto groups = v.attr_int("num_groups", 0);
  const auto channels = X->shape[1];
  if (groups < 1 || channels % groups != 0)
    v.fail("num_groups (" + std::to_string(groups) + ") must divide the " + std::to_string(channels) + " channels");
  std::vector<int> axes;
  for (int a = 1; a < static_cast<int>(X->rank()); ++a) axes.push_back(a);
  return {make_normalization(v.name, "GroupNormalization", X, Y, axes)};
}

}  // namespace

void add_group_norm_parsers(std::vector<ParserEntry>& out) { out.emplace_back("GroupNormalization", parse_group_norm); }

}  // namespace stream::onnx_frontend
