#include "session.hpp"

#include <dlfcn.h>

#include <filesystem>

#include "host_prefix.hpp"

namespace stream::python {

namespace fs = std::filesystem;

// The module's prefix: in the build tree the module is PREFIX/python/stream_cpp*.so (PREFIX the
// build directory), in an install PREFIX/<site-packages>/stream_cpp*.so, the site-packages
// directory STREAM_PYTHON_PREFIX_FROM_MODULE below PREFIX. The first that holds the bundled
// plugins wins.
void locate_host_prefix() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&locate_host_prefix), &info) == 0 || info.dli_fname == nullptr) return;
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(fs::path(info.dli_fname), ec).parent_path();
  for (const fs::path& candidate : {dir / "..", dir / STREAM_PYTHON_PREFIX_FROM_MODULE}) {
    if (fs::is_directory(candidate / "lib" / "stream" / "plugins", ec)) {
      host::set_host_prefix(fs::weakly_canonical(candidate, ec));
      return;
    }
  }
}

Session& session() {
  // Never destroyed: at interpreter exit the plugin libraries' code may already be unloaded or
  // its registrations referenced by Python objects still alive, so the host is left to the OS.
  static Session* s = new Session;
  return *s;
}

}  // namespace stream::python
