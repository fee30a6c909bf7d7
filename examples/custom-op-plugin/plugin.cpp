// An ONNX operator parser for a custom op, `MyScale(X) -> Y` (element-wise, any rank), and a
// vendor's per-core cost backend for its own cores. The parser sees a neutral view of the ONNX
// node (no protobuf) and returns affine nodes; the backend costs every node tile on a core whose
// name is `my_vendor_core` at one output element per cycle.
#include <stream/ir/node.hpp>
#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>

namespace {

std::vector<stream::Node> parse_my_scale(const stream::OnnxNodeView& node, stream::OnnxParseContext& context) {
  if (node.inputs.empty() || node.outputs.size() != 1) node.fail("expects one input and one output");
  auto x = context.tensor(node.inputs[0].name);
  auto y = context.tensor(node.outputs[0].name);
  // Element-wise: every operand is indexed by the identity over the output's axes.
  const auto id = stream::AffineMap::identity(static_cast<int>(y->rank()));
  return {stream::make_computation(node.name, "MyScale", {x}, {y}, {id, id})};
}

stream::CostBackend my_vendor_backend() {
  stream::CostBackend b;
  b.name = "my-vendor";
  b.priority = 20;  // above the built-in model (0) and the bundled AIE backend (10)
  b.core_types = {"zigzag.compute"};
  b.claims = [](const stream::hardware::Core& core) { return core.name == "my_vendor_core"; };
  b.cost = [](const stream::CostRequest& r) {
    double elements = 1;
    for (const auto& d : r.tile.dims) elements *= static_cast<double>(d.size);
    stream::cost::CostEntry e;
    e.latency_total = e.ideal_cycle = e.ideal_temporal_cycle = elements;
    return e;
  };
  return b;
}

void register_plugin(stream::PluginRegistrar& registrar) {
  registrar.add_onnx_parser("MyScale", parse_my_scale);
  registrar.add_cost_backend(my_vendor_backend());
}

}  // namespace

STREAM_PLUGIN("example-custom-op", "1.0.0", register_plugin)
