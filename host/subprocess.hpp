// Running another program and collecting what it says: the host's one way to start a child
// process (`stream sweep submit` runs sbatch). The program is found on PATH and given argv as
// is, with no shell between, so arguments need no quoting; its stdin is /dev/null and its stdout
// and stderr are captured separately, read together so that neither pipe can fill and stall it;
// it starts with no signal blocked, whatever the host blocks.
#pragma once

#include <string>
#include <vector>

namespace stream::host {

struct ProcessResult {
  bool started = false;  ///< false: the program could not be run (then `error` says why)
  int exit_code = -1;    ///< its exit status; -1 when it was ended by a signal
  std::string out;       ///< its standard output
  std::string err;       ///< its standard error, or why it did not start
};

/// Runs argv[0] (looked up on PATH) with `argv` and waits for it to end.
[[nodiscard]] ProcessResult run_process(const std::vector<std::string>& argv);

}  // namespace stream::host
