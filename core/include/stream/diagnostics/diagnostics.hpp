// Diagnostics: every problem found while reading an input file, collected before failing.
//
// The hardware and mapping readers behave like a compiler: they do not stop at the first bad
// value but record each problem (file:line:column, the rule broken) and each warning (a repeated
// key, a connection replaced by a later one) in a Diagnostics list. When reading is over and
// errors were found, the reader throws a ValidationError that carries the whole list; its what()
// prints every error on its own line. Warnings are also sent to spdlog at warn level, each distinct
// line once per process (a sweep reads one file per point).
#pragma once

#include <string>
#include <vector>

#include "stream/error.hpp"
#include "stream/export.hpp"

namespace stream {

/// A Location naming only a file (and optionally line/column).
[[nodiscard]] inline Location file_location(std::string file, int line = 0, int column = 0) {
  Location where;
  where.file = std::move(file);
  where.line = line;
  where.column = column;
  return where;
}

struct STREAM_API Diagnostic {
  enum class Severity { Warning, Error };
  Severity severity = Severity::Error;
  Location where;
  std::string message;

  /// "file:line:col: error: message" (or "warning: ").
  [[nodiscard]] std::string str() const;
};

class STREAM_API Diagnostics {
 public:
  /// `echo_warnings` false: warnings are recorded only (for text whose places mean nothing to the
  /// user, which the caller reports its own way).
  explicit Diagnostics(bool echo_warnings = true) : echo_(echo_warnings) {}

  void error(Location where, std::string message);
  /// Records the warning and logs it through spdlog (unless constructed not to).
  void warning(Location where, std::string message);
  /// Appends one diagnostic without logging it.
  void add(Diagnostic d);
  /// Appends another list (without logging its warnings again).
  void merge(const Diagnostics& other);
  /// Logs every recorded warning through spdlog, as warning() does when echoing (for a list
  /// recorded quietly on another thread and reported when its result is taken).
  void log_warnings() const;

  [[nodiscard]] const std::vector<Diagnostic>& all() const { return items_; }
  [[nodiscard]] std::vector<Diagnostic> errors() const;
  [[nodiscard]] std::vector<Diagnostic> warnings() const;
  [[nodiscard]] bool has_errors() const { return error_count_ > 0; }
  [[nodiscard]] std::size_t error_count() const { return error_count_; }
  [[nodiscard]] bool echoes_warnings() const { return echo_; }

  /// Throws ValidationError(what, *this) when an error was recorded.
  void throw_if_errors(const std::string& what, const std::string& file) const;

 private:
  std::vector<Diagnostic> items_;
  std::size_t error_count_ = 0;
  bool echo_ = true;
};

/// A stream::Error carrying every diagnostic of a failed read. message() is
/// "<what>: N problem(s)" followed by one line per error.
class STREAM_API ValidationError : public Error {
 public:
  ValidationError(const std::string& what, const std::string& file, std::vector<Diagnostic> diagnostics);
  [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace stream
