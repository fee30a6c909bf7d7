// Operator families the pipeline tells apart by op type alone.
//
// The reference decides whether a node is "MAC work" (for the end-to-end MAC utilisation, the
// degenerate flag and the tiler's MAC-weighted choices) by a substring test on the lower-cased op
// type: conv, gemm, matmul or linear (its workload/utils.py). One definition, used everywhere.
#pragma once

#include <string>

#include "stream/export.hpp"

namespace stream {

[[nodiscard]] STREAM_API bool is_mac_type(const std::string& op_type);

}  // namespace stream
