// The tools `stream mcp` offers an agent, each a host function with a JSON Schema for its
// arguments and its result: list_inputs (the bundled hardware, workloads, mappings, sweeps),
// list_blocks, list_plugins, validate, run_mapping (`stream run`), the same run as a job
// (submit_run, job_status, job_result, cancel_job; mcp_jobs.hpp), read_result_file and sweep (a
// small one, at most kMaxMcpSweepPoints points). Inputs are read from anywhere; everything written
// goes under the server's output directory, and read_result_file reads only there.
#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

#include "mcp_server.hpp"

namespace stream::host {

struct HostContext;

inline constexpr std::size_t kMaxMcpSweepPoints = 64;
inline constexpr std::size_t kMaxMcpFileBytes = 1 << 20;

[[nodiscard]] std::vector<McpTool> stream_mcp_tools(HostContext& ctx, const std::filesystem::path& out_dir);

}  // namespace stream::host
