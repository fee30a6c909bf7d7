#include "stream/allocate/constraint_selection.hpp"

#include <algorithm>
#include <cctype>

#include "stream/error.hpp"

namespace stream::allocate {

const char* name(PipeliningModel p) { return p == PipeliningModel::Span ? "span" : "occupancy"; }

namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return r;
}

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

constexpr const char* kFields = "memory_capacity, object_fifo_depth, buffer_descriptors, dma_channels, pipelining";

bool parse_switch(std::string_view field, std::string_view value, const std::string& where) {
  const std::string v = lower(value);
  if (v == "on" || v == "true" || v == "yes" || v == "1") return true;
  if (v == "off" || v == "false" || v == "no" || v == "0") return false;
  throw Error(where + ": constraint selection '" + std::string(field) + "' takes on or off (true/false), got '" +
              std::string(value) + "'");
}

}  // namespace

void set_constraint_field(ConstraintSelection& s, std::string_view field_text, std::string_view value,
                          const std::string& where) {
  const std::string field = lower(field_text);
  if (field == "pipelining") {
    const std::string v = lower(value);
    if (v == "occupancy")
      s.pipelining = PipeliningModel::Occupancy;
    else if (v == "span")
      s.pipelining = PipeliningModel::Span;
    else
      throw Error(where + ": constraint selection 'pipelining' takes occupancy or span, got '" + std::string(value) + "'");
  } else if (field == "memory_capacity") {
    s.memory_capacity = parse_switch(field, value, where);
  } else if (field == "object_fifo_depth") {
    s.object_fifo_depth = parse_switch(field, value, where);
  } else if (field == "buffer_descriptors") {
    s.buffer_descriptors = parse_switch(field, value, where);
  } else if (field == "dma_channels") {
    s.dma_channels = parse_switch(field, value, where);
  } else {
    throw Error(where + ": unknown constraint selection field '" + std::string(field_text) + "' (known: " + kFields + ")");
  }
}

ConstraintSelection parse_constraint_selection(std::string_view spec, ConstraintSelection base) {
  const std::string where = "--constraint-selection";
  std::size_t start = 0;
  while (start <= spec.size()) {
    const std::size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string item = trim(spec.substr(start, comma - start));
    start = comma + 1;
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw Error(where + ": expected field=value, got '" + item + "' (fields: " + kFields + ")");
    set_constraint_field(base, trim(std::string_view(item).substr(0, eq)), trim(std::string_view(item).substr(eq + 1)),
                         where);
  }
  return base;
}

std::string to_string(const ConstraintSelection& s) {
  auto sw = [](bool b) { return b ? "on" : "off"; };
  return std::string("memory_capacity=") + sw(s.memory_capacity) + ",object_fifo_depth=" + sw(s.object_fifo_depth) +
         ",buffer_descriptors=" + sw(s.buffer_descriptors) + ",dma_channels=" + sw(s.dma_channels) +
         ",pipelining=" + name(s.pipelining);
}

}  // namespace stream::allocate
