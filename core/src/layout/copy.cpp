#include "stream/layout/copy.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace stream::layout {

namespace {

// An axis cut at the block sizes either layout uses, outermost part first: [E] unblocked,
// [E / b, b] blocked by b, [E / b1, b1 / b2, b2] blocked by b1 > b2 (b2 divides b1).
using Parts = std::vector<std::vector<std::int64_t>>;  // per axis, the parts' extents
using Atom = std::pair<int, std::size_t>;               // (axis, part)

std::optional<Parts> axis_parts(const Layout& from, const Layout& to, const std::vector<std::int64_t>& shape) {
  Parts parts(shape.size());
  for (std::size_t a = 0; a < shape.size(); ++a) {
    std::vector<std::int64_t> sizes;
    for (const Layout* l : {&from, &to})
      if (l->block && l->block->axis == static_cast<int>(a)) sizes.push_back(l->block->size);
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    if (sizes.size() == 2 && sizes[0] % sizes[1] != 0) return std::nullopt;
    std::int64_t outer = shape[a];
    for (auto b : sizes) {
      parts[a].push_back(outer / b);
      outer = b;
    }
    parts[a].push_back(outer);
  }
  return parts;
}

// The layout's memory dims as parts, outermost first: an unblocked axis is all its parts; a
// blocked one its parts outside the block where it first appears, the rest where it reappears.
std::vector<Atom> atoms_of(const Layout& l, const Parts& parts) {
  std::vector<Atom> out;
  std::vector<bool> seen(parts.size(), false);
  for (int a : l.order_for(parts.size())) {
    const auto ua = static_cast<std::size_t>(a);
    const auto& p = parts[ua];
    std::size_t begin = 0, end = p.size();
    if (l.block && l.block->axis == a) {
      std::size_t inner = p.size();  // the first part of the block: its parts multiply to the size
      for (std::int64_t within = 1; within < l.block->size;) within *= p[--inner];
      if (seen[ua]) begin = inner;
      else end = inner;
    }
    seen[ua] = true;
    for (std::size_t k = begin; k < end; ++k) out.push_back({a, k});
  }
  return out;
}

// Each part's stride (elements) in a layout.
std::map<Atom, std::int64_t> strides_of(const std::vector<Atom>& atoms, const Parts& parts) {
  std::map<Atom, std::int64_t> s;
  std::int64_t stride = 1;
  for (auto it = atoms.rbegin(); it != atoms.rend(); ++it) {
    s[*it] = stride;
    stride *= parts[static_cast<std::size_t>(it->first)][it->second];
  }
  return s;
}

// The runs of a walk over (extent, stride) dims, innermost first, extents of 1 left out.
RunCount walk_runs(const std::vector<std::pair<std::int64_t, std::int64_t>>& dims) {
  RunPiece p;
  p.run = 1;
  std::size_t k = 0;
  for (; k < dims.size() && dims[k].second == p.run; ++k) p.run *= dims[k].first;
  while (k < dims.size()) {
    auto [extent, stride] = dims[k++];
    for (; k < dims.size() && dims[k].second == stride * extent; ++k) extent *= dims[k].first;
    p.outer.push_back(extent);
  }
  return RunCount{{p}};
}

}  // namespace

std::optional<CopyRuns> copy_runs(const Layout& from, const Layout& to, const std::vector<std::int64_t>& shape,
                                  bool walk_target) {
  check_layout(from, shape, "copy source");
  check_layout(to, shape, "copy target");
  const auto parts = axis_parts(from, to, shape);
  if (!parts) return std::nullopt;
  const auto src = atoms_of(from, *parts), dst = atoms_of(to, *parts);
  const auto src_stride = strides_of(src, *parts), dst_stride = strides_of(dst, *parts);
  const auto& walk = walk_target ? dst : src;
  std::vector<std::pair<std::int64_t, std::int64_t>> read, write;
  for (auto it = walk.rbegin(); it != walk.rend(); ++it) {
    const std::int64_t extent = (*parts)[static_cast<std::size_t>(it->first)][it->second];
    if (extent == 1) continue;
    read.push_back({extent, src_stride.at(*it)});
    write.push_back({extent, dst_stride.at(*it)});
  }
  return CopyRuns{walk_runs(read), walk_runs(write)};
}

}  // namespace stream::layout
