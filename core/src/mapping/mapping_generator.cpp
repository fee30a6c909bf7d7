#include "stream/mapping/mapping_generator.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <sstream>
#include <tuple>

#include "stream/error.hpp"
#include "stream/numeric/python_random.hpp"

namespace stream::mapping {

namespace {

[[noreturn]] void not_swiglu(const std::string& why) {
  throw Error("not a SwiGLU-shaped workload (mapping search): " + why);
}

// The loop dim that axis `axis` of operand map `m` indexes alone, or -1.
int dim_of(const AffineMap& m, std::size_t axis) {
  if (axis >= m.num_results() || !m.result(axis).is_dim()) return -1;
  return m.result(axis).position();
}

bool is_matmul(const Node& n) {
  return n.kind == NodeKind::Computation && (n.type == "Gemm" || n.type == "MatMul") && n.inputs.size() == 2 &&
         n.outputs.size() == 1 && n.num_dims() == 3;
}

// A matmul X[a, b] x W[b, c] -> Y[a, c] with plain-dim maps: its (m, k, n) loop positions.
SwigluShape::MatmulDims matmul_dims(const Node& n, const std::string& role) {
  if (!is_matmul(n)) not_swiglu(role + " '" + n.name + "' is a " + n.type + ", not a two-operand Gemm/MatMul");
  const auto& x = n.operand_mapping[0];
  const auto& w = n.operand_mapping[1];
  const auto& y = n.operand_mapping[2];
  SwigluShape::MatmulDims d{dim_of(y, 0), dim_of(x, 1), dim_of(y, 1)};
  const bool plain = x.num_results() == 2 && w.num_results() == 2 && y.num_results() == 2 && d.m >= 0 && d.k >= 0 &&
                     d.n >= 0 && dim_of(x, 0) == d.m && dim_of(w, 0) == d.k && dim_of(w, 1) == d.n;
  if (!plain) not_swiglu(role + " '" + n.name + "' is not a plain 2-D matmul X[m, k] x W[k, n] -> Y[m, n]");
  return d;
}

// The only computation node of `type` among `nodes` that reads `tensor`, or npos.
std::size_t reader_of(const Workload& w, const std::string& tensor, const std::string& type) {
  std::size_t found = Workload::npos;
  for (std::size_t i : w.computation_nodes())
    for (const auto& t : w.node(i).inputs)
      if (t->name == tensor && (type.empty() || w.node(i).type == type)) found = i;
  return found;
}

std::size_t the_silu(const Workload& w) {
  std::size_t silu = Workload::npos;
  for (std::size_t i : w.computation_nodes())
    if (w.node(i).type == "Silu") {
      if (silu != Workload::npos) not_swiglu("more than one Silu node ('" + w.node(silu).name + "', '" + w.node(i).name + "')");
      silu = i;
    }
  if (silu == Workload::npos) not_swiglu("no Silu node");
  return silu;
}

std::size_t producer(const Workload& w, const TensorPtr& t, const std::string& what) {
  const auto p = w.producer_of(t->name);
  if (p == Workload::npos || !w.node(p).has_iteration_space()) not_swiglu(what + " '" + t->name + "' is not computed by a node");
  return p;
}

void expect_shape(const TensorPtr& t, std::vector<std::int64_t> shape, const std::string& what) {
  if (t->shape == shape) return;
  std::ostringstream s;
  s << what << " '" << t->name << "' has shape [";
  for (std::size_t i = 0; i < t->shape.size(); ++i) s << (i ? ", " : "") << t->shape[i];
  s << "], expected [";
  for (std::size_t i = 0; i < shape.size(); ++i) s << (i ? ", " : "") << shape[i];
  not_swiglu(s.str() + "]");
}

void fill_down(const Workload& w, const Node& mul, SwigluShape& s) {
  const auto down = reader_of(w, mul.outputs[0]->name, "");
  if (down == Workload::npos) return;
  const Node& d = w.node(down);
  s.down = d.name;
  s.down_dims = matmul_dims(d, "Gemm_Down");
  if (d.inputs[0]->name != mul.outputs[0]->name) not_swiglu("Gemm_Down '" + d.name + "' takes the product as its weight");
  expect_shape(d.inputs[1], {s.hidden_dim, s.embedding_dim}, "Gemm_Down's weight");
  s.weights_3 = d.inputs[1]->name;
  s.output = d.outputs[0]->name;
}

}  // namespace

SwigluShape swiglu_shape(const Workload& w) {
  SwigluShape s;
  const Node& silu = w.node(the_silu(w));
  const Node& left = w.node(producer(w, silu.inputs.at(0), "the Silu's input"));
  s.left_dims = matmul_dims(left, "Gemm_Left");
  const auto& x = left.inputs[0];
  if (x->rank() != 2) not_swiglu("Gemm_Left's input '" + x->name + "' is not 2-D");
  s.seq_len = x->shape[0];
  s.embedding_dim = x->shape[1];
  s.hidden_dim = left.outputs[0]->shape.at(1);
  expect_shape(left.inputs[1], {s.embedding_dim, s.hidden_dim}, "Gemm_Left's weight");
  const auto mul_index = reader_of(w, silu.outputs.at(0)->name, "Mul");
  if (mul_index == Workload::npos) not_swiglu("no Mul reads the Silu's output '" + silu.outputs[0]->name + "'");
  const Node& mul = w.node(mul_index);
  if (mul.inputs.size() != 2 || mul.outputs.size() != 1) not_swiglu("Mul '" + mul.name + "' does not have two inputs");
  const auto& other = mul.inputs[0]->name == silu.outputs[0]->name ? mul.inputs[1] : mul.inputs[0];
  const Node& right = w.node(producer(w, other, "the Mul's other input"));
  s.right_dims = matmul_dims(right, "Gemm_Right");
  if (right.inputs[0]->name != x->name) not_swiglu("Gemm_Right '" + right.name + "' does not read Gemm_Left's input");
  expect_shape(right.inputs[1], {s.embedding_dim, s.hidden_dim}, "Gemm_Right's weight");
  s.left = left.name;
  s.right = right.name;
  s.silu = silu.name;
  s.mul = mul.name;
  s.silu_row = dim_of(silu.operand_mapping.back(), 0);
  s.mul_row = dim_of(mul.operand_mapping.back(), 0);
  if (s.silu_row < 0 || s.mul_row < 0) not_swiglu("the Silu's or the Mul's output rows are not a loop dim");
  s.input = x->name;
  s.weights_1 = left.inputs[1]->name;
  s.weights_2 = right.inputs[1]->name;
  s.output = mul.outputs[0]->name;
  fill_down(w, mul, s);
  const std::size_t expected = s.down.empty() ? 4 : 5;
  if (w.computation_nodes().size() != expected)
    not_swiglu(std::to_string(w.computation_nodes().size()) + " computation nodes, expected " + std::to_string(expected) +
               " (Gemm_Left, Gemm_Right, Silu, Elt_Mul" + (s.down.empty() ? ")" : ", Gemm_Down)"));
  return s;
}

std::int64_t LayerOption::total() const {
  std::int64_t t = 1;
  for (const auto& s : splits) t *= s.split;
  return t;
}

namespace {

// One layer of the reference's templates: which node, its inter-core dims and their sizes.
struct Template {
  std::string role, node;
  std::vector<int> dims;
  std::vector<std::int64_t> sizes;
  Kernel kernel;
};

Kernel kernel(const std::string& name, double utilization, std::vector<std::pair<std::string, std::string>> extra) {
  std::ostringstream u;
  u << utilization;
  Kernel k{name, {{"utilization", u.str()}}, utilization};
  k.kwargs.insert(k.kwargs.end(), extra.begin(), extra.end());
  return k;
}

std::vector<Template> templates(const SwigluShape& s, const MappingGeneratorOptions& o, bool down) {
  const auto gemm = o.seq_len_tile_size == 1
                        ? kernel("matvec", 61.8, {{"layout", "default"}})
                        : kernel("gemm", 61.8, {{"m", std::to_string(o.seq_len_tile_size)},
                                                {"k", std::to_string(o.embedding_tile_size)},
                                                {"n", std::to_string(o.hidden_tile_size)},
                                                {"layout", "default"}});
  std::vector<Template> t{
      {"Gemm_Left", s.left, {s.left_dims.m, s.left_dims.n}, {s.seq_len, s.hidden_dim}, gemm},
      {"Gemm_Right", s.right, {s.right_dims.m, s.right_dims.n}, {s.seq_len, s.hidden_dim}, gemm},
      {"Silu", s.silu, {s.silu_row}, {s.seq_len}, kernel("silu", 50.0, {{"layout", "default"}})},
      {"Elt_Mul", s.mul, {s.mul_row}, {s.seq_len}, kernel("eltwise_mul", 50.0, {{"layout", "default"}})}};
  if (down) t.push_back({"Gemm_Down", s.down, {s.down_dims.m, s.down_dims.n}, {s.seq_len, s.embedding_dim}, gemm});
  return t;
}

bool fits_array(const std::vector<std::int64_t>& s, const MappingGeneratorOptions& o) {
  if (!o.nb_rows || !o.nb_cols) return true;
  const std::int64_t r = *o.nb_rows, c = *o.nb_cols;
  if (s.size() == 1) return s[0] <= std::max(r, c);
  if (s.size() == 2) return (s[0] <= r && s[1] <= c) || (s[0] <= c && s[1] <= r);
  return true;
}

// Every split shape: a divisor (<= cores) per dim, first dim slowest (itertools.product).
std::vector<std::vector<std::int64_t>> shapes(const std::vector<std::int64_t>& sizes, std::int64_t cores) {
  std::vector<std::vector<std::int64_t>> out{{}};
  for (std::int64_t size : sizes) {
    std::vector<std::vector<std::int64_t>> next;
    for (const auto& prefix : out)
      for (std::int64_t d = 1; d <= std::min(size, cores); ++d)
        if (size % d == 0) {
          next.push_back(prefix);
          next.back().push_back(d);
        }
    out = std::move(next);
  }
  return out;
}

// Per total, only the 2-D shapes whose first split is closest to min(total, rows) (1-D first,
// then the totals in order of first appearance).
std::vector<LayerOption> rows_first(const std::vector<LayerOption>& options, const MappingGeneratorOptions& o) {
  if (!o.nb_rows) return options;
  const std::int64_t rows = *o.nb_rows;
  std::vector<LayerOption> kept;
  std::vector<std::pair<std::int64_t, std::vector<LayerOption>>> buckets;
  for (const auto& e : options) {
    if (e.splits.size() <= 1) {
      kept.push_back(e);
      continue;
    }
    auto b = std::find_if(buckets.begin(), buckets.end(), [&](const auto& x) { return x.first == e.total(); });
    if (b == buckets.end()) b = buckets.insert(buckets.end(), std::pair(e.total(), std::vector<LayerOption>{}));
    b->second.push_back(e);
  }
  for (const auto& [total, entries] : buckets) {
    const std::int64_t target = std::min(total, rows);
    auto score = [&](const LayerOption& e) {
      const std::int64_t s0 = e.splits[0].split;
      return std::tuple(std::abs(s0 - target), std::max<std::int64_t>(0, s0 - rows), -s0);
    };
    auto best = score(entries[0]);
    for (const auto& e : entries) best = std::min(best, score(e));
    for (const auto& e : entries)
      if (score(e) == best) kept.push_back(e);
  }
  return kept;
}

// At most `cap` shapes per total (largest leading split first), totals ascending.
std::vector<LayerOption> cap_per_total(std::vector<LayerOption> options, int cap) {
  if (cap <= 0) return options;
  auto key = [](const LayerOption& e) {
    std::vector<std::int64_t> k;
    for (const auto& s : e.splits) k.push_back(-s.split);
    return k;
  };
  std::stable_sort(options.begin(), options.end(), [&](const LayerOption& a, const LayerOption& b) {
    return a.total() != b.total() ? a.total() < b.total() : key(a) < key(b);
  });
  std::vector<LayerOption> kept;
  for (std::size_t i = 0; i < options.size(); ++i)
    if (i < static_cast<std::size_t>(cap) || options[i - cap].total() != options[i].total()) kept.push_back(options[i]);
  return kept;
}

std::vector<LayerOption> options_of(const Template& t, std::int64_t cores, const MappingGeneratorOptions& o) {
  std::optional<std::vector<std::int64_t>> allowed;
  if (auto it = o.layer_core_splits.find(t.role); it != o.layer_core_splits.end()) {
    allowed.emplace();
    for (auto x : it->second)
      if (x >= 1 && x <= cores) allowed->push_back(x);
    if (allowed->empty()) return {};
  }
  std::vector<LayerOption> options;
  for (const auto& shape : shapes(t.sizes, cores)) {
    const std::int64_t needed = std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
    if (needed > cores || (allowed && std::find(allowed->begin(), allowed->end(), needed) == allowed->end())) continue;
    if (!fits_array(shape, o)) continue;
    LayerOption opt;
    for (std::size_t i = 0; i < shape.size(); ++i) opt.splits.push_back({t.dims[i], shape[i]});
    options.push_back(std::move(opt));
  }
  options = rows_first(options, o);
  const auto cap = o.layer_max_shapes_per_total.find(t.role);
  return cap == o.layer_max_shapes_per_total.end() ? options : cap_per_total(std::move(options), cap->second);
}

}  // namespace


namespace {

bool wants_down(const SwigluShape& s, const MappingGeneratorOptions& o) {
  const bool has = !s.down.empty();
  if (o.last_gemm_down && *o.last_gemm_down != has)
    throw Error(has ? "last_gemm_down is off but the workload has a down projection ('" + s.down +
                          "'): a mapping must cover every node"
                    : "last_gemm_down is on but the workload has no down projection (no matmul reads '" + s.mul +
                          "''s output)");
  return has;
}

void check_sizes(const SwigluShape& s, const MappingGeneratorOptions& o) {
  auto fail = [](const std::string& why) { throw Error("mapping search: " + why); };
  if (o.seq_len_tile_size < 1 || o.embedding_tile_size < 1 || o.hidden_tile_size < 1)
    fail("tile sizes must be positive");
  if ((o.nb_rows && *o.nb_rows < 1) || (o.nb_cols && *o.nb_cols < 1)) fail("rows and cols must be positive");
  const auto n = [](std::int64_t v) { return std::to_string(v); };
  if (s.seq_len % 4 != 0) fail("seq_len " + n(s.seq_len) + " must be divisible by 4");
  if (s.seq_len < 4 * o.seq_len_tile_size)
    fail("seq_len " + n(s.seq_len) + " must be at least 4 x the seq tile " + n(o.seq_len_tile_size));
  if (s.embedding_dim % o.embedding_tile_size != 0)
    fail("embedding_dim " + n(s.embedding_dim) + " must be divisible by the embedding tile " + n(o.embedding_tile_size));
  if (s.hidden_dim % o.hidden_tile_size != 0)
    fail("hidden_dim " + n(s.hidden_dim) + " must be divisible by the hidden tile " + n(o.hidden_tile_size));
}

std::string tag_of(const std::vector<Template>& t, const std::vector<const LayerOption*>& combo) {
  std::string tag;
  for (std::size_t l = 0; l < t.size(); ++l) {
    tag += (l ? "__" : "") + t[l].node;
    for (const auto& s : combo[l]->splits) tag += "_D" + std::to_string(s.dim) + "x" + std::to_string(s.split);
  }
  return tag;
}

Mapping assemble(const SwigluShape& s, const MappingGeneratorOptions& o, const std::vector<Template>& t,
                 const std::vector<const LayerOption*>& combo, const std::vector<int>& cores) {
  Mapping m;
  FusedGroup fg{"Fused_Group_1", {}, {}, {}};
  std::size_t next = 0;
  for (std::size_t l = 0; l < t.size(); ++l) {
    const auto needed = static_cast<std::size_t>(combo[l]->total());
    const std::size_t from = o.disjoint_cores_per_layer ? next : 0;
    LayerMapping lm;
    lm.name = t[l].node;
    lm.core_allocation = {std::vector<int>(cores.begin() + static_cast<std::ptrdiff_t>(from),
                                           cores.begin() + static_cast<std::ptrdiff_t>(from + needed))};
    lm.inter_core_tiling = {combo[l]->splits};
    lm.kernel = t[l].kernel;
    m.layers.push_back(std::move(lm));
    fg.layers.push_back(t[l].node);
    next += needed;
  }
  fg.intra_core_tiling = {{s.left, s.left_dims.k, o.embedding_tile_size},
                          {s.left, s.left_dims.n, o.hidden_tile_size},
                          {s.left, s.left_dims.m, o.seq_len_tile_size}};
  if (t.size() == 5) fg.intra_core_tiling.insert(fg.intra_core_tiling.begin() + 1, TileEntry{s.down, s.down_dims.n, o.embedding_tile_size});
  m.fused_groups.push_back(std::move(fg));
  for (const auto* name : {&s.input, &s.weights_1, &s.weights_2, &s.weights_3, &s.output})
    if (!name->empty()) m.runtime_args.push_back({*name, std::nullopt});
  m.source_file = "mapping search: " + tag_of(t, combo);
  return m;
}

// Every combination of the layers' options, last layer fastest (itertools.product).
std::vector<std::vector<const LayerOption*>> combinations(const std::vector<std::vector<LayerOption>>& per_layer) {
  std::size_t count = 1;
  for (const auto& o : per_layer) {
    count *= o.size();
    if (count > 1000000) throw Error("mapping search: more than 10^6 combinations of the layers' split options");
  }
  std::vector<std::vector<const LayerOption*>> out;
  if (count == 0) return out;
  std::vector<std::size_t> at(per_layer.size(), 0);
  for (std::size_t k = 0; k < count; ++k) {
    auto& combo = out.emplace_back();
    for (std::size_t l = 0; l < per_layer.size(); ++l) combo.push_back(&per_layer[l][at[l]]);
    for (std::size_t l = per_layer.size(); l-- > 0;)
      if (++at[l] < per_layer[l].size()) break;
      else at[l] = 0;
  }
  return out;
}

std::int64_t cores_of(const std::vector<const LayerOption*>& combo) {
  std::int64_t n = 0;
  for (const auto* o : combo) n += o->total();
  return n;
}

}  // namespace

std::vector<std::vector<LayerOption>> layer_options(const SwigluShape& shape, std::size_t nb_compute_cores,
                                                    const MappingGeneratorOptions& options) {
  std::vector<std::vector<LayerOption>> out;
  for (const auto& t : templates(shape, options, !shape.down.empty()))
    out.push_back(options_of(t, static_cast<std::int64_t>(nb_compute_cores), options));
  return out;
}

std::vector<MappingVariant> generate_mapping_variants(const Workload& workload, const hardware::Accelerator& accelerator,
                                                      const MappingGeneratorOptions& o) {
  const SwigluShape s = swiglu_shape(workload);
  const bool down = wants_down(s, o);
  const std::vector<int> cores = accelerator.compute_cores();
  if (cores.empty()) throw Error("mapping search: the accelerator has no compute core", Location{.file = accelerator.source_file});
  check_sizes(s, o);
  const auto t = templates(s, o, down);
  const auto per_layer = layer_options(s, cores.size(), o);
  auto combos = combinations(per_layer);
  if (o.ordering == MappingOrder::Random)
    numeric::PythonRandom(o.shuffle_seed).shuffle(combos);
  else
    std::stable_sort(combos.begin(), combos.end(), [&](const auto& a, const auto& b) {
      return o.ordering == MappingOrder::UtilizationDescending ? cores_of(a) > cores_of(b) : cores_of(a) < cores_of(b);
    });
  std::vector<MappingVariant> out;
  for (const auto& combo : combos) {
    if (o.max_variants && out.size() >= *o.max_variants) break;
    std::size_t needed = 0;
    bool fits = true;
    for (const auto* l : combo) {
      const auto n = static_cast<std::size_t>(l->total());
      needed = o.disjoint_cores_per_layer ? needed + n : n;
      fits = fits && needed <= cores.size();
    }
    if (!fits) continue;
    out.push_back({out.size(), tag_of(t, combo), assemble(s, o, t, combo, cores)});
  }
  return out;
}

}  // namespace stream::mapping
