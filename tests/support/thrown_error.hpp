// The stream::Error a call throws, for tests that check an error's message and location: a failed
// expectation (and an empty Error) when the call throws none.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "stream/error.hpp"

namespace stream::test {

template <typename Call>
[[nodiscard]] Error thrown_error(Call&& call) {
  try {
    call();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected a stream::Error";
  return Error("");
}

/// True when the error's message contains `text`.
[[nodiscard]] inline bool mentions(const Error& e, const std::string& text) {
  return e.message().find(text) != std::string::npos;
}

}  // namespace stream::test
