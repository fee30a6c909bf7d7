#include "stream/cost/memory_allocator.hpp"

#include <algorithm>
#include <limits>

namespace stream::cost {

MemoryAllocator::MemoryAllocator(const Layer& layer, const CoreModel& core, const std::vector<int>& memop_of_op,
                                 const std::vector<OperandSpatial>& spatial_frac, bool even)
    : layer_(layer), core_(core), spatial_(spatial_frac), even_(even) {
  op_of_memop_.assign(kNumMemOps, -1);
  for (std::size_t i = 0; i < memop_of_op.size(); ++i) {
    memop_of_op_.push_back(memop_of_op[i]);
    op_of_memop_[static_cast<std::size_t>(memop_of_op[i])] = static_cast<int>(i);
  }
  const std::size_t n_ops = memop_of_op.size();
  alloc_prod_.resize(n_ops);
  for (auto& a : alloc_prod_) a.assign(static_cast<std::size_t>(layer.n_loop), 1.0);
  pos_.assign(n_ops, 0);
  mem_level_.assign(n_ops, 1);
  prod_.assign(static_cast<std::size_t>(layer.n_loop), 1.0);
  sizes_.resize(kNumMemOps);
  acc_.resize(kNumMemOps);
  offset_.assign(kNumMemOps, 0);
  idx_.assign(kNumMemOps, 0);
  best_idx_.assign(kNumMemOps, 0);
}

bool MemoryAllocator::can_fit_some_ordering(const std::vector<TemporalLoop>& loops) const {
  const std::size_t n_ops = memop_of_op_.size();
  SmallVec<double, 64> prod;
  prod.resize(static_cast<std::size_t>(layer_.n_loop));
  for (const CoreMemory& mem : core_.mems) {
    double need = 0;
    for (int memop : mem.memops) {
      const auto op = static_cast<std::size_t>(op_of_memop_[static_cast<std::size_t>(memop)]);
      if (op >= n_ops) continue;
      const auto lvl = static_cast<std::size_t>(mem.level_of[static_cast<std::size_t>(memop)]);
      const bool top = lvl + 1 == core_.levels[static_cast<std::size_t>(memop)].size();
      std::fill(prod.begin(), prod.end(), 1.0);
      for (std::size_t a = 0; a <= lvl && a < spatial_[op].loops.size(); ++a)
        for (const auto& l : spatial_[op].loops[a]) prod[static_cast<std::size_t>(l.dim)] *= l.size;
      if (top)
        for (const auto& l : loops) prod[static_cast<std::size_t>(l.dim)] *= static_cast<double>(l.size);
      const LayerOperand& lo = layer_.operands[op];
      const double prec = op == 0 ? std::min<double>(lo.precision, layer_.precision_out_final) : lo.precision;
      need += layer_.tensor_size(static_cast<int>(op), prod.data()) * prec;
    }
    if (need > mem.size) return false;
  }
  return true;
}

void MemoryAllocator::reset(Allocation& out) {
  const std::size_t n_ops = memop_of_op_.size();
  out.bounds.resize(n_ops);
  for (std::size_t op = 0; op < n_ops; ++op) {
    auto& ap = alloc_prod_[op];
    std::fill(ap.begin(), ap.end(), 1.0);
    for (const auto& l : spatial_[op].loops[0]) ap[static_cast<std::size_t>(l.dim)] *= l.size;
    pos_[op] = 0;
    mem_level_[op] = 1;
    out.bounds[op].clear();
    out.bounds[op].push_back(0);
  }
}

// The output is held at its partial-sum precision while an irrelevant (reduction) loop is still
// above this level, at its final precision otherwise.
double MemoryAllocator::precision_at(std::size_t op, const std::vector<TemporalLoop>& ordering) const {
  const LayerOperand& lo = layer_.operands[op];
  if (op != 0) return lo.precision;
  const int L = static_cast<int>(ordering.size());
  for (int i = pos_[op]; i < L; ++i)
    if ((lo.ir & bit(ordering[static_cast<std::size_t>(i)].dim)) != 0) return lo.precision;
  for (std::size_t a = static_cast<std::size_t>(mem_level_[op]); a < spatial_[op].loops.size(); ++a)
    for (const auto& l : spatial_[op].loops[a])
      if (lo.ir & bit(l.dim)) return lo.precision;
  return layer_.precision_out_final;
}

bool MemoryAllocator::list_prefixes(const CoreMemory& mem, std::size_t k, const std::vector<TemporalLoop>& ordering) {
  const int memop = mem.memops[k];
  const auto op = static_cast<std::size_t>(op_of_memop_[static_cast<std::size_t>(memop)]);
  const int L = static_cast<int>(ordering.size());
  const double prec = precision_at(op, ordering);
  auto& sz = sizes_[k];
  auto& acc = acc_[k];
  sz.clear();
  acc.clear();
  prod_ = alloc_prod_[op];
  for (int i = pos_[op];; ++i) {
    const double s = layer_.tensor_size(static_cast<int>(op), prod_.data()) * prec;
    if (s > mem.size) break;
    sz.push_back(s);
    if (i == L) break;
    prod_[static_cast<std::size_t>(ordering[static_cast<std::size_t>(i)].dim)] *= static_cast<double>(ordering[static_cast<std::size_t>(i)].size);
  }
  if (sz.empty()) return false;  // MemoryTooSmallException
  const auto& levels = core_.levels[static_cast<std::size_t>(memop)];
  if (mem.level_of[static_cast<std::size_t>(memop)] == static_cast<int>(levels.size()) - 1) {
    offset_[k] = static_cast<int>(sz.size()) - 1;
    const double last = sz.back();
    sz.assign(1, last);  // NOLINT: copy taken before the assignment
    acc.assign(1, 0.0);
    return true;
  }
  offset_[k] = 0;
  acc.resize(sz.size());
  // remaining iterations x tile bits
  double rem = 1;
  for (int i = L - 1; i >= pos_[op] + static_cast<int>(sz.size()) - 1; --i) rem *= static_cast<double>(ordering[static_cast<std::size_t>(i)].size);
  for (int j = static_cast<int>(sz.size()) - 1; j >= 0; --j) {
    acc[static_cast<std::size_t>(j)] = rem * sz[static_cast<std::size_t>(j)];
    if (j > 0) rem *= static_cast<double>(ordering[static_cast<std::size_t>(pos_[op] + j - 1)].size);
  }
  return true;
}

// EVEN mappings: no operand of a shared memory may take a loop another operand leaves above it.
bool MemoryAllocator::even_combination(const CoreMemory& mem) const {
  const std::size_t k_ops = mem.memops.size();
  for (std::size_t k = 0; k < k_ops; ++k) {
    const auto opk = static_cast<std::size_t>(op_of_memop_[static_cast<std::size_t>(mem.memops[k])]);
    const int take_k = idx_[k] + offset_[k];
    if (take_k == 0) continue;
    for (std::size_t j = 0; j < k_ops; ++j) {
      const auto opj = static_cast<std::size_t>(op_of_memop_[static_cast<std::size_t>(mem.memops[j])]);
      if (pos_[opk] + take_k > pos_[opj] + idx_[j] + offset_[j]) return false;
    }
  }
  return true;
}

// Mixed-radix enumeration of the operands' prefixes, last operand fastest; ties go to the later
// combination. Fills best_idx_; false when none fits.
bool MemoryAllocator::choose_combination(const CoreMemory& mem) {
  const std::size_t k_ops = mem.memops.size();
  double best = std::numeric_limits<double>::infinity();
  bool any = false;
  std::size_t n_comb = 1;
  for (std::size_t k = 0; k < k_ops; ++k) n_comb *= sizes_[k].size();
  for (std::size_t c = 0; c < n_comb; ++c) {
    std::size_t rest = c;
    for (std::size_t k = k_ops; k-- > 0;) {
      idx_[k] = static_cast<int>(rest % sizes_[k].size());
      rest /= sizes_[k].size();
    }
    double ssum = 0, asum = 0;
    for (std::size_t k = 0; k < k_ops; ++k) {
      ssum += sizes_[k][static_cast<std::size_t>(idx_[k])];
      asum += acc_[k][static_cast<std::size_t>(idx_[k])];
    }
    if (ssum > mem.size) {
      if (c == 0) return false;  // MemoryTooSmallException
      continue;
    }
    if (even_ && k_ops > 1 && !even_combination(mem)) continue;
    if (asum <= best) {
      best = asum;
      any = true;
      for (std::size_t k = 0; k < k_ops; ++k) best_idx_[k] = idx_[k];
    }
  }
  return any;
}

bool MemoryAllocator::take_chosen(const CoreMemory& mem, const std::vector<TemporalLoop>& ordering, Allocation& out) {
  const int L = static_cast<int>(ordering.size());
  for (std::size_t k = 0; k < mem.memops.size(); ++k) {
    const int memop = mem.memops[k];
    const auto op = static_cast<std::size_t>(op_of_memop_[static_cast<std::size_t>(memop)]);
    const int take = best_idx_[k] + offset_[k];
    auto& ap = alloc_prod_[op];
    for (int i = pos_[op]; i < pos_[op] + take; ++i)
      ap[static_cast<std::size_t>(ordering[static_cast<std::size_t>(i)].dim)] *= static_cast<double>(ordering[static_cast<std::size_t>(i)].size);
    const auto a = static_cast<std::size_t>(mem_level_[op]);
    if (a < spatial_[op].loops.size())
      for (const auto& l : spatial_[op].loops[a]) ap[static_cast<std::size_t>(l.dim)] *= l.size;
    pos_[op] += take;
    out.bounds[op].push_back(pos_[op]);
    const auto& levels = core_.levels[static_cast<std::size_t>(memop)];
    if (mem.level_of[static_cast<std::size_t>(memop)] == static_cast<int>(levels.size()) - 1 && pos_[op] < L)
      return false;  // MemoryHierarchyTooSmallException
    ++mem_level_[op];
  }
  return true;
}

bool MemoryAllocator::allocate(const std::vector<TemporalLoop>& ordering, Allocation& out) {
  reset(out);
  for (const CoreMemory& mem : core_.mems) {
    for (std::size_t k = 0; k < mem.memops.size(); ++k)
      if (!list_prefixes(mem, k, ordering)) return false;
    if (!choose_combination(mem) || !take_chosen(mem, ordering, out)) return false;
  }
  return true;
}

}  // namespace stream::cost
