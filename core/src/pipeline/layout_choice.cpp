#include "stream/pipeline/layout_choice.hpp"

#include "stream/error.hpp"

namespace stream::pipeline {

const char* name(LayoutMode mode) { return mode == LayoutMode::Choose ? "choose" : "fixed"; }

LayoutMode parse_layout_mode(const std::string& text, const std::string& where) {
  if (text == "fixed") return LayoutMode::Fixed;
  if (text == "choose") return LayoutMode::Choose;
  throw Error(where + ": unknown layout mode '" + text + "' (expected fixed or choose)");
}

std::size_t cheapest_option(const std::vector<LayoutOption>& options) {
  std::size_t best = 0;
  for (std::size_t k = 1; k < options.size(); ++k)
    if (options[k].total() < options[best].total()) best = k;  // strict: earlier options win ties
  return best;
}

std::string converted_name(const std::string& tensor, const Layout& layout, std::size_t rank) {
  std::string s = tensor + "_as";
  for (int a : layout.order_for(rank)) s += "_" + std::to_string(a);
  return s;
}

std::string conversion_node_name(const std::string& tensor) { return "convert_" + tensor; }

}  // namespace stream::pipeline
