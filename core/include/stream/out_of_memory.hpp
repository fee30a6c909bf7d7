// Running out of memory is an error that names the step it happened in, never a signal or an
// unnamed std::bad_alloc: a run under a tight address-space limit (`ulimit -v`) or on a loaded
// machine exits 1 with "out of memory in <step>" (host/main.cpp), and a sweep or an MCP job
// reports it for the point or job. It is an internal failure (a property of the environment,
// not of the input), so a caller may try the same work again with more memory.
#pragma once

#include <new>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "stream/error.hpp"

namespace stream {

class STREAM_API OutOfMemory : public Error {
 public:
  /// "out of memory in <step>", then "(<detail>)" when given.
  explicit OutOfMemory(const std::string& step, const std::string& detail = "");
};

/// Whether the dynamic loader's text (dlerror) says it could not map a library: under an
/// address-space limit that, not a defect of the library, is why it did not open.
[[nodiscard]] inline bool loader_out_of_memory(std::string_view dlerror_text) {
  return dlerror_text.find("failed to map segment") != std::string_view::npos ||
         dlerror_text.find("Cannot allocate memory") != std::string_view::npos;
}

/// Runs `work`, the step `step` of a run ("parse", "cost", "allocation", ...): a std::bad_alloc
/// thrown inside becomes an OutOfMemory naming the step. Steps nest; the innermost names it.
template <class Work>
decltype(auto) in_step(const char* step, Work&& work) {
  try {
    return std::forward<Work>(work)();
  } catch (const std::bad_alloc&) {
    // Unwinding has released what the step held, so the message itself can be allocated.
    throw OutOfMemory(step);
  } catch (const std::system_error& e) {  // a thread whose stack could not be mapped
    if (e.code() != std::errc::resource_unavailable_try_again && e.code() != std::errc::not_enough_memory) throw;
    throw OutOfMemory(step, e.what());
  }
}

}  // namespace stream
