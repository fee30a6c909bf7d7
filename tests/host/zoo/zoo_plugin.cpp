// One source for the whole test zoo: each variant is compiled with a ZOO_MODE that breaks it in
// one way (gz-plugin's Bad* plugins), or not at all.
#include <stdexcept>

#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>

#define ZOO_GOOD 0
#define ZOO_WRONG_ABI 1
#define ZOO_WRONG_SIZE 2
#define ZOO_THROWS 3
#define ZOO_NO_SYMBOL 4
#define ZOO_ID_MISMATCH 5

namespace {

// A one-node workload whose node name tells which plugin built it.
stream::Workload marker_workload() {
  auto t = stream::make_tensor("x", stream::DType::i8, {4});
  auto y = stream::make_tensor("y", stream::DType::i8, {4});
  return stream::Workload({stream::make_in_edge("in", t),
                           stream::make_computation(ZOO_ID, "Relu", {t}, {y}, {stream::AffineMap::identity(1),
                                                                              stream::AffineMap::identity(1)})});
}

void register_zoo(stream::PluginRegistrar& r) {
#if ZOO_MODE == ZOO_THROWS
  r.add_block(stream::BlockSpec{"zoo_partial", "half-registered", "", {}, [](const stream::BlockParams&) { return marker_workload(); }});
  throw std::runtime_error("zoo plugin refuses to register");
#else
  r.add_block(stream::BlockSpec{ZOO_KEY, "zoo block", "built by " ZOO_ID, {},
                                [](const stream::BlockParams&) { return marker_workload(); }});
  r.add_onnx_parser(ZOO_KEY, [](const stream::OnnxNodeView&, stream::OnnxParseContext&) {
    return std::vector<stream::Node>{};
  });
#endif
}

}  // namespace

#if ZOO_MODE != ZOO_NO_SYMBOL
extern "C" __attribute__((visibility("default"))) const StreamPluginDescriptor* stream_plugin_descriptor() {
#if ZOO_MODE == ZOO_WRONG_ABI
  static const StreamPluginDescriptor d{STREAM_PLUGIN_ABI_VERSION + 1, sizeof(StreamPluginDescriptor), ZOO_ID, "1.0", register_zoo};
#elif ZOO_MODE == ZOO_WRONG_SIZE
  static const StreamPluginDescriptor d{STREAM_PLUGIN_ABI_VERSION, sizeof(StreamPluginDescriptor) + 1, ZOO_ID, "1.0", register_zoo};
#elif ZOO_MODE == ZOO_ID_MISMATCH
  static const StreamPluginDescriptor d{STREAM_PLUGIN_ABI_VERSION, sizeof(StreamPluginDescriptor), "someone-else", "1.0", register_zoo};
#else
  static const StreamPluginDescriptor d{STREAM_PLUGIN_ABI_VERSION, sizeof(StreamPluginDescriptor), ZOO_ID, "1.0", register_zoo};
#endif
  return &d;
}
#else
extern "C" __attribute__((visibility("default"))) void (*not_a_stream_plugin())(stream::PluginRegistrar&) { return register_zoo; }
#endif
