#include "stream/ir/layout_runs.hpp"

#include <algorithm>
#include <string>

#include "stream/error.hpp"

namespace stream {

namespace {

// Not `product`: layout_folding.cpp has one, and the sources compile in batches (CMakeLists.txt).
std::int64_t product_of_sizes(const std::vector<std::int64_t>& v) {
  std::int64_t p = 1;
  for (auto x : v) p *= x;
  return p;
}

// A range on a blocked axis, as (blocks, within-block) ranges: up to three pieces.
std::vector<std::pair<AxisRange, AxisRange>> block_pieces(AxisRange r, std::int64_t b) {
  std::vector<std::pair<AxisRange, AxisRange>> out;
  if (r.begin / b == (r.end - 1) / b) {  // inside one block
    out.push_back({{r.begin / b, r.begin / b + 1}, {r.begin % b, (r.end - 1) % b + 1}});
    return out;
  }
  std::int64_t first_whole = r.begin / b;
  if (r.begin % b != 0) {
    out.push_back({{r.begin / b, r.begin / b + 1}, {r.begin % b, b}});
    ++first_whole;
  }
  const std::int64_t end_whole = r.end / b;
  if (end_whole > first_whole) out.push_back({{first_whole, end_whole}, {0, b}});
  if (r.end % b != 0) out.push_back({{end_whole, end_whole + 1}, {0, r.end % b}});
  return out;
}

// Runs of a box given as lengths on the memory dims (outermost first) of extents `full`.
RunPiece piece_of(const std::vector<std::int64_t>& length, const std::vector<std::int64_t>& full) {
  RunPiece p;
  p.run = 1;
  std::size_t k = length.size();  // memory dims [k, n) make the run
  while (k > 0) {
    --k;
    p.run *= length[k];
    if (length[k] < full[k]) break;
  }
  for (std::size_t j = k; j-- > 0;)
    if (length[j] > 1) p.outer.push_back(length[j]);
  return p;
}

void check_box(const std::vector<std::int64_t>& shape, const std::vector<AxisRange>& box) {
  if (box.size() != shape.size())
    throw Error("a box of rank " + std::to_string(box.size()) + " for a tensor of rank " + std::to_string(shape.size()));
  for (std::size_t a = 0; a < box.size(); ++a)
    if (box[a].begin < 0 || box[a].begin > box[a].end || box[a].end > shape[a])
      throw Error("box range [" + std::to_string(box[a].begin) + ", " + std::to_string(box[a].end) + ") of axis " +
                  std::to_string(a) + " leaves its extent " + std::to_string(shape[a]));
}

}  // namespace

std::int64_t RunPiece::runs() const { return product_of_sizes(outer); }

std::int64_t RunCount::runs() const {
  std::int64_t n = 0;
  for (const auto& p : pieces) n += p.runs();
  return n;
}

std::int64_t RunCount::elements() const {
  std::int64_t n = 0;
  for (const auto& p : pieces) n += p.runs() * p.run;
  return n;
}

std::int64_t RunCount::longest_run() const {
  std::int64_t n = 0;
  for (const auto& p : pieces) n = std::max(n, p.run);
  return n;
}

std::int64_t RunCount::descriptors(int strides) const {
  std::int64_t n = 0;
  for (const auto& p : pieces) {
    std::int64_t d = 1;
    for (std::size_t j = static_cast<std::size_t>(std::max(strides, 0)); j < p.outer.size(); ++j) d *= p.outer[j];
    n += d;
  }
  return n;
}

std::int64_t RunCount::bursts(std::int64_t element_bits, std::int64_t burst_bits) const {
  std::int64_t n = 0;
  for (const auto& p : pieces) n += p.runs() * ((p.run * element_bits + burst_bits - 1) / burst_bits);
  return n;
}

RunCount count_runs(const Layout& layout, const std::vector<std::int64_t>& shape, const std::vector<AxisRange>& box) {
  check_layout(layout, shape, "box");
  check_box(shape, box);
  RunCount out;
  for (const auto& r : box)
    if (r.begin == r.end) return out;
  const auto order = layout.order_for(shape.size());
  const int blocked = layout.block ? layout.block->axis : -1;
  const std::int64_t b = layout.block ? layout.block->size : 1;
  std::vector<std::pair<AxisRange, AxisRange>> split{{{0, 1}, {0, 1}}};
  if (blocked >= 0) split = block_pieces(box[static_cast<std::size_t>(blocked)], b);
  for (const auto& [blocks, within] : split) {
    std::vector<std::int64_t> length, full;
    bool seen = false;
    for (int a : order) {
      const auto ua = static_cast<std::size_t>(a);
      if (a != blocked) {
        length.push_back(box[ua].end - box[ua].begin);
        full.push_back(shape[ua]);
      } else {
        const AxisRange& part = seen ? within : blocks;
        length.push_back(part.end - part.begin);
        full.push_back(seen ? b : shape[ua] / b);
        seen = true;
      }
    }
    out.pieces.push_back(piece_of(length, full));
  }
  return out;
}

RunCount count_runs(const Layout& layout, const std::vector<std::int64_t>& shape,
                    const std::vector<std::int64_t>& extents) {
  std::vector<AxisRange> box;
  for (auto e : extents) box.push_back({0, e});
  return count_runs(layout, shape, box);
}

}  // namespace stream
