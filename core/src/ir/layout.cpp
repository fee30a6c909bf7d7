#include "stream/ir/layout.hpp"

#include <numeric>

#include "stream/error.hpp"

namespace stream {

Layout Layout::row_major(std::size_t rank) {
  Layout l;
  l.order.resize(rank);
  std::iota(l.order.begin(), l.order.end(), 0);
  return l;
}

std::vector<int> Layout::order_for(std::size_t rank) const { return order.empty() ? row_major(rank).order : order; }

bool Layout::is_row_major(std::size_t rank) const { return !block && order_for(rank) == row_major(rank).order; }

std::string Layout::str(std::size_t rank) const {
  const auto o = order_for(rank);
  std::string s = "(";
  bool seen_block = false;
  for (std::size_t i = 0; i < o.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(o[i]);
    if (block && o[i] == block->axis) {
      if (seen_block) s += ":" + std::to_string(block->size);
      seen_block = true;
    }
  }
  return s + ")";
}

bool Layout::same_as(const Layout& other, std::size_t rank) const {
  return block == other.block && order_for(rank) == other.order_for(rank);
}

void check_layout(const Layout& layout, const std::vector<std::int64_t>& shape, const std::string& tensor) {
  const auto order = layout.order_for(shape.size());
  auto fail = [&](const std::string& why) {
    throw Error("tensor '" + tensor + "': layout " + layout.str(shape.size()) + " " + why, Location{.operand = tensor});
  };
  std::vector<int> count(shape.size(), 0);
  for (int a : order) {
    if (a < 0 || static_cast<std::size_t>(a) >= shape.size())
      fail("names axis " + std::to_string(a) + " of a rank-" + std::to_string(shape.size()) + " tensor");
    ++count[static_cast<std::size_t>(a)];
  }
  for (std::size_t a = 0; a < shape.size(); ++a) {
    const int want = layout.block && layout.block->axis == static_cast<int>(a) ? 2 : 1;
    if (count[a] != want)
      fail("lists axis " + std::to_string(a) + " " + std::to_string(count[a]) + " times (expected " +
           std::to_string(want) + ")");
  }
  if (layout.block) {
    if (layout.block->axis < 0 || static_cast<std::size_t>(layout.block->axis) >= shape.size())
      fail("blocks axis " + std::to_string(layout.block->axis) + ", which the tensor does not have");
    const auto extent = shape[static_cast<std::size_t>(layout.block->axis)];
    if (layout.block->size < 1 || extent % layout.block->size != 0)
      fail("has block size " + std::to_string(layout.block->size) + ", which does not divide axis " +
           std::to_string(layout.block->axis) + " (extent " + std::to_string(extent) + ")");
  }
}

}  // namespace stream
