// Data layouts (ir/layout.hpp): the default is row-major, explicit orders and blocked layouts are
// checked against the shape, and the layout survives the passes that rebuild tensors.
#include <gtest/gtest.h>

#include <stream/error.hpp>
#include <stream/ir/cast.hpp>
#include <stream/ir/layout.hpp>
#include <stream/ir/workload.hpp>
#include <stream/tiling/tiled_group.hpp>

using namespace stream;

namespace {
const Layout kNhwc{{0, 2, 3, 1}, std::nullopt};
const Layout kNchw8c{{0, 1, 2, 3, 1}, AxisBlock{1, 8}};
}  // namespace

TEST(Layout, ATensorIsRowMajorByDefault) {
  const auto t = make_tensor("x", DType::bf16, {1, 8, 4, 4});
  EXPECT_TRUE(t->layout.order.empty());
  EXPECT_TRUE(t->layout.is_row_major(4));
  EXPECT_EQ(t->layout.order_for(4), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(t->layout.str(4), "(0,1,2,3)");
  EXPECT_TRUE(t->layout.same_as(Layout::row_major(4), 4));
  // Rank 0: the empty order.
  EXPECT_EQ(make_tensor("s", DType::f32, {})->layout.str(0), "()");
}

TEST(Layout, ExplicitAndBlockedLayoutsPrintTheirOrder) {
  EXPECT_FALSE(kNhwc.is_row_major(4));
  EXPECT_EQ(kNhwc.str(4), "(0,2,3,1)");
  EXPECT_EQ(kNchw8c.str(4), "(0,1,2,3,1:8)");  // the within-block occurrence carries the size
  EXPECT_FALSE(kNchw8c.is_row_major(4));
  EXPECT_FALSE(kNhwc.same_as(Layout::row_major(4), 4));
  // A blocked layout whose order is row-major is still not row-major.
  EXPECT_FALSE((Layout{{0, 1, 1}, AxisBlock{1, 4}}).same_as(Layout{{0, 1, 1}, AxisBlock{1, 2}}, 2));
  const auto t = make_tensor("x", DType::i8, {1, 16, 4, 4}, kNchw8c);
  EXPECT_EQ(t->layout.block->size, 8);
}

TEST(Layout, LayoutsThatDoNotFitTheShapeAreErrorsNamingTheTensor) {
  auto message = [](const Layout& l, std::vector<std::int64_t> shape) {
    try {
      check_layout(l, shape, "w");
    } catch (const Error& e) {
      return e.message();
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(kNhwc, {1, 8, 4, 4}), "no error");
  EXPECT_EQ(message(Layout{{0, 2, 1}, std::nullopt}, {1, 8, 4, 4}), "tensor 'w': layout (0,2,1) lists axis 3 0 times (expected 1)");
  EXPECT_EQ(message(Layout{{0, 1, 1, 2}, std::nullopt}, {2, 3, 4}),
            "tensor 'w': layout (0,1,1,2) lists axis 1 2 times (expected 1)");
  EXPECT_EQ(message(Layout{{0, 4}, std::nullopt}, {2, 3}), "tensor 'w': layout (0,4) names axis 4 of a rank-2 tensor");
  EXPECT_EQ(message(kNchw8c, {1, 12, 4, 4}),
            "tensor 'w': layout (0,1,2,3,1:8) has block size 8, which does not divide axis 1 (extent 12)");
  // The blocked axis listed once is an error too.
  EXPECT_EQ(message(Layout{{0, 1, 2, 3}, AxisBlock{1, 8}}, {1, 16, 4, 4}),
            "tensor 'w': layout (0,1,2,3) lists axis 1 1 times (expected 2)");
  EXPECT_THROW((void)make_tensor("w", DType::i8, {1, 12, 4, 4}, kNchw8c), Error);
}

TEST(Layout, CastingAndTilingKeepATensorsLayout) {
  auto x = make_tensor("X", DType::f32, {8, 4}, Layout{{1, 0}, std::nullopt});
  auto y = make_tensor("Y", DType::f32, {8, 4});
  const Workload w({make_in_edge("X", x),
                    make_computation("relu", "Relu", {x}, {y}, {AffineMap::identity(2), AffineMap::identity(2)}),
                    make_out_edge("Y_out", y)});
  const auto cast = cast_floating_point(w, DType::bf16).workload;
  const auto& cx = *cast.node(cast.index_of("relu")).inputs[0];
  EXPECT_EQ(cx.dtype, DType::bf16);
  EXPECT_EQ(cx.layout.str(2), "(1,0)");

  mapping::GroupMapping m;
  m.nodes.resize(w.size());
  m.nodes[1] = {{0}, {}};
  m.intra_core_tiling = {{"relu", 0, 2}};  // 4 iterations of 2 rows
  const auto tiled = tiling::tile(w, m);
  const auto& tx = *tiled.workload.node(1).inputs[0];
  EXPECT_EQ(tx.shape, (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(tx.layout.str(2), "(1,0)");
  EXPECT_TRUE(tiled.workload.node(1).outputs[0]->layout.is_row_major(2));
}
