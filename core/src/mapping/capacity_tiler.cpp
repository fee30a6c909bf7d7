#include "stream/mapping/capacity_tiler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stream::mapping {

namespace {

std::vector<std::int64_t> divisors_ascending(std::int64_t n) {
  std::vector<std::int64_t> low, high;
  for (std::int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) {
      low.push_back(d);
      if (d != n / d) high.push_back(n / d);
    }
  low.insert(low.end(), high.rbegin(), high.rend());
  return low;
}

enum class Rule { LeastOverflow, Cheapest };

class Search {
 public:
  explicit Search(const CapacityProblem& p) : p_(p) {
    index();
    for (std::size_t j = 0; j < r_.size(); ++j) ratio_[j] = share(j, r_[j]);
    for (std::size_t t = 0; t < p_.axes.size(); ++t) f_[t] = fraction(static_cast<int>(t));
    for (std::size_t c = 0; c < p_.cores.size(); ++c) usage_[c] = usage(c);
    exact_tiles_ = true;
    tiles_ = 1;
    for (std::size_t j = 0; j < r_.size(); ++j) {
      exact_tiles_ = exact_tiles_ && p_.per_core[j] % r_[j] == 0;
      if (exact_tiles_) tiles_ *= p_.per_core[j] / r_[j];
    }
  }

  /// The steps of `rule` from the starting tiles until nothing overflows or the tile cap stops them.
  CapacityResult run(Rule rule) {
    CapacityResult out;
    double current = worst();
    out.fitted_at_start = current <= 0;
    while (current > 0) {
      const int best = rule == Rule::LeastOverflow ? least_overflow_step(current) : cheapest_step(current);
      if (best < 0) {
        out.tile_cap_reached = true;
        break;
      }
      apply(static_cast<std::size_t>(best), next_value(static_cast<std::size_t>(best)));
      current = worst();
    }
    out.resident = r_;
    return out;
  }

 private:
  // Dim j's next value when a step may take it (0: none left, or it would pass the tile cap).
  std::int64_t step_within_cap(std::size_t j) const {
    const std::int64_t next = next_value(j);
    return next == 0 || trial_tiles(j, next) > static_cast<double>(p_.max_tiles) ? 0 : next;
  }

  // The reference's step: the dim whose next divisor leaves the smallest worst overflow (first on
  // ties); under strict descent (`--compat stream-1.13`) none when that does not lower `current`.
  int least_overflow_step(double current) {
    int best = -1;
    double best_worst = 0.0;
    for (std::size_t j = 0; j < r_.size(); ++j) {
      const std::int64_t next = step_within_cap(j);
      if (next == 0) continue;
      const double w = trial_worst(j, next, best >= 0, best_worst);
      if (best < 0 || w < best_worst) {
        best = static_cast<int>(j);
        best_worst = w;
      }
    }
    if (best >= 0 && p_.strict_descent && !(best_worst < current)) return -1;
    return best;
  }

  // The step that lowers the worst overflow most per factor of steady-state tiles it costs (bits
  // per log of the tile count's growth; first on ties): a prime dim cut to 1 (197 tokens) costs
  // 197 times the tiles for what halving a weight's dims does at 2, so the cap is spent on the
  // dims that free the most memory.
  int cheapest_step(double current) {
    int best = -1;
    double best_score = 0.0;
    for (std::size_t j = 0; j < r_.size(); ++j) {
      const std::int64_t next = step_within_cap(j);
      if (next == 0) continue;
      const double growth = std::log(static_cast<double>(r_[j]) / static_cast<double>(next));
      const double score = (current - trial_worst(j, next, false, 0.0)) / growth;
      if (best < 0 || score > best_score) {
        best = static_cast<int>(j);
        best_score = score;
      }
    }
    return best;
  }

  void index() {
    const std::size_t dims = p_.per_core.size(), tensors = p_.axes.size(), cores = p_.cores.size();
    r_ = p_.resident;
    ratio_.assign(dims, 1.0);
    f_.assign(tensors, 1.0);
    usage_.assign(cores, 0.0);
    trial_f_.assign(tensors, 1.0);
    stamp_.assign(tensors, 0);
    delta_.assign(cores, 0.0);
    touched_.assign(cores, 0);
    divisors_.resize(dims);
    for (std::size_t j = 0; j < dims; ++j) divisors_[j] = divisors_ascending(p_.per_core[j]);
    tensors_of_dim_.resize(dims);
    for (std::size_t t = 0; t < tensors; ++t) {
      std::vector<int> ds;
      for (const auto& accessors : p_.axes[t])
        for (const auto& acc : accessors) ds.insert(ds.end(), acc.begin(), acc.end());
      std::sort(ds.begin(), ds.end());
      ds.erase(std::unique(ds.begin(), ds.end()), ds.end());
      for (int j : ds) tensors_of_dim_[static_cast<std::size_t>(j)].push_back(static_cast<int>(t));
    }
    holders_.resize(tensors);
    for (std::size_t c = 0; c < cores; ++c)
      for (const auto& [t, bits] : p_.cores[c].tensors) holders_[static_cast<std::size_t>(t)].emplace_back(static_cast<int>(c), bits);
    cores_of_dim_.resize(dims);
    for (std::size_t j = 0; j < dims; ++j) {
      auto& cs = cores_of_dim_[j];
      for (int t : tensors_of_dim_[j])
        for (const auto& [c, bits] : holders_[static_cast<std::size_t>(t)]) cs.push_back(c);
      std::sort(cs.begin(), cs.end());
      cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
    }
  }

  double share(std::size_t j, std::int64_t r) const {
    return static_cast<double>(r) / static_cast<double>(p_.per_core[j]);
  }

  double fraction(int t) const {
    double f = 1.0;
    for (const auto& accessors : p_.axes[static_cast<std::size_t>(t)]) {
      double widest = 0.0;
      for (const auto& ds : accessors) {
        double s = 1.0;
        for (int j : ds) s *= ratio_[static_cast<std::size_t>(j)];
        widest = std::max(widest, s);
      }
      f *= widest;
    }
    return f;
  }

  // The core's usage in list order, taking a trial's fractions where stamped.
  double usage(std::size_t c) const {
    double bits = 0.0;
    for (const auto& [t, b] : p_.cores[c].tensors) {
      const auto k = static_cast<std::size_t>(t);
      bits += b * (stamp_[k] == trial_ ? trial_f_[k] : f_[k]);
    }
    return bits;
  }

  double overflow(std::size_t c, double u) const { return u - p_.cores[c].budget; }

  double worst() const {
    double w = -1e300;
    for (std::size_t c = 0; c < usage_.size(); ++c) w = std::max(w, overflow(c, usage_[c]));
    return w;
  }

  std::int64_t next_value(std::size_t j) const {
    const auto& ds = divisors_[j];
    auto it = std::lower_bound(ds.begin(), ds.end(), r_[j]);
    return it == ds.begin() ? 0 : *std::prev(it);
  }

  // The product over dims of per-core / resident with dim j at `next`: an exact integer when every
  // resident tile divides its dim (then equal to the floating product), else that product.
  double trial_tiles(std::size_t j, std::int64_t next) const {
    if (exact_tiles_) return static_cast<double>(tiles_ / (p_.per_core[j] / r_[j]) * (p_.per_core[j] / next));
    double n = 1.0;
    for (std::size_t k = 0; k < r_.size(); ++k)
      n *= static_cast<double>(p_.per_core[k]) / static_cast<double>(k == j ? next : r_[k]);
    return n;
  }

  void stamp_trial(std::size_t j, std::int64_t next) {
    ++trial_;
    const double saved = ratio_[j];
    ratio_[j] = share(j, next);
    for (int t : tensors_of_dim_[j]) {
      trial_f_[static_cast<std::size_t>(t)] = fraction(t);
      stamp_[static_cast<std::size_t>(t)] = trial_;
    }
    ratio_[j] = saved;
  }

  // The worst overflow with dim j at `next`, or a value >= best_worst when the trial cannot beat it.
  double trial_worst(std::size_t j, std::int64_t next, bool has_best, double best_worst) {
    stamp_trial(j, next);
    const auto& cs = cores_of_dim_[j];
    for (int c : cs) touched_[static_cast<std::size_t>(c)] = 1;
    double w = -1e300;
    for (std::size_t c = 0; c < usage_.size(); ++c)
      if (!touched_[c]) w = std::max(w, overflow(c, usage_[c]));
    if (has_best) {
      const double bound = lower_bound(j, w);
      if (bound >= best_worst) {
        for (int c : cs) touched_[static_cast<std::size_t>(c)] = 0;
        return bound;
      }
    }
    for (int c : cs) {
      touched_[static_cast<std::size_t>(c)] = 0;
      w = std::max(w, overflow(static_cast<std::size_t>(c), usage(static_cast<std::size_t>(c))));
    }
    return w;
  }

  // A lower bound on the trial's worst overflow from the cached sums minus the trial's changes,
  // widened by a bound on the rounding of both list-order sums (non-negative terms: at most
  // (n + 1) ulps of the old sum each), so that pruning never drops the trial a full sum would pick.
  double lower_bound(std::size_t j, double unaffected) {
    for (int t : tensors_of_dim_[j]) {
      const auto k = static_cast<std::size_t>(t);
      for (const auto& [c, b] : holders_[k]) delta_[static_cast<std::size_t>(c)] += b * f_[k] - b * trial_f_[k];
    }
    double w = unaffected;
    constexpr double eps = std::numeric_limits<double>::epsilon();
    for (int c : cores_of_dim_[j]) {
      const auto k = static_cast<std::size_t>(c);
      const double n = static_cast<double>(p_.cores[k].tensors.size());
      const double margin = 4.0 * (n + 4.0) * eps * usage_[k] + std::numeric_limits<double>::denorm_min();
      w = std::max(w, overflow(k, usage_[k] - delta_[k] - margin) - eps * (usage_[k] + p_.cores[k].budget));
      delta_[k] = 0.0;
    }
    return w;
  }

  void apply(std::size_t j, std::int64_t next) {
    if (exact_tiles_) tiles_ = tiles_ / (p_.per_core[j] / r_[j]) * (p_.per_core[j] / next);
    r_[j] = next;
    ratio_[j] = share(j, next);
    ++trial_;  // no stamp matches: the sums read the committed fractions
    for (int t : tensors_of_dim_[j]) f_[static_cast<std::size_t>(t)] = fraction(t);
    for (int c : cores_of_dim_[j]) usage_[static_cast<std::size_t>(c)] = usage(static_cast<std::size_t>(c));
  }

  const CapacityProblem& p_;
  std::vector<std::int64_t> r_;
  std::vector<double> ratio_, f_, usage_;
  std::vector<std::vector<std::int64_t>> divisors_;
  std::vector<std::vector<int>> tensors_of_dim_, cores_of_dim_;
  std::vector<std::vector<std::pair<int, double>>> holders_;  ///< per tensor: (core, per-core bits)
  bool exact_tiles_ = true;
  std::int64_t tiles_ = 1;
  // Trial scratch: a tensor's trial fraction counts while its stamp equals trial_.
  std::vector<double> trial_f_, delta_;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t trial_ = 1;  // stamps start at 0: none matches
  std::vector<char> touched_;
};

}  // namespace

// The reference's rule first; only where it stops at the tile cap with a core still over (where the
// reference keeps a seed that does not fit either), and when asked, does the per-tile rule search
// again from the starting tiles, and its answer is kept only when it fits.
CapacityResult refine_capacity(const CapacityProblem& problem) {
  CapacityResult out = Search(problem).run(Rule::LeastOverflow);
  if (!out.tile_cap_reached || !problem.by_tile_cost_past_cap) return out;
  CapacityResult cheaper = Search(problem).run(Rule::Cheapest);
  if (cheaper.tile_cap_reached) return out;
  cheaper.by_tile_cost = true;
  return cheaper;
}

}  // namespace stream::mapping
