// Deployment casting (ir/cast.hpp): floating-point tensors change type, integer ones do not, and
// the graph keeps its shape and its sharing of tensors.
#include <gtest/gtest.h>

#include <stream/ir/cast.hpp>

using namespace stream;

namespace {
AffineExpr d(int i) { return AffineExpr::dim(i); }

// X (f32) and W (f16) -> Gemm -> Y (f32) -> Add with an i32 bias-like tensor -> Z (f32).
Workload mixed() {
  auto x = make_tensor("X", DType::f32, {2, 4}), w = make_tensor("W", DType::f16, {4, 3});
  auto y = make_tensor("Y", DType::f32, {2, 3}), b = make_tensor("B", DType::i32, {2, 3});
  auto z = make_tensor("Z", DType::f32, {2, 3});
  auto gemm = make_computation("gemm", "Gemm", {x, w}, {y},
                               {AffineMap(3, {d(0), d(1)}), AffineMap(3, {d(1), d(2)}), AffineMap(3, {d(0), d(2)})});
  auto add = make_computation("add", "Add", {y, b}, {z},
                              {AffineMap::identity(2), AffineMap::identity(2), AffineMap::identity(2)});
  return Workload({make_in_edge("X", x), make_in_edge("W", w), make_in_edge("B", b), gemm, add, make_out_edge("Z_out", z)});
}
}  // namespace

TEST(Cast, FloatingPointTensorsTakeTheTargetTypeIntegersKeepTheirs) {
  const auto r = cast_floating_point(mixed(), DType::bf16);
  // X, W, Y, Z are floating point (f32 or f16): four tensors change; B (i32) does not.
  EXPECT_EQ(r.retyped, 4u);
  for (const auto& t : r.workload.tensors()) {
    const DType expected = t->name == "B" ? DType::i32 : DType::bf16;
    EXPECT_EQ(t->dtype, expected) << t->name;
  }
  const auto& gemm = r.workload.node(r.workload.index_of("gemm"));
  EXPECT_EQ(gemm.inputs[1]->shape, (std::vector<std::int64_t>{4, 3}));
  EXPECT_EQ(gemm.operand_mapping[1].str(), mixed().node(3).operand_mapping[1].str());
}

TEST(Cast, ATensorSharedByTwoNodesStaysOneTensor) {
  const auto r = cast_floating_point(mixed(), DType::i8);
  const auto& w = r.workload;
  // Y is written by the Gemm and read by the Add: both must hold the same (new) object.
  EXPECT_EQ(w.node(w.index_of("gemm")).outputs[0].get(), w.node(w.index_of("add")).inputs[0].get());
  EXPECT_EQ(w.node(w.index_of("add")).inputs[0]->dtype, DType::i8);
  EXPECT_EQ(w.tensors().size(), mixed().tensors().size());
}

TEST(Cast, CastingToATypeTheTensorsAlreadyHaveChangesOnlyTheOthers) {
  // To f16: W already is f16; X, Y, Z change.
  EXPECT_EQ(cast_floating_point(mixed(), DType::f16).retyped, 3u);
}

TEST(Cast, ATensorFoldingSplitKeepsTheModelsShape) {
  // A graph input whose axes layout folding split ([8] read as [2, 4]) stays [8] to the user.
  auto split = std::make_shared<Tensor>(*make_tensor("X", DType::f32, {2, 4}));
  split->declared_shape = {8};
  auto y = make_tensor("Y", DType::f32, {2, 4});
  auto relu = make_computation("relu", "Relu", {split}, {y}, {AffineMap::identity(2), AffineMap::identity(2)});
  const auto r = cast_floating_point(Workload({make_in_edge("X", split), relu, make_out_edge("Y_out", y)}), DType::bf16);
  const auto& x = *r.workload.node(r.workload.index_of("relu")).inputs[0];
  EXPECT_EQ(x.dtype, DType::bf16);
  EXPECT_EQ(x.shape, (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(x.model_shape(), (std::vector<std::int64_t>{8}));
}
