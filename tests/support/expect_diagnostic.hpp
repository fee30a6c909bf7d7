// What the validation tests share: a valid text with one piece replaced (the piece must be there),
// and the check that a reader reported exactly one problem, with the expected words, at the
// expected line of a named file (column known).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stream/diagnostics/diagnostics.hpp"

namespace stream::test {

inline std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  return text;
}

inline void expect_one(const std::vector<Diagnostic>& errors, const std::string& needle, int line) {
  ASSERT_EQ(errors.size(), 1u) << (errors.empty() ? std::string("no error") : errors[0].str() + " ...");
  EXPECT_NE(errors[0].message.find(needle), std::string::npos) << errors[0].str();
  EXPECT_EQ(errors[0].where.line, line) << errors[0].str();
  EXPECT_GT(errors[0].where.column, 0) << errors[0].str();
  EXPECT_FALSE(errors[0].where.file.empty()) << errors[0].str();
}

}  // namespace stream::test
