// The prefix the host runs from: PREFIX in PREFIX/bin/stream, PREFIX/lib/stream/plugins and
// PREFIX/share/stream/inputs, in an install and in the build tree alike (the build tree mirrors
// the install layout). By default it is the parent of the running executable's directory; a host
// that is not an executable of its own (the Python module, loaded by /usr/bin/python3) sets it
// from its own location before it uses plugins or bundled inputs.
#pragma once

#include <filesystem>

namespace stream::host {

[[nodiscard]] std::filesystem::path host_prefix();
/// Replaces the executable-derived prefix (call before the first plugin host is created).
void set_host_prefix(std::filesystem::path prefix);

}  // namespace stream::host
