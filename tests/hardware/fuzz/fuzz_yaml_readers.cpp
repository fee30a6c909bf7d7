// libFuzzer harness for the hardware and mapping readers (clang only; see ../CMakeLists.txt).
// Every input must either read or fail with a stream::Error; any other exception, crash or
// sanitizer report is a bug. Seed it with the reference files:
//   fuzz_yaml_readers corpus/ /work/shared/reference/stream-inputs/{hardware,mapping}/...
#include <cstddef>
#include <cstdint>
#include <string>

#include "stream/error.hpp"
#include "stream/hardware/accelerator_reader.hpp"
#include "stream/hardware/core_reader.hpp"
#include "stream/mapping/mapping.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)stream::hardware::parse_accelerator_text(text, "fuzz.yaml", STREAM_FUZZ_HARDWARE_DIR);
  } catch (const stream::Error&) {
  }
  try {
    (void)stream::hardware::parse_core_text(text, "fuzz.yaml");
  } catch (const stream::Error&) {
  }
  try {
    const auto m = stream::mapping::parse_mapping_text(text, "fuzz.yaml");
    (void)stream::mapping::to_yaml(m);
  } catch (const stream::Error&) {
  }
  return 0;
}
