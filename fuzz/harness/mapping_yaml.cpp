// libFuzzer harness: the mapping YAML reader. A mapping it accepts must also survive the round
// trip its header promises (to_yaml reads back to an equal mapping): the second YAML text equals
// the first, else the harness aborts.
#include <cstdlib>
#include <iostream>

#include <stream/mapping/mapping.hpp>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  stream::fuzz::quiet_logs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  stream::fuzz::expect_clean_outcome([&] {
    const auto mapping = stream::mapping::parse_mapping_text(stream::fuzz::as_text(data, size), "fuzz.yaml");
    const auto yaml = stream::mapping::to_yaml(mapping);
    const auto again = stream::mapping::to_yaml(stream::mapping::parse_mapping_text(yaml, "round-trip.yaml"));
    if (again != yaml) {
      std::cerr << "mapping round trip differs:\n--- first\n" << yaml << "--- second\n" << again;
      std::abort();
    }
  });
  return 0;
}
