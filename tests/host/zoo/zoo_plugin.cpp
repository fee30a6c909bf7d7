// One source for most of the test zoo: each variant is compiled with a ZOO_MODE that breaks it in
// one way (gz-plugin's Bad* plugins), or not at all. The descriptors of other ABI versions are
// written out member by member, as a plugin built against that version's header would have them.
#include <cstdint>
#include <stdexcept>

#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>

#define ZOO_GOOD 0
#define ZOO_NEWER_MAJOR 1
#define ZOO_SHORT_DESCRIPTOR 2
#define ZOO_THROWS 3
#define ZOO_NO_SYMBOL 4
#define ZOO_ID_MISMATCH 5
#define ZOO_OLDER_MINOR 6
#define ZOO_NEWER_MINOR 7
#define ZOO_NULL_DESCRIPTOR 8
#define ZOO_NULL_REGISTER 9
#define ZOO_OLDER_MAJOR 10
#define ZOO_DOES_NOT_OPEN 11
#define ZOO_UNDECLARED 12
#define ZOO_TINY_DESCRIPTOR 13
#define ZOO_GROWN_DESCRIPTOR 14

#if ZOO_MODE == ZOO_DOES_NOT_OPEN
// Defined nowhere: under RTLD_NOW the loader refuses the library.
extern "C" void zoo_symbol_no_library_defines();
#endif

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
#if ZOO_MODE == ZOO_DOES_NOT_OPEN
  zoo_symbol_no_library_defines();
#endif
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
#if ZOO_MODE == ZOO_UNDECLARED
  r.add_block(stream::BlockSpec{"UndeclaredOp", "zoo block", "not in the manifest", {},
                                [](const stream::BlockParams&) { return marker_workload(); }});
#endif
}

// The descriptor of ABI 1.0, as plugin.hpp of Stream 0.1.0 declared it: 32 bytes, no minor.
struct DescriptorV1_0 {
  std::uint32_t abi_version, struct_size;
  const char *id, *version;
  void (*register_plugin)(stream::PluginRegistrar&);
};
static_assert(sizeof(DescriptorV1_0) == 32);

// A descriptor of a later minor: this header's members and one more.
struct GrownDescriptor {
  StreamPluginDescriptor current;
  const char* a_later_member;
};

constexpr std::uint32_t kSize = sizeof(StreamPluginDescriptor);

}  // namespace

#if ZOO_MODE != ZOO_NO_SYMBOL
extern "C" __attribute__((visibility("default"))) const StreamPluginDescriptor* stream_plugin_descriptor() {
#define ZOO_DESCRIPTOR(MAJOR, SIZE, ID, REGISTER, MINOR) \
  {MAJOR, SIZE, ID, "1.0", REGISTER, MINOR, STREAM_PLUGIN_SDK_VERSION, STREAM_PLUGIN_STDLIB}
#if ZOO_MODE == ZOO_NEWER_MAJOR
  static const StreamPluginDescriptor d ZOO_DESCRIPTOR(STREAM_PLUGIN_ABI_VERSION + 1, kSize, ZOO_ID, register_zoo, 0);
#elif ZOO_MODE == ZOO_OLDER_MAJOR
  static const StreamPluginDescriptor d ZOO_DESCRIPTOR(STREAM_PLUGIN_ABI_VERSION - 1, kSize, ZOO_ID, register_zoo, 0);
#elif ZOO_MODE == ZOO_SHORT_DESCRIPTOR
  // Claims this minor but stops 8 bytes short (no room for the stdlib member).
  static const StreamPluginDescriptor d ZOO_DESCRIPTOR(STREAM_PLUGIN_ABI_VERSION, kSize - 8, ZOO_ID, register_zoo,
                                                       STREAM_PLUGIN_ABI_MINOR);
#elif ZOO_MODE == ZOO_TINY_DESCRIPTOR
  static const StreamPluginDescriptor d ZOO_DESCRIPTOR(STREAM_PLUGIN_ABI_VERSION, 24, ZOO_ID, register_zoo,
                                                       STREAM_PLUGIN_ABI_MINOR);
#elif ZOO_MODE == ZOO_ID_MISMATCH
  static const StreamPluginDescriptor d ZOO_DESCRIPTOR(STREAM_PLUGIN_ABI_VERSION, kSize, "someone-else", register_zoo,
                                                       STREAM_PLUGIN_ABI_MINOR);
#elif ZOO_MODE == ZOO_NULL_REGISTER
  static const StreamPluginDescriptor d ZOO_DESCRIPTOR(STREAM_PLUGIN_ABI_VERSION, kSize, ZOO_ID, nullptr,
                                                       STREAM_PLUGIN_ABI_MINOR);
  (void)&register_zoo;
#elif ZOO_MODE == ZOO_NULL_DESCRIPTOR
  const StreamPluginDescriptor* const d_ptr = nullptr;
  (void)&register_zoo;
  return d_ptr;
#elif ZOO_MODE == ZOO_OLDER_MINOR
  static const DescriptorV1_0 v1_0{STREAM_PLUGIN_ABI_VERSION, sizeof(DescriptorV1_0), ZOO_ID, "1.0", register_zoo};
  return reinterpret_cast<const StreamPluginDescriptor*>(&v1_0);
#elif ZOO_MODE == ZOO_NEWER_MINOR || ZOO_MODE == ZOO_GROWN_DESCRIPTOR
  constexpr std::uint32_t claimed_minor = ZOO_MODE == ZOO_NEWER_MINOR ? STREAM_PLUGIN_ABI_MINOR + 1 : STREAM_PLUGIN_ABI_MINOR;
  static const GrownDescriptor grown{
      ZOO_DESCRIPTOR(STREAM_PLUGIN_ABI_VERSION, sizeof(GrownDescriptor), ZOO_ID, register_zoo, claimed_minor), "later"};
  return &grown.current;
#else
  static const StreamPluginDescriptor d ZOO_DESCRIPTOR(STREAM_PLUGIN_ABI_VERSION, kSize, ZOO_ID, register_zoo,
                                                       STREAM_PLUGIN_ABI_MINOR);
#endif
#if ZOO_MODE != ZOO_NULL_DESCRIPTOR && ZOO_MODE != ZOO_OLDER_MINOR && ZOO_MODE != ZOO_NEWER_MINOR && \
    ZOO_MODE != ZOO_GROWN_DESCRIPTOR
  return &d;
#endif
}
#else
extern "C" __attribute__((visibility("default"))) void (*not_a_stream_plugin())(stream::PluginRegistrar&) { return register_zoo; }
#endif
