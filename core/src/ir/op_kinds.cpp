#include "stream/ir/op_kinds.hpp"

#include <algorithm>
#include <cctype>

namespace stream {

bool is_mac_type(const std::string& op_type) {
  std::string t = op_type;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* k : {"conv", "gemm", "matmul", "linear"})
    if (t.find(k) != std::string::npos) return true;
  return false;
}

}  // namespace stream
