// Sweep files: the points they stand for (product order, zip groups, seeded samples), the Pareto
// front against a brute-force check, and errors with their line.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <tuple>

#include <stream/sweep/pareto.hpp>
#include <stream/sweep/sweep_file.hpp>

using namespace stream::sweep;

namespace {

std::vector<std::vector<std::size_t>> values(const std::vector<Point>& ps) {
  std::vector<std::vector<std::size_t>> out;
  for (const auto& p : ps) out.push_back(p.value);
  return out;
}

void expect_error(const std::string& text, const std::string& what, int line) {
  try {
    (void)parse_sweep_file(text, "s.yaml");
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const stream::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(what), std::string::npos) << m;
    EXPECT_NE(m.find("s.yaml:" + std::to_string(line) + ":"), std::string::npos) << m;
  }
}

}  // namespace

TEST(SweepFile, ProductOrderFirstAxisSlowest) {
  const auto s = parse_sweep_file("axes:\n  hardware: [a, b]\n  workload: [x, y, z]\n", "s.yaml");
  ASSERT_EQ(s.axes.size(), 2u);
  EXPECT_EQ(product_size(s), 6u);
  EXPECT_EQ(values(points(s)), (std::vector<std::vector<std::size_t>>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
}

TEST(SweepFile, ZippedAxesAdvanceTogether) {
  const auto s = parse_sweep_file(
      "axes:\n  hardware: [a, b]\n  cast: [none, bf16, f16]\n  mapping: [m1, m2]\nzip:\n  - [hardware, mapping]\n",
      "s.yaml");
  EXPECT_EQ(product_size(s), 6u);  // (a,m1),(b,m2) x 3 casts
  const auto ps = points(s);
  EXPECT_EQ(ps[0].value, (std::vector<std::size_t>{0, 0, 0}));
  EXPECT_EQ(ps[1].value, (std::vector<std::size_t>{0, 1, 0}));
  EXPECT_EQ(ps[3].value, (std::vector<std::size_t>{1, 0, 1}));
  for (const auto& p : ps) EXPECT_EQ(p.value[0], p.value[2]);
}

TEST(SweepFile, SampleIsSeededDistinctAndInProductOrder) {
  const std::string grid = "axes:\n  a: [0,1,2,3,4,5,6,7,8,9]\n  b: [0,1,2,3,4,5,6,7,8,9]\n  c: [0,1,2,3,4,5,6,7,8,9]\n";
  const auto s1 = parse_sweep_file(grid + "sample: {count: 25, seed: 7}\n", "s.yaml");
  const auto p1 = points(s1);
  ASSERT_EQ(p1.size(), 25u);
  std::set<std::size_t> seen;
  for (std::size_t k = 0; k < p1.size(); ++k) {
    EXPECT_TRUE(seen.insert(p1[k].index).second);
    if (k) {
      EXPECT_LT(p1[k - 1].index, p1[k].index);
    }
    // The index decodes to its values: a x 100 + b x 10 + c.
    EXPECT_EQ(p1[k].index, p1[k].value[0] * 100 + p1[k].value[1] * 10 + p1[k].value[2]);
  }
  EXPECT_EQ(values(points(parse_sweep_file(grid + "sample: {count: 25, seed: 7}\n", "s.yaml"))), values(p1));
  EXPECT_NE(values(points(parse_sweep_file(grid + "sample: {count: 25, seed: 8}\n", "s.yaml"))), values(p1));
  EXPECT_EQ(points(parse_sweep_file(grid + "sample: {count: 5000, seed: 1}\n", "s.yaml")).size(), 1000u);
}

TEST(SweepFile, ErrorsNameTheLine) {
  expect_error("axes:\n  hardware: []\n", "axis 'hardware' must be a non-empty list", 2);
  expect_error("axes:\n  hardware: [a]\nsweep: 1\n", "unknown key 'sweep'", 3);
  expect_error("axes:\n  a: [1, 2]\n  b: [1]\nzip:\n  - [a, b]\n", "zipped axes must have equal lengths", 5);
  expect_error("axes:\n  a: [1, 2]\nzip:\n  - [a, nope]\n", "zip names 'nope', which is not an axis", 4);
  expect_error("axes:\n  a: [1, 2]\nsample: {count: 0}\n", "'count' must be >= 1", 3);
  expect_error("axes:\n  a: [[1], 2]\n", "a value must be a scalar", 2);
  expect_error("axes: [\n", "YAML syntax error", 2);
}

TEST(SweepFile, AHugeProductNeedsASample) {
  std::string text = "axes:\n";
  for (int a = 0; a < 9; ++a) text += "  p" + std::to_string(a) + ": [0,1,2,3,4,5,6,7,8,9]\n";  // 10^9 points
  EXPECT_THROW((void)points(parse_sweep_file(text, "s.yaml")), stream::Error);
  EXPECT_EQ(points(parse_sweep_file(text + "sample: {count: 3, seed: 1}\n", "s.yaml")).size(), 3u);
}

// A sweep too big to list is counted and its points made from their numbers: 10^8 points (the
// most without a sample) hold nothing per point, and point 12,345,678 of eight 10-value axes has
// the value indices 1, 2, ..., 8 (its decimal digits, the last axis fastest).
TEST(SweepFile, PointsAreCountedAndMadeFromTheirNumbers) {
  std::string text = "axes:\n";
  for (int a = 0; a < 8; ++a) text += "  p" + std::to_string(a) + ": [0,1,2,3,4,5,6,7,8,9]\n";
  const auto s = parse_sweep_file(text, "s.yaml");
  EXPECT_EQ(point_count(s), 100'000'000u);
  const PointList list(s);
  ASSERT_EQ(list.size(), 100'000'000u);
  EXPECT_EQ(list.number(99'999'999), 99'999'999u);
  const auto p = point_at(s, 12'345'678);
  EXPECT_EQ(p.index, 12'345'678u);
  EXPECT_EQ(p.value, (std::vector<std::size_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  try {
    (void)point_count(parse_sweep_file(text + "  p8: [0, 1]\n", "s.yaml"));
    ADD_FAILURE() << "2 x 10^8 points counted";
  } catch (const stream::Error& e) {
    EXPECT_NE(std::string(e.what()).find("the sweep has 200000000 points, more than 10^8"), std::string::npos) << e.what();
  }
  // A sample's list is its points' numbers, as points() gives them, from the product and sample alone.
  const auto sampled = parse_sweep_file(text + "sample: {count: 25, seed: 7}\n", "s.yaml");
  const PointList numbers(product_size(sampled), sampled.sample);
  const auto ps = points(sampled);
  ASSERT_EQ(numbers.size(), ps.size());
  for (std::size_t k = 0; k < ps.size(); ++k) EXPECT_EQ(numbers.number(k), ps[k].index);
}

// The sample's numbers are those of Floyd's algorithm as written with a std::set (the reference
// here; the sweep keeps them in a hash table of its own), for small and large fractions of the
// product: the same seed gives the same points as before, on every machine.
TEST(SweepFile, SampleNumbersAreFloydsAlgorithms) {
  const auto floyd = [](std::uint64_t n, std::uint64_t count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::set<std::uint64_t> picked;
    for (std::uint64_t j = n - count; j < n; ++j) {
      const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % (j + 1));
      std::uint64_t v;
      do v = rng(); while (v >= limit);
      const std::uint64_t t = v % (j + 1);
      picked.insert(picked.count(t) ? j : t);
    }
    return std::vector<std::uint64_t>(picked.begin(), picked.end());
  };
  for (const auto& [n, count, seed] : std::vector<std::tuple<std::uint64_t, std::int64_t, std::uint64_t>>{
           {1000, 25, 7}, {1000, 999, 1}, {100000, 50000, 3}, {std::uint64_t{1} << 62, 1000, 42}}) {
    const PointList list(n, Sample{count, seed});
    const auto expected = floyd(n, static_cast<std::uint64_t>(count), seed);
    ASSERT_EQ(list.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) ASSERT_EQ(list.number(k), expected[k]) << n << " " << count << " " << k;
  }
}

TEST(Pareto, EqualsABruteForceCheck) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::vector<double>> pts(1 + rng() % 60);
    for (auto& p : pts) p = {double(rng() % 8), double(rng() % 8), double(rng() % 8)};  // many ties
    std::vector<std::size_t> brute;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      bool dominated = false;
      for (std::size_t j = 0; j < pts.size() && !dominated; ++j)
        dominated = pts[j][0] <= pts[i][0] && pts[j][1] <= pts[i][1] && pts[j][2] <= pts[i][2] && pts[j] != pts[i];
      if (!dominated) brute.push_back(i);
    }
    EXPECT_EQ(pareto_front(pts), brute) << "trial " << trial;
  }
}

TEST(SweepFile, HardwareOverrideAxesTakeListsAsFlowYaml) {
  const auto s = parse_sweep_file(
      "axes:\n  hardware/cores/tpu_like/operational_array/sizes:\n    - [16, 16]\n    - [32, 32]\n"
      "  hardware/core_connectivity/*/bandwidth: [16, 64]\n",
      "s.yaml");
  ASSERT_EQ(s.axes.size(), 2u);
  EXPECT_TRUE(is_hardware_override(s.axes[0].name));
  EXPECT_EQ(override_path(s.axes[0].name), "cores/tpu_like/operational_array/sizes");
  EXPECT_EQ(s.axes[0].values, (std::vector<std::string>{"[16, 16]", "[32, 32]"}));
  EXPECT_EQ(s.axes[1].values, (std::vector<std::string>{"16", "64"}));
  // Only an override's values may be lists; a path needs every segment.
  expect_error("axes:\n  hardware: [[a, b]]\n", "a value must be a scalar, got", 2);
  expect_error("axes:\n  hardware: [a]\n  hardware/cores//size: [1]\n", "empty segment", 3);
}

// Values keep what the file wrote, for the results: `2` is a number there, `"2"` text.
TEST(SweepFile, ValuesKeepTheirYamlType) {
  const auto s = parse_sweep_file(
      "axes:\n  seq: [2, \"2\", 0.5, 1e3, true, \"false\", abc, .inf]\n  hardware/array/core/operational_array/sizes: [[8, 8]]\n",
      "s.yaml");
  ASSERT_EQ(s.axes.size(), 2u);
  const auto& a = s.axes[0];
  EXPECT_EQ(a.kinds, (std::vector<ValueKind>{ValueKind::Integer, ValueKind::Text, ValueKind::Real, ValueKind::Real,
                                             ValueKind::Boolean, ValueKind::Text, ValueKind::Text, ValueKind::Text}));
  EXPECT_EQ(typed_value(a, 0), TypedValue(std::int64_t{2}));
  EXPECT_EQ(typed_value(a, 1), TypedValue(std::string("2")));
  EXPECT_EQ(typed_value(a, 2), TypedValue(0.5));
  EXPECT_EQ(typed_value(a, 3), TypedValue(1000.0));
  EXPECT_EQ(typed_value(a, 4), TypedValue(true));
  EXPECT_EQ(typed_value(a, 5), TypedValue(std::string("false")));
  EXPECT_EQ(typed_value(a, 7), TypedValue(std::string(".inf")));  // JSON has no infinity: kept as text
  EXPECT_EQ(s.axes[1].kinds, std::vector<ValueKind>{ValueKind::Structure});
  EXPECT_EQ(typed_value(s.axes[1], 0), TypedValue(std::string("[8, 8]")));
  // The axis name's place, for errors about the axis as a whole (a path that reaches nothing).
  EXPECT_EQ(s.axes[1].key_where.line, 3);
  EXPECT_EQ(s.axes[1].key_where.column, 3);
}
