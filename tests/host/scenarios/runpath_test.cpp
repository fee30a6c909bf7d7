// No built executable or shared object may search the current directory for libraries.
#include <gtest/gtest.h>

#include <runpath_entries.hpp>

namespace fs = std::filesystem;

TEST(Runpath, EveryBuiltFileHasOnlyAbsoluteOrOriginEntries) {
  // readelf must run and see stream's RUNPATH, else an empty result would prove nothing.
  ASSERT_EQ(std::system("readelf -d " STREAM_BUILD_DIR "/bin/stream | grep -q 'R.*PATH'"), 0)
      << "readelf (binutils) is needed, and bin/stream has a RUNPATH to find the core";
  int count = 0;
  const auto bad = stream_test::unsafe_runpath_entries(STREAM_BUILD_DIR, count);
  // bin/ holds stream and the test binaries, lib/ the core and the bundled plugins, tests/zoo more.
  EXPECT_GT(count, 10);
  for (const auto& b : bad) ADD_FAILURE() << b;
}
