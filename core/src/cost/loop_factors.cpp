#include "stream/cost/loop_factors.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace stream::cost {

std::vector<TemporalLoop> temporal_loops(const Layer& layer, const OperandSpatial& first_input_frac) {
  std::vector<std::int64_t> size(layer.sizes);
  std::vector<bool> deleted(size.size(), false);
  for (const auto& level : first_input_frac.loops)
    for (const auto& l : level) {
      const auto d = static_cast<std::size_t>(l.dim);
      if (deleted[d]) continue;
      size[d] = static_cast<std::int64_t>(std::ceil(static_cast<double>(size[d]) / l.size));
      if (size[d] == 1) deleted[d] = true;
    }
  std::vector<TemporalLoop> out;
  for (std::size_t d = 0; d < size.size(); ++d)
    if (!deleted[d] && size[d] != 1) out.push_back({static_cast<int>(d), size[d]});
  return out;
}

std::vector<TemporalLoop> loop_prime_factors(const std::vector<TemporalLoop>& loops, int lpf_limit) {
  if (loops.empty()) return {TemporalLoop{0, 1}};
  lpf_limit = std::max(lpf_limit, static_cast<int>(loops.size()));
  std::vector<std::map<std::int64_t, int>> factors(loops.size());
  std::vector<int> count(loops.size(), 0);
  int total = 0;
  for (std::size_t i = 0; i < loops.size(); ++i) {
    std::int64_t v = loops[i].size;
    for (std::int64_t p = 2; p * p <= v; ++p)
      while (v % p == 0) {
        ++factors[i][p];
        ++count[i];
        v /= p;
      }
    if (v > 1) {
      ++factors[i][v];
      ++count[i];
    }
    total += count[i];
  }
  while (total > lpf_limit) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < loops.size(); ++i)
      if (count[i] > count[best]) best = i;
    auto& f = factors[best];
    auto it = f.begin();
    std::int64_t merged;
    if (it->second >= 2) {
      merged = it->first * it->first;
      it->second -= 2;
    } else {
      auto it2 = std::next(it);
      merged = it->first * it2->first;
      it->second -= 1;
      it2->second -= 1;
    }
    ++f[merged];
    for (auto j = f.begin(); j != f.end();) j = j->second == 0 ? f.erase(j) : std::next(j);
    --count[best];
    --total;
  }
  std::vector<TemporalLoop> out;
  for (std::size_t i = 0; i < loops.size(); ++i)
    for (auto [p, c] : factors[i])
      for (int k = 0; k < c; ++k) out.push_back({loops[i].dim, p});
  return out;
}

std::uint64_t ordering_count(const std::vector<TemporalLoop>& lpfs) {
  std::uint64_t r = 1;
  std::map<std::pair<int, std::int64_t>, int> mult;
  std::uint64_t n = 0;
  for (const auto& l : lpfs) {
    ++n;
    r *= n;
    r /= static_cast<std::uint64_t>(++mult[{l.dim, l.size}]);
  }
  return r;
}

MultisetPermutations::MultisetPermutations(const std::vector<TemporalLoop>& lpfs) {
  for (const auto& l : lpfs) {
    auto it = std::find_if(kinds_.begin(), kinds_.end(), [&](const TemporalLoop& k) { return k.dim == l.dim && k.size == l.size; });
    if (it == kinds_.end()) {
      kinds_.push_back(l);
      it = std::prev(kinds_.end());
    }
    ids_.push_back(static_cast<int>(it - kinds_.begin()));
  }
  std::sort(ids_.begin(), ids_.end());
  current_.resize(ids_.size());
  for (std::size_t i = 0; i < ids_.size(); ++i) current_[i] = kinds_[static_cast<std::size_t>(ids_[i])];
}

bool MultisetPermutations::next() {
  if (!std::next_permutation(ids_.begin(), ids_.end())) return false;
  for (std::size_t i = 0; i < ids_.size(); ++i) current_[i] = kinds_[static_cast<std::size_t>(ids_[i])];
  return true;
}

}  // namespace stream::cost
