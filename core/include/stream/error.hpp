// Errors that carry their place.
//
// Library code reports every user-facing problem as a stream::Error: a message written for the
// user plus where it happened (a file with line and column, and/or a node and operand of a
// workload). Only host/ turns an Error into an exit code: 2 for bad input, 1 for an internal
// failure. Nothing below host/ calls exit() or abort().
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "stream/export.hpp"

namespace stream {

// Every member has an initializer, so that `Location{.file = f, .line = n}` compiles without a
// -Wmissing-field-initializers warning (-Wextra) in a plugin built with -Werror.
struct STREAM_API Location {
  std::string file = {};     ///< empty when the problem is not tied to a file
  int line = 0;              ///< 1-based; 0 when unknown
  int column = 0;            ///< 1-based; 0 when unknown
  std::string node = {};     ///< workload node name, when the problem is in a node
  std::string operand = {};  ///< tensor or operand name within that node

  [[nodiscard]] std::string str() const;  ///< "file:line:col: node 'n', operand 't'" (known parts only)
  [[nodiscard]] bool empty() const { return file.empty() && node.empty() && operand.empty(); }
};

enum class ErrorKind { BadInput, Internal };

class STREAM_API Error : public std::runtime_error {
 public:
  explicit Error(std::string message, Location where = {}, ErrorKind kind = ErrorKind::BadInput);

  [[nodiscard]] const std::string& message() const { return message_; }
  [[nodiscard]] const Location& where() const { return where_; }
  [[nodiscard]] ErrorKind kind() const { return kind_; }
  /// Returns a copy whose location is completed with `outer`'s parts this one lacks.
  [[nodiscard]] Error within(const Location& outer) const;

 private:
  std::string message_;
  Location where_;
  ErrorKind kind_;
};

/// Convenience for the common "node X, operand Y: message" error.
[[noreturn]] STREAM_API void fail_node(const std::string& node, const std::string& operand, const std::string& message);

}  // namespace stream
