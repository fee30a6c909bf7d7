// parse_row_line (host/sweep_row.hpp): a results.jsonl line is a row only when it is a JSON
// object with a string id; a line cut short, nested too deep or without an id holds none.
#include <gtest/gtest.h>

#include <string>

#include "sweep_row.hpp"

using stream::host::parse_row_line;

TEST(SweepRow, AWholeLineIsItsRowWrittenAgain) {
  const auto row = parse_row_line(R"({"id":"p7","point":7,"status":"ok","latency":14344})");
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->id, "p7");
  EXPECT_EQ(row->point, 7);
  EXPECT_EQ(row->text, R"({"id":"p7","point":7,"status":"ok","latency":14344})");  // key order kept
}

TEST(SweepRow, ALineThatHoldsNoRowIsNone) {
  for (const std::string line : {R"({"id":"p7","point":7,"sta)", "", "[1,2]", R"({"point":7})", R"({"id":7})", "null"})
    EXPECT_FALSE(parse_row_line(line).has_value()) << line;
  const std::string deep = R"({"id":"p1","x":)" + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_FALSE(parse_row_line(deep).has_value());
}
