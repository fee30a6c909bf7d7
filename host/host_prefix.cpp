#include "host_prefix.hpp"

#include <mutex>
#include <optional>

#include <boost/dll/runtime_symbol_info.hpp>

namespace stream::host {

namespace {

std::mutex prefix_mutex;
std::optional<std::filesystem::path> prefix_override;

}  // namespace

std::filesystem::path host_prefix() {
  {
    const std::lock_guard lock(prefix_mutex);
    if (prefix_override) return *prefix_override;
  }
  return std::filesystem::path(boost::dll::program_location().parent_path().string()).parent_path();
}

void set_host_prefix(std::filesystem::path prefix) {
  const std::lock_guard lock(prefix_mutex);
  prefix_override = std::move(prefix);
}

}  // namespace stream::host
