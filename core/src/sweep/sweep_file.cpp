#include "stream/sweep/sweep_file.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "stream/hardware/hardware_overrides.hpp"
#include "stream/yaml/yaml_reader.hpp"

namespace stream::sweep {

namespace {

constexpr std::uint64_t kMaxProduct = std::uint64_t{1} << 62;
constexpr std::uint64_t kMaxListed = kMaxListedPoints;

// A value as its axis reads it: a scalar's text; for a hardware override also a list or map,
// as flow YAML.
std::optional<std::string> axis_value(const YAML::Node& item, bool is_override) {
  if (item.IsScalar()) return yamlx::to_text(item);
  if (!is_override || !(item.IsSequence() || item.IsMap())) return std::nullopt;
  YAML::Emitter e;
  e << YAML::Flow << item;
  return std::string(e.c_str());
}

ValueKind kind_of(const YAML::Node& item) {
  if (!item.IsScalar()) return ValueKind::Structure;
  if (yamlx::to_int(item)) return ValueKind::Integer;
  if (const auto x = yamlx::to_number(item); x && std::isfinite(*x)) return ValueKind::Real;  // JSON has no inf
  // Only true/false: YAML 1.1's yes/no/on/off are words a value may well be (a mode's name).
  if (!yamlx::is_quoted(item) && (item.Scalar() == "true" || item.Scalar() == "false")) return ValueKind::Boolean;
  return ValueKind::Text;
}

void read_axes(const yamlx::Ctx& ctx, const YAML::Node& node, SweepFile& sweep) {
  yamlx::MapReader axes(ctx, node, "axes");
  if (!axes.ok()) return;
  for (const auto& e : axes.items()) {
    Axis axis{e.key, {}, {}, {}, yamlx::loc(ctx, e.key_node)};
    if (!e.value.IsSequence() || e.value.size() == 0) {
      ctx.diag.error(yamlx::loc(ctx, e.value), "axis '" + e.key + "' must be a non-empty list, got " + yamlx::describe(e.value));
      continue;
    }
    const bool is_override = is_hardware_override(e.key);
    if (is_override) try {
        (void)hardware::override_segments(override_path(e.key));
      } catch (const Error& err) {
        ctx.diag.error(yamlx::loc(ctx, e.key_node), err.message());
      }
    for (const auto& item : e.value) {
      auto text = axis_value(item, is_override);
      if (!text) {
        ctx.diag.error(yamlx::loc(ctx, item), "axis '" + e.key + "': a value must be a scalar" +
                                                  (is_override ? ", list or map" : "") + ", got " + yamlx::describe(item));
        continue;
      }
      axis.values.push_back(*text);
      axis.where.push_back(yamlx::loc(ctx, item));
      axis.kinds.push_back(kind_of(item));
    }
    sweep.axes.push_back(std::move(axis));
  }
  if (sweep.axes.empty() && axes.ok()) ctx.diag.error(yamlx::loc(ctx, node), "axes: give at least one axis");
}

std::optional<std::size_t> axis_index(const SweepFile& sweep, const std::string& name) {
  for (std::size_t i = 0; i < sweep.axes.size(); ++i)
    if (sweep.axes[i].name == name) return i;
  return std::nullopt;
}

// Zip groups first claim their axes; every other axis is a factor of its own, in file order of
// the first axis of each factor.
void read_factors(const yamlx::Ctx& ctx, const std::optional<YAML::Node>& zip, SweepFile& sweep) {
  std::vector<std::optional<std::size_t>> group_of(sweep.axes.size());
  std::vector<std::vector<std::size_t>> groups;
  if (zip && !yamlx::is_null(*zip)) {
    if (!zip->IsSequence()) ctx.diag.error(yamlx::loc(ctx, *zip), "zip must be a list of axis lists, got " + yamlx::describe(*zip));
    else
      for (const auto& g : *zip) {
        if (!g.IsSequence() || g.size() < 2) {
          ctx.diag.error(yamlx::loc(ctx, g), "a zip group must list at least two axes, got " + yamlx::describe(g));
          continue;
        }
        std::vector<std::size_t> members;
        for (const auto& item : g) {
          const auto name = yamlx::to_text(item).value_or("");
          const auto idx = axis_index(sweep, name);
          if (!idx) ctx.diag.error(yamlx::loc(ctx, item), "zip names '" + name + "', which is not an axis");
          else if (group_of[*idx]) ctx.diag.error(yamlx::loc(ctx, item), "axis '" + name + "' is in two zip groups");
          else if (sweep.axes[*idx].values.size() != sweep.axes[members.empty() ? *idx : members[0]].values.size())
            ctx.diag.error(yamlx::loc(ctx, item), "zipped axes must have equal lengths: '" + name + "' has " +
                                                      std::to_string(sweep.axes[*idx].values.size()) + " values, '" +
                                                      sweep.axes[members[0]].name + "' " +
                                                      std::to_string(sweep.axes[members[0]].values.size()));
          else {
            group_of[*idx] = groups.size();
            members.push_back(*idx);
          }
        }
        groups.push_back(std::move(members));
      }
  }
  std::set<std::size_t> placed;
  for (std::size_t a = 0; a < sweep.axes.size(); ++a) {
    if (!group_of[a]) sweep.factors.push_back({a});
    else if (placed.insert(*group_of[a]).second && !groups[*group_of[a]].empty()) sweep.factors.push_back(groups[*group_of[a]]);
  }
}

void read_budget(const yamlx::Ctx& ctx, const YAML::Node& node, SweepFile& sweep) {
  yamlx::MapReader r(ctx, node, "budget");
  if (!r.ok()) return;
  r.reject_unknown({"max_area_mm2", "max_peak_energy_pj_per_cycle"});
  sweep.budget.max_area_mm2 = r.number("max_area_mm2", false, 0.0);
  sweep.budget.max_peak_energy_pj_per_cycle = r.number("max_peak_energy_pj_per_cycle", false, 0.0);
}

void read_sample(const yamlx::Ctx& ctx, const YAML::Node& node, SweepFile& sweep) {
  yamlx::MapReader r(ctx, node, "sample");
  if (!r.ok()) return;
  r.reject_unknown({"count", "seed"});
  const auto count = r.integer("count", true, 1);
  if (count && static_cast<std::uint64_t>(*count) > kMaxListed) r.error("count", "'count' must be at most 10^8");
  const auto seed = r.integer("seed", false, 0);
  if (count) sweep.sample = Sample{*count, static_cast<std::uint64_t>(seed.value_or(0))};
}

// A uniform integer in [0, n) from the 64-bit engine, the same on every platform (the standard
// distributions are not specified bit for bit).
std::uint64_t below(std::mt19937_64& rng, std::uint64_t n) {
  const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
  for (;;)
    if (const auto v = rng(); v < limit) return v % n;
}

// The numbers Floyd's algorithm has picked: open addressing in a power-of-two table at most two
// thirds full, 8-16 bytes a number where a std::set node took 48, and one probe or two where the
// tree took 24 cache misses (a sample of 10^7 took 105 s and 564 MB). Numbers are below 2^62, so
// ~0 marks an empty slot.
class PickedNumbers {
 public:
  explicit PickedNumbers(std::uint64_t count) {
    std::uint64_t slots = 4;
    for (shift_ = 62; slots < count + count / 2; --shift_) slots <<= 1;
    slots_.assign(slots, kEmpty);
  }
  // False when `v` is there already.
  bool insert(std::uint64_t v) {
    const std::uint64_t mask = slots_.size() - 1;
    for (std::uint64_t i = (v * 0x9E3779B97F4A7C15ULL) >> shift_;; i = (i + 1) & mask) {  // Fibonacci hashing
      if (slots_[i] == v) return false;
      if (slots_[i] == kEmpty) {
        slots_[i] = v;
        return true;
      }
    }
  }
  // Ascending, in the table's own memory.
  std::vector<std::uint64_t> ascending() && {
    std::uint64_t n = 0;
    for (const auto v : slots_)
      if (v != kEmpty) slots_[n++] = v;
    slots_.resize(n);
    std::sort(slots_.begin(), slots_.end());
    slots_.shrink_to_fit();
    return std::move(slots_);
  }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  int shift_ = 62;  ///< 64 - log2(slots): the product's top bits index the table
  std::vector<std::uint64_t> slots_;
};

// Floyd's algorithm: `count` distinct numbers below n, ascending. Each draw picks t, or j when t
// is taken (j is never taken: every earlier pick is below it).
std::vector<std::uint64_t> sample_numbers(std::uint64_t n, const Sample& sample) {
  std::mt19937_64 rng(sample.seed);
  const auto count = static_cast<std::uint64_t>(sample.count);
  PickedNumbers picked(count);
  for (std::uint64_t j = n - count; j < n; ++j)
    if (!picked.insert(below(rng, j + 1))) picked.insert(j);
  return std::move(picked).ascending();
}

bool samples(std::uint64_t product, const std::optional<Sample>& sample) {
  return sample && static_cast<std::uint64_t>(sample->count) < product;
}

std::uint64_t checked_count(std::uint64_t product, const std::optional<Sample>& sample, const std::filesystem::path& file) {
  if (samples(product, sample)) return static_cast<std::uint64_t>(sample->count);
  if (product > kMaxListed)
    throw Error("the sweep has " + std::to_string(product) + " points, more than 10^8; add `sample: {count: N}`",
                Location{.file = file.string()});
  return product;
}

}  // namespace

SweepFile parse_sweep_file(const std::string& text, const std::filesystem::path& path) {
  Diagnostics diag;
  const yamlx::Ctx ctx{path.string(), diag};
  SweepFile sweep;
  sweep.path = path;
  if (auto root = yamlx::parse(text, ctx)) {
    yamlx::MapReader top(ctx, *root, "sweep file");
    if (top.ok()) {
      top.reject_unknown({"axes", "zip", "sample", "budget"});
      if (auto axes = top.node("axes", true)) read_axes(ctx, *axes, sweep);
      read_factors(ctx, top.node("zip", false), sweep);
      if (auto s = top.node("sample", false); s && !yamlx::is_null(*s)) read_sample(ctx, *s, sweep);
      if (auto b = top.node("budget", false); b && !yamlx::is_null(*b)) read_budget(ctx, *b, sweep);
    }
  }
  diag.throw_if_errors("sweep file", path.string());
  (void)product_size(sweep);
  return sweep;
}

SweepFile load_sweep_file(const std::filesystem::path& path) {
  Diagnostics diag;
  const auto text = yamlx::read_text(path, "sweep file", diag);
  diag.throw_if_errors("sweep file", path.string());
  return parse_sweep_file(*text, path);
}

std::uint64_t product_size(const SweepFile& sweep) {
  std::uint64_t n = 1;
  for (const auto& f : sweep.factors) {
    const std::uint64_t k = sweep.axes[f[0]].values.size();
    if (n > kMaxProduct / k)
      throw Error("the sweep has more than 2^62 points; use fewer values or a sample", Location{.file = sweep.path.string()});
    n *= k;
  }
  return n;
}

std::uint64_t point_count(const SweepFile& sweep) { return checked_count(product_size(sweep), sweep.sample, sweep.path); }

Point point_at(const SweepFile& sweep, std::uint64_t index) {
  Point p{static_cast<std::size_t>(index), std::vector<std::size_t>(sweep.axes.size(), 0)};
  for (std::size_t f = sweep.factors.size(); f-- > 0;) {  // the last factor varies fastest
    const auto& axes = sweep.factors[f];
    const std::uint64_t n = sweep.axes[axes[0]].values.size();
    for (auto a : axes) p.value[a] = static_cast<std::size_t>(index % n);
    index /= n;
  }
  return p;
}

PointList::PointList(const SweepFile& sweep) : PointList(product_size(sweep), sweep.sample, sweep.path) {}

PointList::PointList(std::uint64_t product, const std::optional<Sample>& sample, const std::filesystem::path& file)
    : size_(checked_count(product, sample, file)) {
  if (samples(product, sample)) chosen_ = sample_numbers(product, *sample);
}

TypedValue typed_value(const Axis& axis, std::size_t value) {
  const std::string& text = axis.values[value];
  switch (axis.kinds[value]) {
    case ValueKind::Integer:
      if (const auto i = yamlx::parse_int(text)) return *i;
      break;
    case ValueKind::Real:
      if (const auto x = yamlx::to_number(YAML::Node(text))) return *x;
      break;
    case ValueKind::Boolean:
      return text == "true";
    case ValueKind::Text:
    case ValueKind::Structure:
      break;
  }
  return text;
}

std::vector<Point> points(const SweepFile& sweep) {
  const PointList list(sweep);
  std::vector<Point> out;
  out.reserve(list.size());
  for (std::uint64_t k = 0; k < list.size(); ++k) out.push_back(point_at(sweep, list.number(k)));
  return out;
}

}  // namespace stream::sweep
