// The check the validation tests share: a reader reported exactly one problem, with the expected
// words, at the expected line of a named file (column known).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stream/diagnostics/diagnostics.hpp"

namespace stream::test {

inline void expect_one(const std::vector<Diagnostic>& errors, const std::string& needle, int line) {
  ASSERT_EQ(errors.size(), 1u) << (errors.empty() ? std::string("no error") : errors[0].str() + " ...");
  EXPECT_NE(errors[0].message.find(needle), std::string::npos) << errors[0].str();
  EXPECT_EQ(errors[0].where.line, line) << errors[0].str();
  EXPECT_GT(errors[0].where.column, 0) << errors[0].str();
  EXPECT_FALSE(errors[0].where.file.empty()) << errors[0].str();
}

}  // namespace stream::test
