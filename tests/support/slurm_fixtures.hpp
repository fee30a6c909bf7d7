// What the Slurm tests share: a small sweep of bundled inputs in a folder whose name needs
// quoting, an executable stand-in file, and a text split into lines. Header-only.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "stream_cli.hpp"

namespace stream::test {

inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

/// A file with `text`, executable.
inline void write_executable(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p) << text;
  std::filesystem::permissions(p, std::filesystem::perms::owner_all);
}

/// Four points from bundled inputs (found without copies beside the sweep file).
inline const std::string kFourPoints =
    "axes:\n"
    "  hardware: [tpu_like_quad_core.yaml, simba_small.yaml]\n"
    "  workload: [2conv_1_8_32_32_16_32_3.onnx]\n"
    "  cast: [none, bf16]\n";

/// A folder whose name holds a space, both quotes and a '$', with kFourPoints as sweep.yaml in it.
inline std::filesystem::path awkward_fixture(const std::string& name) {
  const auto dir = fresh_scratch_dir("slurm", name) / "a b'c\"$d";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "sweep.yaml") << kFourPoints;
  return dir;
}

}  // namespace stream::test
