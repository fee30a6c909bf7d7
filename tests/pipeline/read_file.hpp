// The whole content of a result file the `stream` CLI tests inspect ("" when it is missing).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace stream::test {

inline std::string read(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace stream::test
