// libFuzzer harness: the sweep row reader (host/sweep_row.hpp), the input as one results.jsonl
// line (a resume and `sweep merge` read lines a killed run or a hand edit left). A line it accepts
// must come back as the same row: its text read again gives the same id, point and text, else the
// harness aborts.
#include <cstdlib>
#include <iostream>
#include <string>

#include "fuzz_support.hpp"
#include "sweep_row.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  stream::fuzz::quiet_logs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  stream::fuzz::expect_clean_outcome([&] {
    const auto row = stream::host::parse_row_line(stream::fuzz::as_text(data, size));
    if (!row) return;
    const auto again = stream::host::parse_row_line(row->text);
    if (!again || again->id != row->id || again->point != row->point || again->text != row->text) {
      std::cerr << "sweep row round trip differs:\n--- first\n" << row->text << "\n--- second\n"
                << (again ? again->text : std::string("(no row)")) << "\n";
      std::abort();
    }
  });
  return 0;
}
