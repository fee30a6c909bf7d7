#include "stream/layout/choice.hpp"

#include <algorithm>
#include <cmath>

#include "stream/error.hpp"

namespace stream::layout {

const char* name(LayoutMode mode) { return mode == LayoutMode::Choose ? "choose" : "fixed"; }

LayoutMode parse_layout_mode(const std::string& text, const std::string& where) {
  if (text == "fixed") return LayoutMode::Fixed;
  if (text == "choose") return LayoutMode::Choose;
  throw Error(where + ": unknown layout mode '" + text + "' (expected fixed or choose)");
}

const char* name(Conversion c) {
  switch (c) {
    case Conversion::None: return "none";
    case Conversion::Core: return "core";
    case Conversion::Dma: return "dma";
  }
  return "none";
}

namespace {

// Energies are sums of doubles: two sums that differ only in their rounding are a tie.
bool less_energy(double a, double b) { return a < b - 1e-9 * std::max({std::abs(a), std::abs(b), 1.0}); }

bool better(const LayoutOption& a, const LayoutOption& b) {
  if (a.total() != b.total()) return a.total() < b.total();
  return less_energy(a.total_energy(), b.total_energy());
}

}  // namespace

std::size_t cheapest_option(const std::vector<LayoutOption>& options) {
  std::size_t best = 0;
  for (std::size_t k = 1; k < options.size(); ++k) {
    if (options[k].converts() && !options[k].conversion_priced) continue;
    if (better(options[k], options[best])) best = k;  // strict: earlier options win ties
  }
  return best;
}

bool worth_running(const LayoutChoice& choice, const LayoutOption& option) {
  if (option.conversion != Conversion::Core) return false;
  std::int64_t plain = choice.options.front().total();
  for (const auto& o : choice.options)
    if (!o.converts()) plain = std::min(plain, o.total());
  return option.transfer_cycles < plain;
}

std::string converted_name(const std::string& tensor, const Layout& layout, std::size_t rank) {
  std::string s = tensor + "_as";
  for (int a : layout.order_for(rank)) s += "_" + std::to_string(a);
  if (layout.block) s += "_b" + std::to_string(layout.block->size);
  return s;
}

std::string conversion_node_name(const std::string& tensor) { return "convert_" + tensor; }

}  // namespace stream::layout
