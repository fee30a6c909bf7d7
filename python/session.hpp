// The module's one plugin host, shared by every call from every Python thread. The plugin host is
// not safe to use from several threads at once, so every use of it (reading workloads, looking up
// blocks, building a run's options) holds the session's lock; the pipeline itself runs without it
// (host/run_experiment.hpp), so runs in several threads overlap.
#pragma once

#include <mutex>

#include "host_context.hpp"

namespace stream::python {

struct Session {
  std::mutex mutex;
  host::HostContext context;
};

/// Points the host at the prefix the module runs from (call once, at import).
void locate_host_prefix();
/// The session, created on first use.
[[nodiscard]] Session& session();

}  // namespace stream::python
