// libFuzzer harness: the plugin host's manifest reader, on a regular file named like a manifest.
#include "fuzz_support.hpp"
#include "plugin_host.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  stream::fuzz::quiet_logs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = stream::fuzz::scratch_file("fuzz.stream-plugin.json", data, size);
  stream::fuzz::expect_clean_outcome([&] { (void)stream::host::read_manifest(path); });
  return 0;
}
