// The shared concatenation layout (stream/ir/concat_layout.hpp) both frontends lower Concat and
// cat through. Input i is read at d_axis - offset_i, offset_i the sum of the earlier extents.
#include <gtest/gtest.h>

#include <stream/error.hpp>
#include <stream/ir/concat_layout.hpp>

#include "thrown_error.hpp"

using namespace stream;
using stream::test::mentions;

namespace {

AffineExpr d(int i) { return AffineExpr::dim(i); }
TensorPtr t(const std::string& name, std::vector<std::int64_t> shape) { return make_tensor(name, DType::bf16, std::move(shape)); }

Error layout_error(const std::vector<TensorPtr>& ins, const TensorPtr& out, int axis) {
  return test::thrown_error([&] { (void)concat_layout(ins, *out, axis); });
}

}  // namespace

TEST(ConcatLayout, EachInputIsReadShiftedByTheExtentsBeforeIt) {
  // [2,3] ++ [2,4] ++ [2,1] along axis 1 -> [2,8]: offsets 0, 3, 7.
  const auto l = concat_layout({t("A", {2, 3}), t("B", {2, 4}), t("C", {2, 1})}, *t("Y", {2, 8}), 1);
  ASSERT_EQ(l.maps.size(), 4U);
  EXPECT_EQ(l.maps[0], AffineMap(2, {d(0), d(1)})) << l.maps[0].str();
  EXPECT_EQ(l.maps[1], AffineMap(2, {d(0), d(1) - 3})) << l.maps[1].str();
  EXPECT_EQ(l.maps[2], AffineMap(2, {d(0), d(1) - 7})) << l.maps[2].str();
  EXPECT_EQ(l.maps[3], AffineMap::identity(2));
  // Output point (1, 5) lies in B's part: B[1, 5 - 3] = B[1, 2].
  EXPECT_EQ(l.maps[1].eval(std::vector<std::int64_t>{1, 5}), (std::vector<std::int64_t>{1, 2}));
  // Inputs are masked reads of their own part; the output's relation is derived.
  ASSERT_EQ(l.access_overrides.size(), 4U);
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(l.access_overrides[i].has_value());
    EXPECT_EQ(l.access_overrides[i]->kind, AccessKind::PiecewiseAffine);
    EXPECT_EQ(l.access_overrides[i]->pieces, std::vector<AffineMap>{l.maps[i]});
  }
  EXPECT_FALSE(l.access_overrides[3].has_value());
}

TEST(ConcatLayout, ExtentsThatDoNotAddUpAreAnError) {
  // 3 + 4 = 7, not 8.
  const auto e = layout_error({t("A", {2, 3}), t("B", {2, 4})}, t("Y", {2, 8}), 1);
  EXPECT_EQ(e.where().operand, "Y");
  EXPECT_TRUE(mentions(e, "add up to 7")) << e.message();
}

TEST(ConcatLayout, AnInputOffTheOutputShapeAwayFromTheAxisIsAnError) {
  // B has 5 rows where the output has 2: the maps alone would take it as a sub-range read.
  const auto e = layout_error({t("A", {2, 3}), t("B", {5, 5})}, t("Y", {2, 8}), 1);
  EXPECT_EQ(e.where().operand, "B");
  EXPECT_TRUE(mentions(e, "axis 0 has extent 5 but the output's has 2")) << e.message();
}

TEST(ConcatLayout, RankAxisAndEmptyInputsAreErrors) {
  EXPECT_EQ(layout_error({t("A", {2, 3}), t("B", {10})}, t("Y", {2, 8}), 1).where().operand, "B");
  EXPECT_TRUE(mentions(layout_error({t("A", {2, 8})}, t("Y", {2, 8}), 2), "out of range"));
  EXPECT_TRUE(mentions(layout_error({}, t("Y", {2, 8}), 0), "at least one input"));
}

TEST(ConcatLayout, NodeCarriesTheMapsAndMaskedReads) {
  const auto n = concat_node("cat", {t("A", {1, 2}), t("B", {3, 2})}, t("Y", {4, 2}), 0);
  EXPECT_EQ(n.type, "Concat");
  ASSERT_EQ(n.operand_mapping.size(), 3U);
  EXPECT_EQ(n.operand_mapping[1], AffineMap(2, {d(0) - 1, d(1)})) << n.operand_mapping[1].str();
  EXPECT_EQ(n.access_overrides.size(), 3U);
}
