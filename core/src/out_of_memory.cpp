#include "stream/out_of_memory.hpp"

namespace stream {

// Defined here, not inline: the class's type information lives in libstream_core only, so that a
// plugin (built with hidden visibility) throws and the host catches one and the same type.
OutOfMemory::OutOfMemory(const std::string& step, const std::string& detail)
    : Error("out of memory in " + step + (detail.empty() ? "" : " (" + detail + ")") +
                "; the process's address space (ulimit -v) or the machine's memory is exhausted",
            Location{}, ErrorKind::Internal) {}

}  // namespace stream
