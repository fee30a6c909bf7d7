// A failure of the machine a point ran on, not of the point: no memory left (std::bad_alloc), a
// full disk or quota, an I/O error, no file descriptors left. A sweep stores a failed row only for
// what the point itself decides (a bad file, an unsolvable allocation), since a resumed sweep keeps
// its rows; a point that failed this way gets no row, so that the next run retries it.
#pragma once

#include <exception>
#include <optional>
#include <string>

namespace stream::host {

/// The reason when `e` is such a failure ("out of memory", or the error's message naming the
/// system's reason); nothing when it is the point's own failure.
[[nodiscard]] std::optional<std::string> environment_failure(const std::exception& e);

}  // namespace stream::host
