#include "stream/cost/loop_factors.hpp"

#include <algorithm>
#include <cmath>

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
  // Per dim, its distinct factors ascending with their multiplicity.
  struct Factor {
    std::int64_t p;
    int count;
  };
  std::vector<std::vector<Factor>> factors(loops.size());
  std::vector<int> count(loops.size(), 0);
  auto add = [](std::vector<Factor>& f, std::int64_t p, int c) {
    auto it = std::lower_bound(f.begin(), f.end(), p, [](const Factor& x, std::int64_t v) { return x.p < v; });
    if (it != f.end() && it->p == p)
      it->count += c;
    else
      f.insert(it, Factor{p, c});
  };
  int total = 0;
  for (std::size_t i = 0; i < loops.size(); ++i) {
    std::int64_t v = loops[i].size;
    for (std::int64_t p = 2; p * p <= v; ++p)
      while (v % p == 0) {
        add(factors[i], p, 1);
        ++count[i];
        v /= p;
      }
    if (v > 1) {
      add(factors[i], v, 1);
      ++count[i];
    }
    total += count[i];
  }
  while (total > lpf_limit) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < loops.size(); ++i)
      if (count[i] > count[best]) best = i;
    auto& f = factors[best];
    std::int64_t merged;
    if (f[0].count >= 2) {
      merged = f[0].p * f[0].p;
      f[0].count -= 2;
    } else {
      merged = f[0].p * f[1].p;
      f[0].count -= 1;
      f[1].count -= 1;
    }
    add(f, merged, 1);
    f.erase(std::remove_if(f.begin(), f.end(), [](const Factor& x) { return x.count == 0; }), f.end());
    --count[best];
    --total;
  }
  std::vector<TemporalLoop> out;
  for (std::size_t i = 0; i < loops.size(); ++i)
    for (const Factor& x : factors[i])
      for (int k = 0; k < x.count; ++k) out.push_back({loops[i].dim, x.p});
  return out;
}

std::uint64_t ordering_count(const std::vector<TemporalLoop>& lpfs) {
  std::uint64_t r = 1, n = 0;
  for (std::size_t i = 0; i < lpfs.size(); ++i) {
    // Multiplicity of this (dim, size) among the entries so far (equal entries are counted
    // wherever they are, so the order of lpfs does not matter).
    std::uint64_t mult = 0;
    for (std::size_t j = 0; j <= i; ++j) mult += (lpfs[j].dim == lpfs[i].dim && lpfs[j].size == lpfs[i].size) ? 1 : 0;
    ++n;
    r = r * n / mult;
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
