// open_beneath (host/open_beneath.hpp): a path leads to a file under the directory or is refused,
// whichever way it is resolved (openat2, or the component walk older kernels get).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <stream/error.hpp>

#include "open_beneath.hpp"
#include "stream_cli.hpp"

namespace {

namespace fs = std::filesystem;
using stream::host::open_beneath;
using stream::host::Resolution;

void put(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

// dir/out/ with a/b.txt ("inside") and dir/secret.txt ("outside"), and every way out from out/;
// one folder per test and resolution, since ctest runs the instances side by side.
fs::path beneath_fixture(const std::string& name, Resolution how) {
  const auto dir = stream::test::fresh_scratch_dir("host", name + "_" + std::to_string(static_cast<int>(how)));
  fs::create_directories(dir / "out" / "a");
  put(dir / "out" / "a" / "b.txt", "inside");
  put(dir / "secret.txt", "outside");
  fs::create_symlink(dir / "secret.txt", dir / "out" / "to_file");
  fs::create_symlink(dir, dir / "out" / "to_dir");
  fs::create_symlink("a/b.txt", dir / "out" / "to_inside");  // even one that stays inside
  return dir;
}

std::string read_all(int fd) {
  std::string text(64, '\0');
  const auto n = ::read(fd, text.data(), text.size());
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return text;
}

std::string refusal(const fs::path& out, const std::string& path, Resolution how) {
  try {
    (void)open_beneath(out.string(), path, how);
  } catch (const stream::Error& e) {
    return e.what();
  }
  return "";
}

class OpenBeneath : public ::testing::TestWithParam<Resolution> {};

}  // namespace

TEST_P(OpenBeneath, OpensAFileUnderTheDirectory) {
  const auto out = beneath_fixture("open_beneath_ok", GetParam()) / "out";
  EXPECT_EQ(read_all(open_beneath(out.string(), "a/b.txt", GetParam()).get()), "inside");
  EXPECT_EQ(read_all(open_beneath(out.string(), "./a//b.txt", GetParam()).get()), "inside");
}

TEST_P(OpenBeneath, RefusesEveryWayOut) {
  const auto out = beneath_fixture("open_beneath_out", GetParam()) / "out";
  for (const std::string path : {"to_file", "to_dir/secret.txt", "to_inside"})
    EXPECT_NE(refusal(out, path, GetParam()).find("symbolic link"), std::string::npos) << path;
  for (const std::string path : {"../secret.txt", "a/../../secret.txt", "a/../b.txt"})
    EXPECT_NE(refusal(out, path, GetParam()).find("'..'"), std::string::npos) << path;
  EXPECT_NE(refusal(out, (out.parent_path() / "secret.txt").string(), GetParam()).find("relative path"), std::string::npos);
  EXPECT_NE(refusal(out, "a/missing.txt", GetParam()).find("no such result file"), std::string::npos);
  EXPECT_NE(refusal(out, "a/b.txt/c", GetParam()).find("no such result file"), std::string::npos);
}

TEST_P(OpenBeneath, RefusesALongPathBeforeLookingAtIt) {
  const auto out = beneath_fixture("open_beneath_long", GetParam()) / "out";
  std::string path;
  while (path.size() <= stream::host::kMaxBeneathPathBytes) path += "a/";
  EXPECT_NE(refusal(out, path + "b.txt", GetParam()).find("at most 4096"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Both, OpenBeneath, ::testing::Values(Resolution::Kernel, Resolution::Walk));
