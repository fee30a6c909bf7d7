#include "stream/ir/layout_folding.hpp"

#include <algorithm>
#include <deque>
#include <numeric>
#include <optional>
#include <unordered_map>
#include <utility>

#include "stream/error.hpp"
#include "stream/ir/iteration_space.hpp"

namespace stream {
namespace {

using Shape = std::vector<std::int64_t>;

std::vector<std::int64_t> row_major_strides(const Shape& e) {
  std::vector<std::int64_t> s(e.size(), 1);
  for (std::size_t t = e.size(); t-- > 1;) s[t - 1] = s[t] * e[t];
  return s;
}

std::int64_t product(const Shape& e) { return std::accumulate(e.begin(), e.end(), std::int64_t{1}, std::multiplies<>()); }

struct Failed {};  // internal: the current layout op cannot be folded
// internal: folding the current layout op would spread past LayoutFoldingOptions' bounds
struct Spread : Failed {};

// Splits loop d of a computation node into loops with extents e (outer to inner), in place at
// positions d..d+m-1. Results that are bare d become the m component loops (the operand's axis
// expands); any other use of d is a fail. Returns the expanded (operand, axis) pairs, axes counted
// before the expansion.
std::vector<std::pair<std::size_t, std::size_t>> split_loop(Node& n, int d, const Shape& e) {
  const int m = static_cast<int>(e.size());
  const int nd = n.num_dims();
  std::vector<std::pair<std::size_t, std::size_t>> expanded;
  if (m == 1) return expanded;
  std::vector<AffineExpr> subs;
  for (int j = 0; j < nd; ++j) subs.push_back(AffineExpr::dim(j < d ? j : j + m - 1));
  for (std::size_t i = 0; i < n.operand_mapping.size(); ++i) {
    std::vector<AffineExpr> results;
    const auto& map = n.operand_mapping[i];
    for (std::size_t a = 0; a < map.num_results(); ++a) {
      const auto& r = map.result(a);
      if (r.bare_dim() == d) {
        for (int t = 0; t < m; ++t) results.push_back(AffineExpr::dim(d + t));
        expanded.emplace_back(i, a);
      } else if (r.uses_dim(d)) {
        throw Failed{};
      } else {
        results.push_back(r.substitute(subs));
      }
    }
    n.operand_mapping[i] = AffineMap(nd + m - 1, std::move(results));
  }
  std::vector<std::pair<int, std::int64_t>> windows;
  for (auto [w, extent] : n.window_extents) {
    if (w == d) {
      if (extent != product(e)) throw Failed{};
      for (int t = 0; t < m; ++t) windows.emplace_back(d + t, e[static_cast<std::size_t>(t)]);
    } else {
      windows.emplace_back(w > d ? w + m - 1 : w, extent);
    }
  }
  n.window_extents = windows;
  std::vector<int> axes;
  for (int a : n.reduction_axes) {
    if (a < d) axes.push_back(a);
    else if (a == d) for (int t = 0; t < m; ++t) axes.push_back(d + t);
    else axes.push_back(a + m - 1);
  }
  n.reduction_axes = axes;
  if (!n.dim_names.empty()) {
    const auto base = n.dim_names[static_cast<std::size_t>(d)];
    std::vector<std::string> names(n.dim_names.begin(), n.dim_names.begin() + d);
    for (int t = 0; t < m; ++t) names.push_back(base + std::to_string(t));
    names.insert(names.end(), n.dim_names.begin() + d + 1, n.dim_names.end());
    n.dim_names = names;
  }
  for (std::size_t i = 0; i < n.access_overrides.size(); ++i)
    if (n.access_overrides[i]) n.access_overrides[i]->pieces = {n.operand_mapping[i]};
  return expanded;
}

// When r is exactly sum_t d_t * stride_t over distinct loops with extents e (row-major), the
// component loops d_1..d_m; otherwise nothing.
// `n` must be consistent (its tensors match its maps) for its loop sizes to be read.
std::optional<std::vector<AffineExpr>> row_major_components(const Node& n, const AffineExpr& r, const Shape& e) {
  auto f = r.linear();
  if (!f || f->constant != 0 || f->num_terms() != static_cast<int>(e.size())) return std::nullopt;
  std::vector<std::pair<std::int64_t, int>> terms;  // (coefficient, dim)
  for (std::size_t d = 0; d < f->coeffs.size(); ++d)
    if (f->coeffs[d] != 0) terms.emplace_back(f->coeffs[d], static_cast<int>(d));
  std::sort(terms.rbegin(), terms.rend());
  const auto stride = row_major_strides(e);
  std::vector<std::int64_t> extents;
  try {
    extents = loop_sizes(n);
  } catch (const Error&) {
    return std::nullopt;
  }
  std::vector<AffineExpr> out;
  for (std::size_t t = 0; t < e.size(); ++t) {
    if (terms[t].first != stride[t] || extents[static_cast<std::size_t>(terms[t].second)] != e[t]) return std::nullopt;
    out.push_back(AffineExpr::dim(terms[t].second));
  }
  return out;
}

// The tensor axis whose results start at `position` in a map where each tensor axis a already
// spans widths[a] results (widths empty: one each), and records that it now spans `parts`.
std::size_t unexpanded_axis(std::vector<std::size_t>& widths, std::size_t rank, std::size_t position, std::size_t parts) {
  if (widths.empty()) widths.assign(rank, 1);
  std::size_t start = 0;
  for (std::size_t a = 0; a < widths.size(); ++a) {
    if (start == position) {
      widths[a] = parts;
      return a;
    }
    start += widths[a];
  }
  throw Failed{};
}

struct Group {
  enum Kind { Identity, LoneX, LoneY, Split, Merge } kind;
  std::vector<std::size_t> xs, ys;
};

// Groups of a row-major reshape sx -> sy (spec §2.5 step 1); a regroup or mismatch fails.
std::vector<Group> reshape_groups(const Shape& sx, const Shape& sy) {
  std::vector<Group> groups;
  std::size_t i = 0, o = 0;
  const auto p = sx.size(), q = sy.size();
  while (i < p || o < q) {
    if (i < p && o < q && sx[i] == 1 && sy[o] == 1) {
      groups.push_back({Group::Identity, {i++}, {o++}});
    } else if (i < p && sx[i] == 1) {
      groups.push_back({Group::LoneX, {i++}, {}});
    } else if (o < q && sy[o] == 1) {
      groups.push_back({Group::LoneY, {}, {o++}});
    } else if (i < p && o < q) {
      Group g{Group::Identity, {i}, {o}};
      std::int64_t px = sx[i++], py = sy[o++];
      while (px != py) {
        if (px < py) {
          if (i >= p) throw Failed{};
          g.xs.push_back(i);
          px *= sx[i++];
        } else {
          if (o >= q) throw Failed{};
          g.ys.push_back(o);
          py *= sy[o++];
        }
      }
      if (g.xs.size() > 1 && g.ys.size() > 1) throw Failed{};  // regroup
      g.kind = g.xs.size() > 1 ? Group::Merge : g.ys.size() > 1 ? Group::Split : Group::Identity;
      groups.push_back(g);
    } else {
      throw Failed{};
    }
  }
  return groups;
}

struct Refinement {
  std::string tensor;
  std::size_t axis;
  Shape factors;
  std::set<std::size_t> done;  // node indices already updated for this refinement
  int id = 0;
  /// Pending refinements of the same tensor that `axis` already counts as applied: it was read
  /// from a node's map that those had expanded (a reshape splitting two axes splits two loops).
  std::set<int> after;
};

// Shared across the layout ops of one pass: the nodes (removed ones stay in place, marked), and
// for each tensor name the nodes that may access it (a superset: always check the operand).
struct FoldState {
  std::vector<Node> nodes;
  std::vector<bool> removed;
  std::unordered_map<std::string, std::vector<std::size_t>> accessors;
  std::map<std::string, std::vector<std::int64_t>> perms;
};

// Folds one layout op. Every node it changes is saved first, so a failed fold restores exactly
// those (the pass stays linear in the graph size instead of copying it per layout op).
class Folder {
 public:
  Folder(FoldState& state, const LayoutFoldingOptions& opt)
      : state_(state), nodes_(state.nodes), perms_(state.perms), opt_(opt), saved_perms_(state.perms) {}

  void rollback() {
    for (auto& [i, n] : saved_) nodes_[i] = std::move(n);
    perms_ = std::move(saved_perms_);
  }
  [[nodiscard]] std::size_t refinements() const { return refinements_; }
  [[nodiscard]] std::size_t touched() const { return saved_.size(); }

  void validate_touched() const {
    for (const auto& [i, n] : saved_)
      if (!state_.removed[i]) validate(nodes_[i]);
  }

  bool is_transpose(const Node& n) const {
    return n.kind == NodeKind::FusionEdge && opt_.transpose_types.count(n.type) != 0 && perms_.count(n.name) != 0;
  }

  // Folds the layout FusionEdge at index li; throws Failed when it cannot.
  void fold(std::size_t li) {
    const Node L = nodes_[li];
    const TensorPtr X = L.inputs[0], Y = L.outputs[0];
    const bool transpose = is_transpose(L);
    std::vector<std::int64_t> perm;
    if (transpose) perm = perms_.at(L.name);
    const auto readers = unique_accessors(Y->name);
    for (std::size_t ri : readers) {
      if (ri == li) continue;
      std::vector<std::size_t> occ;
      for (std::size_t i = 0; i < nodes_[ri].inputs.size(); ++i)
        if (nodes_[ri].inputs[i]->name == Y->name) occ.push_back(i);
      if (occ.empty()) continue;
      touch(ri);
      Node& R = nodes_[ri];
      state_.accessors[X->name].push_back(ri);
      if (R.kind == NodeKind::OutEdge) {
        R.inputs[0] = X;
        continue;
      }
      if (R.kind == NodeKind::FusionEdge) {  // a kept layout op downstream: it now re-indexes X itself
        R.inputs[0] = X;
        perms_.erase(R.name);
        continue;
      }
      if (!R.has_iteration_space() || occ.size() != 1) throw Failed{};
      compose(ri, occ[0], *X, *Y, transpose ? &perm : nullptr);
      nodes_[ri].inputs[occ[0]] = X;
    }
    state_.removed[li] = true;
    run_refinements();
  }

 private:
  void compose(std::size_t ri, std::size_t operand, const Tensor& X, const Tensor& Y, const std::vector<std::int64_t>* perm) {
    Node& R = nodes_[ri];
    if (transpose_compose(R, operand, X, perm)) return;
    const auto groups = reshape_groups(X.shape, Y.shape);
    // Merges first: each splits the reader's loop over the merged axis.
    std::vector<std::size_t> width(Y.rank(), 1);
    std::map<std::size_t, std::vector<std::size_t>> expanded;  // per other operand: width of each tensor axis
    auto y_results = [&](std::size_t o) {
      std::size_t start = 0;
      for (std::size_t j = 0; j < o; ++j) start += width[j];
      const auto& res = R.operand_mapping[operand].results();
      return std::vector<AffineExpr>(res.begin() + static_cast<std::ptrdiff_t>(start),
                                     res.begin() + static_cast<std::ptrdiff_t>(start + width[o]));
    };
    for (const auto& g : groups) {
      if (g.kind != Group::Merge) continue;
      const auto o = g.ys[0];
      const auto r = y_results(o)[0];
      const int d = r.bare_dim();
      if (d < 0) throw Failed{};
      const auto& res = R.operand_mapping[operand].results();
      int uses = 0;
      for (const auto& e : res) uses += e.uses_dim(d) ? 1 : 0;
      if (uses != 1) throw Failed{};
      Shape factors;
      for (auto x : g.xs) factors.push_back(X.shape[x]);
      const auto expanded_axes = split_loop(R, d, factors);
      check_loops(R);
      for (auto [j, axis] : expanded_axes) {
        if (j == operand) continue;
        // The refinement names the axis of the tensor as it is now: an earlier merge of this
        // reshape (DepthToSpace merges two) has already expanded operand j's map.
        work_.push_back({R.operand(j)->name, unexpanded_axis(expanded[j], R.operand(j)->rank(), axis, factors.size()), factors, {ri}});
      }
      width[o] = g.xs.size();
    }
    std::vector<AffineExpr> xr;
    const int nd = R.num_dims();
    for (const auto& g : groups) {
      switch (g.kind) {
        case Group::Identity:
          xr.push_back(y_results(g.ys[0])[0]);
          break;
        case Group::LoneX:
          xr.push_back(AffineExpr::constant(0));
          break;
        case Group::LoneY: {
          const auto r = y_results(g.ys[0])[0];
          const int d = r.bare_dim();
          if (!(r.is_constant() && r.value() == 0) && d < 0) throw Failed{};
          if (d >= 0) dropped_.push_back(d);
          break;
        }
        case Group::Split: {
          Shape factors;
          for (auto o : g.ys) {
            xr.push_back(y_results(o)[0]);
            factors.push_back(Y.shape[o]);
          }
          // X's axis is refined into the split axes; this reader already reads the components.
          work_.push_back({X.name, g.xs[0], factors, {ri}});
          break;
        }
        case Group::Merge:
          for (const auto& r : y_results(g.ys[0])) xr.push_back(r);
          break;
      }
    }
    R.operand_mapping[operand] = AffineMap(nd, std::move(xr));
    if (operand < R.access_overrides.size() && R.access_overrides[operand])
      R.access_overrides[operand]->pieces = {R.operand_mapping[operand]};
    // A unit axis dropped with its loop: keep the loop's extent (1) known.
    for (int d : dropped_) {
      bool used = false;
      for (const auto& m : R.operand_mapping) used = used || m.uses_dim(d);
      if (!used) R.window_extents.emplace_back(d, 1);
    }
    dropped_.clear();
  }

  bool transpose_compose(Node& R, std::size_t operand, const Tensor& X, const std::vector<std::int64_t>* perm) {
    if (!perm) return false;
    const auto& yr = R.operand_mapping[operand].results();
    std::vector<bool> seen(X.rank(), false);
    if (perm->size() != X.rank() || yr.size() != X.rank()) throw Failed{};
    for (auto p : *perm) {
      if (p < 0 || p >= static_cast<std::int64_t>(X.rank()) || seen[static_cast<std::size_t>(p)]) throw Failed{};
      seen[static_cast<std::size_t>(p)] = true;
    }
    std::vector<AffineExpr> xr(X.rank());
    for (std::size_t k = 0; k < perm->size(); ++k) xr[static_cast<std::size_t>((*perm)[k])] = yr[k];
    R.operand_mapping[operand] = AffineMap(R.num_dims(), std::move(xr));
    if (operand < R.access_overrides.size() && R.access_overrides[operand])
      R.access_overrides[operand]->pieces = {R.operand_mapping[operand]};
    return true;
  }

  // N with operand j set back to the tensor before refinement (so its maps and tensors agree).
  static Node unrefined(const Node& N, std::size_t j, const TensorPtr& before) {
    Node probe = N;
    if (j < probe.inputs.size()) probe.inputs[j] = before;
    else probe.outputs[j - probe.inputs.size()] = before;
    return probe;
  }

  // Saves node i before its first change; a fold that would change more nodes than the bound
  // allows spreads too far and stops (the bound keeps every fold's cost independent of the graph).
  void touch(std::size_t i) {
    if (saved_.count(i) != 0) return;
    if (saved_.size() >= opt_.max_touched_nodes) throw Spread{};
    saved_.emplace(i, nodes_[i]);
  }

  void check_loops(const Node& n) const {
    if (n.num_dims() > opt_.max_loops) throw Spread{};
  }

  std::vector<std::size_t> unique_accessors(const std::string& name) const {
    auto it = state_.accessors.find(name);
    if (it == state_.accessors.end()) return {};
    std::vector<std::size_t> out;
    for (auto i : it->second)
      if (!state_.removed[i]) out.push_back(i);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  TensorPtr find_tensor(const std::string& name) const {
    for (auto i : unique_accessors(name)) {
      for (const auto& t : nodes_[i].inputs) if (t->name == name) return t;
      for (const auto& t : nodes_[i].outputs) if (t->name == name) return t;
    }
    return nullptr;
  }

  void replace_tensor(const std::string& name, const TensorPtr& t) {
    for (auto i : unique_accessors(name)) {
      touch(i);
      for (auto& x : nodes_[i].inputs) if (x->name == name) x = t;
      for (auto& x : nodes_[i].outputs) if (x->name == name) x = t;
    }
  }

  // A fold whose refinements keep splitting (seen on torchvision's Swin once its constant
  // subgraphs are evaluated: no end, and memory growing by gigabytes) is given up, leaving the
  // layout op a FusionEdge and reported as bounded; real folds take a few refinements per
  // reader. The queue may run ahead of the refinements applied (max_refinements), by four times.
  [[nodiscard]] std::size_t max_queued() const { return 4 * opt_.max_refinements; }

  // Queues the refinement of `tensor` that splitting a loop of node ni implies; `axis` is read
  // from ni's map, which already shows ni's earlier, still pending, splits of that tensor.
  void push_expanded(std::size_t ni, const std::string& tensor, std::size_t axis, const Shape& e) {
    if (static_cast<std::size_t>(next_id_) >= max_queued()) throw Spread{};
    Refinement r{tensor, axis, e, {ni}};
    r.id = ++next_id_;
    auto& earlier = expanded_by_node_[{ni, tensor}];
    for (int id : earlier)
      if (pending_.count(id) != 0) r.after.insert(id);
    earlier.push_back(r.id);
    pending_.insert(r.id);
    work_.push_back(std::move(r));
  }

  void run_refinements() {
    while (!work_.empty()) {
      Refinement item = work_.front();
      work_.pop_front();
      pending_.erase(item.id);
      refine(item);
    }
  }

  void refine(const Refinement& item) {
    if (++refinements_ > opt_.max_refinements) throw Spread{};
    const auto& e = item.factors;
    auto T = find_tensor(item.tensor);
    if (!T || e.size() <= 1) return;
    if (item.axis >= T->rank()) throw Failed{};
    if (T->shape[item.axis] != product(e)) {
      // Already refined through another path?
      if (item.axis + e.size() <= T->rank() &&
          std::equal(e.begin(), e.end(), T->shape.begin() + static_cast<std::ptrdiff_t>(item.axis)))
        return;
      throw Failed{};
    }
    const auto refined = refine_shape(T, item);
    for (std::size_t ni : unique_accessors(T->name)) {
      if (item.done.count(ni) != 0) continue;
      touch(ni);
      Node& N = nodes_[ni];
      if (N.kind == NodeKind::FusionEdge) {
        if (is_transpose(N)) refine_transpose(ni, T->name, item);
      } else if (N.has_iteration_space()) {
        refine_reader(ni, T, *refined, item);
      }
    }
  }

  // Replaces the tensor by one whose axis is split into the factors, and moves the later axes of
  // the queued refinements of that tensor that do not wait for this one.
  TensorPtr refine_shape(const TensorPtr& T, const Refinement& item) {
    const auto& e = item.factors;
    Shape shape(T->shape.begin(), T->shape.begin() + static_cast<std::ptrdiff_t>(item.axis));
    shape.insert(shape.end(), e.begin(), e.end());
    shape.insert(shape.end(), T->shape.begin() + static_cast<std::ptrdiff_t>(item.axis) + 1, T->shape.end());
    // Row-major, as every tensor is at this stage: a row-major axis split into row-major
    // sub-axes lies in memory as before.
    auto split = std::make_shared<Tensor>(*make_tensor(T->name, T->dtype, shape));
    split->declared_shape = T->model_shape();
    TensorPtr refined = split;
    replace_tensor(T->name, refined);
    for (auto& w : work_)
      if (w.tensor == T->name && w.axis > item.axis && w.after.count(item.id) == 0) w.axis += e.size() - 1;
    return refined;
  }

  // A Transpose passes the split to its other side and its permutation gains the new axes.
  void refine_transpose(std::size_t ni, const std::string& tensor, const Refinement& item) {
    const Node& N = nodes_[ni];
    const auto m = item.factors.size();
    auto& p = perms_[N.name];
    const bool is_input = N.inputs[0]->name == tensor;
    if (!is_input && N.outputs[0]->name != tensor) return;
    std::size_t a = 0, k = 0;  // X axis a <-> Y axis k
    if (is_input) {
      a = item.axis;
      k = static_cast<std::size_t>(std::find(p.begin(), p.end(), static_cast<std::int64_t>(a)) - p.begin());
      work_.push_back({N.outputs[0]->name, k, item.factors, {ni}});
    } else {
      k = item.axis;
      a = static_cast<std::size_t>(p[k]);
      work_.push_back({N.inputs[0]->name, a, item.factors, {ni}});
    }
    std::vector<std::int64_t> np;
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (j == k) {
        for (std::size_t t = 0; t < m; ++t) np.push_back(static_cast<std::int64_t>(a + t));
      } else {
        np.push_back(p[j] > static_cast<std::int64_t>(a) ? p[j] + static_cast<std::int64_t>(m) - 1 : p[j]);
      }
    }
    p = np;
  }

  // Every operand of the reader that is the tensor and not yet expanded (`before`: the tensor
  // before this refinement).
  void refine_reader(std::size_t ni, const TensorPtr& before, const Tensor& refined, const Refinement& item) {
    Node& N = nodes_[ni];
    for (;;) {
      std::size_t j = N.num_operands();
      for (std::size_t i = 0; i < N.num_operands(); ++i)
        if (N.operand(i)->name == refined.name && N.operand_mapping[i].num_results() != refined.rank()) {
          j = i;
          break;
        }
      if (j == N.num_operands()) return;
      refine_operand(ni, j, before, item);
    }
  }

  void refine_operand(std::size_t ni, std::size_t j, const TensorPtr& before, const Refinement& item) {
    Node& N = nodes_[ni];
    const auto& e = item.factors;
    const auto r = N.operand_mapping[j].result(item.axis);
    const int d = r.bare_dim();
    if (d >= 0) {
      const auto expanded_axes = split_loop(N, d, e);
      check_loops(N);
      for (auto [u, b] : expanded_axes) {
        if (N.operand(u)->name == item.tensor) {
          if (b != item.axis) throw Failed{};
          continue;
        }
        push_expanded(ni, N.operand(u)->name, b, e);
      }
    } else if (auto comps = row_major_components(unrefined(N, j, before), r, e)) {
      // The node already walks the axis with one loop per factor (a grouped conv's g*K/G + k).
      set_axis_results(N, j, item.axis, *comps);
    } else if (r.is_constant() && r.value() >= 0 && r.value() < product(e)) {
      const auto stride = row_major_strides(e);
      std::vector<AffineExpr> comps;
      auto c = r.value();
      for (std::size_t t = 0; t < e.size(); ++t) {
        comps.push_back(AffineExpr::constant(c / stride[t]));
        c %= stride[t];
      }
      set_axis_results(N, j, item.axis, comps);
    } else {
      throw Failed{};
    }
  }

  // Operand j's map with result `axis` replaced by one result per factor.
  static void set_axis_results(Node& N, std::size_t j, std::size_t axis, const std::vector<AffineExpr>& comps) {
    std::vector<AffineExpr> res;
    const auto& old = N.operand_mapping[j].results();
    res.insert(res.end(), old.begin(), old.begin() + static_cast<std::ptrdiff_t>(axis));
    res.insert(res.end(), comps.begin(), comps.end());
    res.insert(res.end(), old.begin() + static_cast<std::ptrdiff_t>(axis) + 1, old.end());
    N.operand_mapping[j] = AffineMap(N.num_dims(), std::move(res));
    if (j < N.access_overrides.size() && N.access_overrides[j]) N.access_overrides[j]->pieces = {N.operand_mapping[j]};
  }

  FoldState& state_;
  std::vector<Node>& nodes_;
  std::map<std::string, std::vector<std::int64_t>>& perms_;
  const LayoutFoldingOptions& opt_;
  std::map<std::string, std::vector<std::int64_t>> saved_perms_;
  std::map<std::size_t, Node> saved_;
  std::deque<Refinement> work_;
  int next_id_ = 0;
  std::set<int> pending_;  // ids of queued refinements made by push_expanded
  std::map<std::pair<std::size_t, std::string>, std::vector<int>> expanded_by_node_;
  std::vector<int> dropped_;
  std::size_t refinements_ = 0;
};

}  // namespace

std::vector<Node> fold_layout_ops(std::vector<Node> nodes, const LayoutFoldingOptions& options, LayoutFoldingReport* report) {
  FoldState state;
  state.perms = options.perms;
  // Transposes without an explicit permutation reverse their axes (the ONNX default).
  for (const auto& n : nodes)
    if (n.kind == NodeKind::FusionEdge && options.transpose_types.count(n.type) != 0 && state.perms.count(n.name) == 0) {
      std::vector<std::int64_t> p(n.inputs[0]->rank());
      std::iota(p.rbegin(), p.rend(), 0);
      state.perms[n.name] = p;
    }
  state.nodes = std::move(nodes);
  state.removed.assign(state.nodes.size(), false);
  for (std::size_t i = 0; i < state.nodes.size(); ++i) {
    for (const auto& t : state.nodes[i].inputs) state.accessors[t->name].push_back(i);
    for (const auto& t : state.nodes[i].outputs) state.accessors[t->name].push_back(i);
  }
  std::vector<std::string> kept;
  std::vector<std::string> folded;
  std::vector<std::string> bounded;
  std::size_t refinements = 0, touched = 0;
  // Last to first, so a chain's downstream ops are folded into computation nodes before the
  // upstream ones compose with them.
  for (std::size_t idx = state.nodes.size(); idx-- > 0;) {
    const Node& L = state.nodes[idx];
    const bool layout = L.kind == NodeKind::FusionEdge &&
                        (options.reshape_types.count(L.type) != 0 || options.transpose_types.count(L.type) != 0);
    if (!layout) continue;
    const auto name = L.name;
    Folder folder(state, options);
    try {
      folder.fold(idx);
      folder.validate_touched();
      folded.push_back(name);
    } catch (const Spread&) {
      folder.rollback();
      state.removed[idx] = false;
      kept.push_back(name);
      bounded.push_back(name);
    } catch (const Failed&) {
      folder.rollback();
      state.removed[idx] = false;
      kept.push_back(name);
    } catch (const Error&) {
      folder.rollback();
      state.removed[idx] = false;
      kept.push_back(name);
    }
    refinements += folder.refinements();
    touched += folder.touched();
  }
  if (report) {
    report->bounded.assign(bounded.rbegin(), bounded.rend());
    report->refinements = refinements;
    report->touched_nodes = touched;
    report->folded.assign(folded.rbegin(), folded.rend());
    report->kept.assign(kept.rbegin(), kept.rend());
  }
  std::vector<Node> out;
  out.reserve(state.nodes.size());
  for (std::size_t i = 0; i < state.nodes.size(); ++i)
    if (!state.removed[i]) out.push_back(std::move(state.nodes[i]));
  return out;
}

}  // namespace stream
