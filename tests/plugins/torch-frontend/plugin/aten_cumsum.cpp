// Test plugin: adds a converter for aten::cumsum to the torch.export frontend, through the same
// registry the ONNX parsers use (key "aten::<op>", declared in the manifest so it loads lazily).
#include <stream/error.hpp>
#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>
#include <stream/version.hpp>

namespace {

// y[..., i, ...] = sum_{j <= i} x[..., j, ...]: the output positions, then the source position j.
std::vector<stream::Node> cumsum(const stream::OnnxNodeView& v, stream::OnnxParseContext& ctx) {
  auto x = ctx.tensor(v.inputs.at(0).name);
  auto y = ctx.tensor(v.outputs.at(0).name);
  const int r = static_cast<int>(x->rank());
  auto axis = v.attr_int("dim", 0);
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r) v.fail("dim out of range");
  std::vector<stream::AffineExpr> xr, yr;
  for (int a = 0; a < r; ++a) {
    xr.push_back(stream::AffineExpr::dim(a == axis ? r : a));
    yr.push_back(stream::AffineExpr::dim(a));
  }
  return {stream::make_computation(v.name, "CumSum", {x}, {y}, {stream::AffineMap(r + 1, xr), stream::AffineMap(r + 1, yr)})};
}

void register_plugin(stream::PluginRegistrar& registrar) { registrar.add_onnx_parser("aten::cumsum", cumsum); }

}  // namespace

STREAM_PLUGIN("test-aten-cumsum", STREAM_VERSION_STRING, register_plugin)
