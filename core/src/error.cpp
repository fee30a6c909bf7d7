#include "stream/error.hpp"

namespace stream {

std::string Location::str() const {
  std::string out;
  if (!file.empty()) {
    out = file;
    if (line > 0) {
      out += ":" + std::to_string(line);
      if (column > 0) out += ":" + std::to_string(column);
    }
  }
  if (!node.empty()) {
    if (!out.empty()) out += ": ";
    out += "node '" + node + "'";
  }
  if (!operand.empty()) {
    if (!out.empty()) out += node.empty() ? ": " : ", ";
    out += "operand '" + operand + "'";
  }
  return out;
}

namespace {
std::string compose(const std::string& message, const Location& where) {
  return where.empty() ? message : where.str() + ": " + message;
}
}  // namespace

Error::Error(std::string message, Location where, ErrorKind kind)
    : std::runtime_error(compose(message, where)), message_(std::move(message)), where_(std::move(where)), kind_(kind) {}

Error Error::within(const Location& outer) const {
  Location merged = where_;
  if (merged.file.empty()) {
    merged.file = outer.file;
    merged.line = outer.line;
    merged.column = outer.column;
  }
  if (merged.node.empty()) merged.node = outer.node;
  if (merged.operand.empty()) merged.operand = outer.operand;
  return Error(message_, merged, kind_);
}

void fail_node(const std::string& node, const std::string& operand, const std::string& message) {
  throw Error(message, Location{.node = node, .operand = operand});
}

}  // namespace stream
