#include "stream/ir/dimensions.hpp"

#include <algorithm>
#include <map>

#include "stream/error.hpp"
#include "stream/ir/iteration_space.hpp"
#include "stream/ir/workload.hpp"

namespace stream {

std::vector<int> UnifiedDimensions::dims_of(std::size_t node_index, int num_dims) const {
  std::vector<int> out;
  const auto first = first_slot.at(node_index);
  if (first < 0) return out;
  for (int d = 0; d < num_dims; ++d) out.push_back(slot_dim.at(static_cast<std::size_t>(first + d)));
  return out;
}

namespace {

// Union-find with offsets: value(x) = value(root(x)) + offset(x). The root of a class is its
// highest slot, as the reference's RREF leaves the highest column of each component free.
class OffsetUnionFind {
 public:
  explicit OffsetUnionFind(std::size_t n) : parent_(n), offset_(n, 0) {
    for (std::size_t i = 0; i < n; ++i) parent_[i] = i;
  }
  std::pair<std::size_t, std::int64_t> find(std::size_t x) {
    std::int64_t off = 0;
    std::size_t r = x;
    while (parent_[r] != r) {
      off += offset_[r];
      r = parent_[r];
    }
    // Path compression keeping offsets relative to the root.
    std::size_t y = x;
    std::int64_t rest = off;
    while (parent_[y] != y) {
      auto next = parent_[y];
      auto step = offset_[y];
      parent_[y] = r;
      offset_[y] = rest;
      rest -= step;
      y = next;
    }
    return {r, off};
  }
  // Records value(a) = value(b) + delta.
  void unite(std::size_t a, std::size_t b, std::int64_t delta) {
    auto [ra, oa] = find(a);
    auto [rb, ob] = find(b);
    if (ra == rb) return;
    // value(ra) + oa = value(rb) + ob + delta
    if (ra < rb) {
      parent_[ra] = rb;
      offset_[ra] = ob + delta - oa;
    } else {
      parent_[rb] = ra;
      offset_[rb] = oa - delta - ob;
    }
  }

 private:
  std::vector<std::size_t> parent_;
  std::vector<std::int64_t> offset_;
};

// A linear form over global slots, sparse (ascending slot): a dense vector per relation would make
// the pass quadratic in the workload's size.
struct GlobalForm {
  std::vector<std::pair<std::size_t, std::int64_t>> terms;
  std::int64_t constant = 0;
};

GlobalForm globalise(const AffineExpr& e, std::int64_t first_slot) {
  auto f = e.linear();
  if (!f) return {};  // non-linear results never form identity relations
  GlobalForm g;
  g.constant = f->constant;
  for (std::size_t d = 0; d < f->coeffs.size(); ++d)
    if (f->coeffs[d] != 0) g.terms.emplace_back(static_cast<std::size_t>(first_slot) + d, f->coeffs[d]);
  return g;
}

// a - b, terms ascending by slot, zero coefficients dropped.
GlobalForm difference(const GlobalForm& a, const GlobalForm& b) {
  GlobalForm r;
  r.constant = a.constant - b.constant;
  std::size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    std::pair<std::size_t, std::int64_t> t;
    if (j == b.terms.size() || (i < a.terms.size() && a.terms[i].first < b.terms[j].first)) {
      t = a.terms[i++];
    } else if (i == a.terms.size() || b.terms[j].first < a.terms[i].first) {
      t = {b.terms[j].first, -b.terms[j].second};
      ++j;
    } else {
      t = {a.terms[i].first, a.terms[i].second - b.terms[j].second};
      ++i;
      ++j;
    }
    if (t.second != 0) r.terms.push_back(t);
  }
  return r;
}

std::string print_relation(const GlobalForm& f) {
  std::string s;
  for (const auto& [slot, coeff] : f.terms) {
    const bool neg = coeff < 0;
    if (s.empty())
      s += neg ? "-" : "";
    else
      s += neg ? " - " : " + ";
    const auto mag = neg ? -coeff : coeff;
    if (mag != 1) s += std::to_string(mag) + "*";
    s += "d" + std::to_string(slot);
  }
  if (f.constant != 0) s += (f.constant < 0 ? " - " : " + ") + std::to_string(f.constant < 0 ? -f.constant : f.constant);
  return s;
}

// Every compute node's loops get consecutive global slots, in dataflow order; returns the count.
std::size_t assign_slots(const Workload& wl, UnifiedDimensions& u) {
  const auto& nodes = wl.nodes();
  u.first_slot.assign(nodes.size(), -1);
  std::int64_t total = 0;
  for (auto i : wl.dataflow_order()) {
    if (!nodes[i].has_iteration_space()) continue;
    u.first_slot[i] = total;
    total += nodes[i].num_dims();
  }
  u.slot_size.assign(static_cast<std::size_t>(total), 0);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (u.first_slot[i] < 0) continue;
    const auto& sizes = wl.loop_sizes(i);
    for (std::size_t d = 0; d < sizes.size(); ++d) u.slot_size[static_cast<std::size_t>(u.first_slot[i]) + d] = sizes[d];
  }
  return static_cast<std::size_t>(total);
}

// Unifies the slots two accesses of one tensor axis relate.
class Relator {
 public:
  Relator(UnifiedDimensions& u, std::size_t slots) : u_(u), uf_(slots) {}

  void relate(std::size_t a, const AffineExpr& ea, std::size_t b, const AffineExpr& eb) {
    const GlobalForm rel = difference(globalise(ea, u_.first_slot[a]), globalise(eb, u_.first_slot[b]));
    // Only identity relations d_x - d_y + c = 0 unify loops (a window index s*o + f - p does not).
    if (rel.terms.size() != 2 || rel.terms[0].second * rel.terms[1].second != -1) return;
    const std::size_t plus = rel.terms[0].second > 0 ? rel.terms[0].first : rel.terms[1].first;
    const std::size_t minus = rel.terms[0].second > 0 ? rel.terms[1].first : rel.terms[0].first;
    u_.relations.push_back(print_relation(rel));
    // plus - minus + c = 0  =>  value(plus) = value(minus) - c
    uf_.unite(plus, minus, -rel.constant);
  }

  OffsetUnionFind& classes() { return uf_; }

 private:
  UnifiedDimensions& u_;
  OffsetUnionFind uf_;
};

// A producer's output and its consumer's read of it, axis by axis.
void relate_producer_edges(const Workload& wl, Relator& relator) {
  const auto& nodes = wl.nodes();
  for (auto [src, dst] : wl.edges()) {
    if (!nodes[src].has_iteration_space() || !nodes[dst].has_iteration_space()) continue;
    const Tensor* shared = nullptr;
    for (const auto& o : nodes[src].outputs) {
      for (const auto& in : nodes[dst].inputs)
        if (in.get() == o.get()) shared = o.get();
      if (shared) break;  // the reference relates only the first shared tensor of an edge
    }
    if (!shared) continue;
    const auto* ms = nodes[src].mapping_of(*shared);
    const auto* md = nodes[dst].mapping_of(*shared);
    for (std::size_t axis = 0; axis < ms->num_results(); ++axis) relator.relate(src, ms->result(axis), dst, md->result(axis));
  }
}

// Two readers of one graph input, axis by axis.
void relate_readers(const Workload& wl, const Tensor& t, std::size_t a, std::size_t b, Relator& relator) {
  const auto& nodes = wl.nodes();
  const auto* ma = nodes[a].mapping_of(t);
  const auto* mb = nodes[b].mapping_of(t);
  if (!ma || !mb) return;
  const auto ka = iterator_kinds(nodes[a]);
  const auto kb = iterator_kinds(nodes[b]);
  for (std::size_t axis = 0; axis < ma->num_results(); ++axis) {
    const auto& ra = ma->result(axis);
    const auto& rb = mb->result(axis);
    // Two readers' parallel loops over a shared input are not the same axis by themselves.
    if (ra.is_dim() && rb.is_dim() && ka[static_cast<std::size_t>(ra.position())] == IteratorKind::Parallel &&
        kb[static_cast<std::size_t>(rb.position())] == IteratorKind::Parallel)
      continue;
    relator.relate(a, ra, b, rb);
  }
}

void relate_shared_inputs(const Workload& wl, Relator& relator) {
  const auto& nodes = wl.nodes();
  for (std::size_t e = 0; e < nodes.size(); ++e) {
    if (nodes[e].kind != NodeKind::InEdge) continue;
    std::vector<std::size_t> readers;
    for (auto s : wl.successors(e))
      if (nodes[s].has_iteration_space()) readers.push_back(s);
    for (std::size_t x = 0; x < readers.size(); ++x)
      for (std::size_t y = x + 1; y < readers.size(); ++y)
        relate_readers(wl, *nodes[e].outputs.front(), readers[x], readers[y], relator);
  }
}

// Numbers the classes by their root slot and sizes each by a member at offset 0 (else any member).
void number_classes(UnifiedDimensions& u, OffsetUnionFind& uf, std::size_t total) {
  std::vector<std::size_t> roots;
  u.slot_dim.resize(total);
  u.slot_offset.resize(total);
  std::vector<std::size_t> root_of(total);
  for (std::size_t s = 0; s < total; ++s) {
    auto [r, off] = uf.find(s);
    root_of[s] = r;
    u.slot_offset[s] = off;
    roots.push_back(r);
  }
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  std::map<std::size_t, int> rank;
  for (std::size_t k = 0; k < roots.size(); ++k) rank[roots[k]] = static_cast<int>(k);
  u.dim_size.assign(roots.size(), 0);
  std::vector<bool> pure_seen(roots.size(), false);
  for (std::size_t s = 0; s < total; ++s) {
    const int z = rank[root_of[s]];
    u.slot_dim[s] = z;
    auto zi = static_cast<std::size_t>(z);
    if (u.slot_offset[s] == 0 && !pure_seen[zi]) {
      pure_seen[zi] = true;
      u.dim_size[zi] = u.slot_size[s];
    } else if (u.dim_size[zi] == 0) {
      u.dim_size[zi] = u.slot_size[s];
    }
  }
}

}  // namespace

UnifiedDimensions compute_unified_dimensions(const Workload& wl) {
  UnifiedDimensions u;
  const std::size_t total = assign_slots(wl, u);
  Relator relator(u, total);
  relate_producer_edges(wl, relator);
  relate_shared_inputs(wl, relator);
  number_classes(u, relator.classes(), total);
  return u;
}

}  // namespace stream
