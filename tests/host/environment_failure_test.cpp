// host/environment_failure.hpp: the machine's failures (no memory, a full disk, an I/O error) are
// told from the point's own (a bad file, a bad value), whatever form they come in.
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <new>
#include <stdexcept>
#include <system_error>

#include <stream/error.hpp>
#include <stream/io/file_output.hpp>

#include "environment_failure.hpp"

using stream::host::environment_failure;

TEST(EnvironmentFailure, OutOfMemoryAndSystemShortagesAreTheMachines) {
  EXPECT_EQ(environment_failure(std::bad_alloc()), "out of memory (std::bad_alloc)");
  EXPECT_TRUE(environment_failure(std::filesystem::filesystem_error("copy", std::make_error_code(std::errc::no_space_on_device))));
  EXPECT_TRUE(environment_failure(std::system_error(EIO, std::generic_category(), "read")));
  // A writer's error on a full device (/dev/full fails every write with ENOSPC).
  try {
    stream::io::write_file("/dev/full", "x\n");
    FAIL() << "writing /dev/full succeeded";
  } catch (const stream::Error& e) {
    const auto why = environment_failure(e);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("No space left on device"), std::string::npos) << *why;
  }
}

TEST(EnvironmentFailure, ThePointsOwnFailuresAreNot) {
  EXPECT_FALSE(environment_failure(stream::Error("hardware 'x.yaml': no such file")));
  EXPECT_FALSE(environment_failure(std::runtime_error("plugin 'p': expects one input")));
  EXPECT_FALSE(environment_failure(std::system_error(ENOENT, std::generic_category(), "open")));
  // A bad input that quotes a system's words is still bad input (only internal errors are looked at).
  EXPECT_FALSE(environment_failure(stream::Error("name 'No space left on device' is not a core")));
}
