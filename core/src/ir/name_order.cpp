#include "stream/ir/name_order.hpp"

#include <queue>
#include <set>
#include <tuple>

namespace stream {

Workload in_name_order(const Workload& w) {
  const std::size_t n = w.size();
  std::vector<std::size_t> waiting(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& p = w.predecessors(i);
    waiting[i] = std::set<std::size_t>(p.begin(), p.end()).size();  // distinct producers
  }
  using Key = std::pair<const std::string*, std::size_t>;
  auto later = [](const Key& a, const Key& b) { return std::tie(*a.first, a.second) > std::tie(*b.first, b.second); };
  std::priority_queue<Key, std::vector<Key>, decltype(later)> ready(later);
  for (std::size_t i = 0; i < n; ++i)
    if (waiting[i] == 0) ready.push({&w.node(i).name, i});
  std::vector<Node> nodes;
  nodes.reserve(n);
  while (!ready.empty()) {
    const std::size_t i = ready.top().second;
    ready.pop();
    nodes.push_back(w.node(i));
    const auto& s = w.successors(i);
    for (std::size_t c : std::set<std::size_t>(s.begin(), s.end()))
      if (--waiting[c] == 0) ready.push({&w.node(c).name, c});
  }
  return Workload(std::move(nodes));
}

}  // namespace stream
