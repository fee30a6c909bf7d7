// An ONNX operator parser for a custom op, `MyScale(X) -> Y` (element-wise, any rank, attribute
// `scale` ignored by the cost model). The parser sees a neutral view of the ONNX node (no
// protobuf) and returns affine nodes over tensors the context owns; the ONNX frontend wraps them
// into the workload. Bad input is reported through node.fail(), which names the model file and the
// node; the host adds this plugin's id.
#include <stream/ir/node.hpp>
#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>

namespace {

std::vector<stream::Node> parse_my_scale(const stream::OnnxNodeView& node, stream::OnnxParseContext& context) {
  if (node.inputs.size() != 1 || node.outputs.size() != 1) node.fail("expects one input and one output");
  auto x = context.tensor(node.inputs[0].name);
  auto y = context.tensor(node.outputs[0].name);
  if (x->shape != y->shape) node.fail("the output's shape must be the input's", y->name);
  // Element-wise: every operand is indexed by the identity over the output's axes.
  const auto id = stream::AffineMap::identity(static_cast<int>(y->rank()));
  return {stream::make_computation(node.name, "MyScale", {x}, {y}, {id, id})};
}

void register_plugin(stream::PluginRegistrar& registrar) { registrar.add_onnx_parser("MyScale", parse_my_scale); }

}  // namespace

STREAM_PLUGIN("example-custom-op", "1.0.0", register_plugin)
