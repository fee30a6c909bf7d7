// host/main.cpp: how the command line's own errors become exit codes.
#include <gtest/gtest.h>

#include "stream_cli.hpp"

namespace {

using stream::test::run_stream;

}  // namespace

TEST(Main, AnOptionValueOutsideItsChoicesIsBadInput) {
  // CLI11 reports this with its own code (105); Stream's contract is 2 for every bad input.
  const auto r = run_stream("run --layout sideways");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--layout"), std::string::npos) << r.out;
}

TEST(Main, AnUnknownOptionIsBadInput) {
  const auto r = run_stream("parse --no-such-option x");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--no-such-option"), std::string::npos) << r.out;
}

TEST(Main, AMissingSubcommandIsBadInput) {
  const auto r = run_stream("");
  EXPECT_EQ(r.code, 2) << r.out;
}

TEST(Main, AGlobalOptionAfterTheSubcommandIsBadInput) {
  // --plugin-dir belongs before the subcommand; after it CLI11 takes it as an extra argument (109).
  const auto r = run_stream("plugins --plugin-dir /tmp");
  EXPECT_EQ(r.code, 2) << r.out;
}

TEST(Main, HelpAndVersionSucceed) {
  EXPECT_EQ(run_stream("--help").code, 0);
  EXPECT_EQ(run_stream("--version").code, 0);
  EXPECT_EQ(run_stream("run --help").code, 0);
}
