// Resource rows shared by the trace, the picture and the HTML report: cores of compute nodes and
// links of chosen plans, with their sort keys and labels. Cores come first in numeric id order
// (what a reader of "Core 3" expects), then links by (sender, receiver), buses last.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::report::detail {

struct Resource {
  bool is_core = true;
  int id = 0;  ///< core id or link id
  std::int64_t sort_key = 0;
  std::string label;
};

inline std::vector<Resource> resources(const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  std::vector<Resource> out;
  auto have = [&](bool core, int id) {
    return std::any_of(out.begin(), out.end(), [&](const Resource& r) { return r.is_core == core && r.id == id; });
  };
  const auto& ss = g.schedule;
  for (const auto& n : ss.nodes)
    if (n.kind == schedule::SsKind::Compute)
      for (int c : n.cores)
        if (!have(true, c)) {
          Resource r;
          r.id = c;
          auto it = acc.coordinates.find(c);
          const int col = it == acc.coordinates.end() ? c : it->second[0];
          const int row = it == acc.coordinates.end() ? 0 : it->second[1];
          r.sort_key = c;
          r.label = "core " + std::to_string(c) + " [" + acc.core(c).type.str() + "] (col=" + std::to_string(col) +
                    ", row=" + std::to_string(row) + ")";
          out.push_back(r);
        }
  for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
    const auto& n = ss.nodes[i];
    if (n.kind != schedule::SsKind::Transfer || g.allocation.plan.empty() || g.allocation.plan[i] < 0) continue;
    for (int l : n.plans[static_cast<std::size_t>(g.allocation.plan[i])].links)
      if (!have(false, l)) {
        const auto& link = acc.links().at(static_cast<std::size_t>(l));
        Resource r;
        r.is_core = false;
        r.id = l;
        r.sort_key = link.is_bus() ? 2000000000 + l : 1000000000 + std::int64_t{std::max(link.sender, 0)} * 100000 + std::max(link.receiver, 0);
        char bw[32];
        std::snprintf(bw, sizeof bw, "%g", link.bandwidth);
        r.label = acc.link_name(l) + " (bw=" + bw + ")";
        out.push_back(r);
      }
  }
  std::stable_sort(out.begin(), out.end(), [](const Resource& a, const Resource& b) { return a.sort_key < b.sort_key; });
  return out;
}

}  // namespace stream::report::detail
