// Outputs written from little input: OneHot, EyeLike, window functions and random tensors.
// OneHot writes every output element,
// (index == position) ? on : off: loops over the output's axes, the indices read at every axis
// but the depth axis, the two values read at 0. EyeLike writes ones on a diagonal and zeros
// elsewhere: loops over the output's axes and no input (its input gives only the shape and type).
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

std::vector<Node> parse_one_hot(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 3);
  auto Y = output_tensor(v, ctx, 0);
  const auto& indices = v.inputs[0];
  const int ry = static_cast<int>(Y->rank());
  if (indices.shape.size() + 1 != Y->rank()) v.fail("the output must have the indices' rank + 1", Y->name);
  const int axis = normalize_axis(v, v.attr_int("axis", -1), Y->rank());
  std::vector<TensorPtr> ins;
  std::vector<AffineMap> maps;
  // Float indices are data the node reads; int64 ones are not modelled (as Gather's).
  if (indices.dtype) {
    std::vector<E> ir;
    for (int a = 0; a < ry; ++a)
      if (a != axis) ir.push_back(E::dim(a));
    ins.push_back(input_tensor(v, ctx, 0));
    maps.emplace_back(ry, ir);
  }
  auto values = input_tensor(v, ctx, 2);
  if (values->rank() != 1 || values->shape[0] != 2) v.fail("values must be [off, on]", values->name);
  ins.push_back(values);
  maps.emplace_back(ry, std::vector<E>{E::constant(0)});
  maps.push_back(AffineMap::identity(ry));
  return {make_computation(v.name, "OneHot", ins, {Y}, maps)};
}

std::vector<Node> parse_eye_like(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto Y = output_tensor(v, ctx, 0);
  if (Y->rank() != 2) v.fail("the output must be 2-D", Y->name);
  return {make_computation(v.name, "EyeLike", {}, {Y}, {AffineMap::identity(2)})};
}

// Window functions and random tensors: every output element computed from its position (and a
// seed), no data read (their inputs give only a size or a shape).
std::vector<Node> parse_generated(const OnnxNodeView& v, OnnxParseContext& ctx) {
  auto Y = output_tensor(v, ctx, 0);
  const int r = static_cast<int>(Y->rank());
  return {make_computation(v.name, v.op_type, {}, {Y}, {AffineMap::identity(r)})};
}

}  // namespace

void add_generator_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("OneHot", parse_one_hot);
  out.emplace_back("EyeLike", parse_eye_like);
  for (const char* op : {"HannWindow", "HammingWindow", "BlackmanWindow", "MelWeightMatrix", "RandomUniformLike",
                         "RandomNormalLike", "RandomUniform", "RandomNormal"})
    out.emplace_back(op, parse_generated);
}

}  // namespace stream::onnx_frontend
