#include "stream/diagnostics/diagnostics.hpp"

#include <mutex>
#include <string>
#include <unordered_set>

#include <spdlog/spdlog.h>

namespace stream {

std::string Diagnostic::str() const {
  std::string out = where.str();
  if (!out.empty()) out += ": ";
  out += severity == Severity::Error ? "error: " : "warning: ";
  out += message;
  return out;
}

void Diagnostics::error(Location where, std::string message) {
  items_.push_back(Diagnostic{Diagnostic::Severity::Error, std::move(where), std::move(message)});
  ++error_count_;
}

namespace {
// Once per process: a sweep, the MCP server or a Python session reads the same file many times,
// and the same line repeated per point buries the one that matters. The record keeps every copy.
void log_warning(const Diagnostic& d) {
  static std::mutex mutex;
  static std::unordered_set<std::string> logged;
  const std::string place = d.where.str();
  std::string line = (place.empty() ? "" : place + ": ") + d.message;
  {
    const std::lock_guard lock(mutex);
    if (!logged.insert(line).second) return;
  }
  spdlog::warn("{}", line);
}
}  // namespace

void Diagnostics::warning(Location where, std::string message) {
  Diagnostic d{Diagnostic::Severity::Warning, std::move(where), std::move(message)};
  if (echo_) log_warning(d);
  items_.push_back(std::move(d));
}

void Diagnostics::log_warnings() const {
  for (const auto& d : items_)
    if (d.severity == Diagnostic::Severity::Warning) log_warning(d);
}

void Diagnostics::add(Diagnostic d) {
  if (d.severity == Diagnostic::Severity::Error) ++error_count_;
  items_.push_back(std::move(d));
}

void Diagnostics::merge(const Diagnostics& other) {
  for (const auto& d : other.items_) items_.push_back(d);
  error_count_ += other.error_count_;
}

std::vector<Diagnostic> Diagnostics::errors() const {
  std::vector<Diagnostic> out;
  for (const auto& d : items_)
    if (d.severity == Diagnostic::Severity::Error) out.push_back(d);
  return out;
}

std::vector<Diagnostic> Diagnostics::warnings() const {
  std::vector<Diagnostic> out;
  for (const auto& d : items_)
    if (d.severity == Diagnostic::Severity::Warning) out.push_back(d);
  return out;
}

void Diagnostics::throw_if_errors(const std::string& what, const std::string& file) const {
  if (has_errors()) throw ValidationError(what, file, errors());
}

namespace {
std::string summary(const std::string& what, const std::vector<Diagnostic>& diagnostics) {
  std::string out = what + ": " + std::to_string(diagnostics.size()) +
                    (diagnostics.size() == 1 ? " problem" : " problems");
  for (const auto& d : diagnostics) out += "\n  " + d.str();
  return out;
}
}  // namespace

ValidationError::ValidationError(const std::string& what, const std::string& file, std::vector<Diagnostic> diagnostics)
    : Error(summary(what, diagnostics), file_location(file)), diagnostics_(std::move(diagnostics)) {}

}  // namespace stream
