// A plugin compiled against another variant of the standard library (tests/host/CMakeLists.txt
// builds it with _GLIBCXX_USE_CXX11_ABI=0), so its descriptor's stdlib tag is not the host's. It
// calls nothing of libstream_core: those calls would name old-ABI std::string symbols the core
// does not define, and the loader would refuse the library before the host could read the tag.
#include <stream/plugin/plugin.hpp>

namespace {
void register_nothing(stream::PluginRegistrar&) {}
}  // namespace

STREAM_PLUGIN(ZOO_ID, "1.0", register_nothing)
