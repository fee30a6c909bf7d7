// Shapes computed at run time: models whose Reshape targets, Expand shapes, Pad pads and Slice ends
// come from Shape -> Gather -> ... arithmetic chains, spelled as PyTorch's exporter spells them,
// get static shapes, and the parsers receive the computed values.
#include <chrono>

#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// Shape(x)[axis] as a one-element vector, the way the exporter spells `x.shape[axis]` used in a
// shape list: Shape, Gather with a scalar index, Unsqueeze (axes as an input from opset 13).
std::string dim_of(ModelBuilder& m, const std::string& x, std::int64_t axis, const std::string& tag) {
  m.node("Shape", {x}, {tag + "_shape"}, tag + "_Shape");
  m.int_initializer(tag + "_axis", {axis}, /*as_1d=*/false);
  m.node("Gather", {tag + "_shape", tag + "_axis"}, {tag + "_dim"}, tag + "_Gather").attr("axis", 0);
  return tag + "_dim";
}

std::string unsqueezed(ModelBuilder& m, const std::string& scalar) {
  m.int_initializer(scalar + "_uaxes", {0});
  m.node("Unsqueeze", {scalar, scalar + "_uaxes"}, {scalar + "_u"}, scalar + "_Unsqueeze");
  return scalar + "_u";
}

// One PyTorch-style self-attention layer on x [B, N, C] with `heads` heads:
//   q = x W;  q.reshape(B, N, heads, C // heads).permute(0, 2, 1, 3);  softmax(q q^T) q;
//   back to (B, N, C). B, N, C come from Shape(x), C // heads from a Div (no ONNX data propagation).
std::string attention_layer(ModelBuilder& m, const std::string& x, std::int64_t channels, std::int64_t heads,
                            const std::string& p) {
  m.initializer(p + "W", F32, {channels, channels});
  m.node("MatMul", {x, p + "W"}, {p + "q"}, p + "proj");
  const auto b = dim_of(m, x, 0, p + "b"), n = dim_of(m, x, 1, p + "n"), c = dim_of(m, x, 2, p + "c");
  m.int_initializer(p + "heads", {heads}, false);
  m.node("Div", {c, p + "heads"}, {p + "hd"}, p + "Div");
  m.node("Cast", {p + "hd"}, {p + "hd_i"}, p + "Cast").attr("to", static_cast<std::int64_t>(I64));
  m.int_initializer(p + "heads_1d", {heads});
  m.node("Concat", {unsqueezed(m, b), unsqueezed(m, n), p + "heads_1d", unsqueezed(m, p + "hd_i")}, {p + "split"},
         p + "Concat").attr("axis", 0);
  m.node("Reshape", {p + "q", p + "split"}, {p + "qr"}, p + "Reshape");
  m.node("Transpose", {p + "qr"}, {p + "qt"}, p + "qT").attr("perm", Shape{0, 2, 1, 3});
  m.node("Transpose", {p + "qr"}, {p + "kt"}, p + "kT").attr("perm", Shape{0, 2, 3, 1});
  m.node("MatMul", {p + "qt", p + "kt"}, {p + "s"}, p + "scores");
  m.node("Softmax", {p + "s"}, {p + "a"}, p + "softmax").attr("axis", -1);
  m.node("MatMul", {p + "a", p + "qt"}, {p + "o"}, p + "context");
  m.node("Transpose", {p + "o"}, {p + "ot"}, p + "oT").attr("perm", Shape{0, 2, 1, 3});
  m.node("Concat", {b + "_u", n + "_u", unsqueezed(m, c)}, {p + "merge"}, p + "Concat2").attr("axis", 0);
  m.node("Reshape", {p + "ot", p + "merge"}, {p + "y"}, p + "Reshape2");
  return p + "y";
}

TEST(RuntimeShapes, PytorchAttentionHeadSplitFromShapeAndDiv) {
  ModelBuilder m("attention", 13);
  m.input("x", F32, {2, 6, 32});
  const auto y = attention_layer(m, "x", 32, 4, "");
  m.output(y, F32);
  auto w = parse(m);
  // B=2, N=6, C=32, 4 heads of 32/4 = 8. scores: dims (b, h, m, n, k) = (2, 4, 6, 6, 8). Both
  // Transposes fold into the reads of the head-split qr [2, 6, 4, 8]: qt[b,h,m,k] = qr[b, m, h, k]
  // and kt[b,h,k,n] = qr[b, n, h, k].
  const auto& scores = node(w, "scores");
  EXPECT_EQ(sizes(scores), (std::vector<std::int64_t>{2, 4, 6, 6, 8}));
  EXPECT_EQ(scores.inputs[0]->name, "qr");
  EXPECT_EQ(scores.inputs[0]->shape, (std::vector<std::int64_t>{2, 6, 4, 8}));
  EXPECT_EQ(map_of(scores, 0), "(d0, d2, d1, d4)");
  EXPECT_EQ(map_of(scores, 1), "(d0, d3, d1, d4)");
  // context = a @ qt: dims (b, h, m, n=k'=8, k=6).
  EXPECT_EQ(sizes(node(w, "context")), (std::vector<std::int64_t>{2, 4, 6, 8, 6}));
  EXPECT_EQ(node(w, "context").outputs[0]->shape, (std::vector<std::int64_t>{2, 4, 6, 8}));
  // context reads qt[b,h,n',k'] = qr[b, k', h, n'] with dims (b, h, m, n, k): (d0, d4, d1, d3).
  EXPECT_EQ(map_of(node(w, "context"), 1), "(d0, d4, d1, d3)");
  EXPECT_EQ(sizes(node(w, "proj")), (std::vector<std::int64_t>{2, 6, 32, 32}));
  EXPECT_EQ(count_kind(w, NodeKind::Computation), 3u);  // proj, scores, context
  EXPECT_EQ(count_kind(w, NodeKind::Normalization), 1u);  // softmax
}

TEST(RuntimeShapes, SymbolicBatchStillAsksForDim) {
  ModelBuilder m("attention", 13);
  auto* in = m.model().mutable_graph()->add_input();
  in->set_name("x");
  auto* tt = in->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(F32);
  tt->mutable_shape()->add_dim()->set_dim_param("batch");
  tt->mutable_shape()->add_dim()->set_dim_value(6);
  tt->mutable_shape()->add_dim()->set_dim_value(32);
  m.output(attention_layer(m, "x", 32, 4, ""), F32);
  expect_error([&] { (void)parse(m); }, {".onnx", "'x'", "batch", "--dim batch=N"});
  FrontendOptions opts;
  opts.values["batch"] = "3";
  auto w = parse(m, opts);
  EXPECT_EQ(sizes(node(w, "scores")), (std::vector<std::int64_t>{3, 4, 6, 6, 8}));
  opts.values["batch"] = "3x";
  expect_error([&] { (void)parse(m, opts); }, {".onnx", "batch=3x", "not a positive integer"});
}

TEST(RuntimeShapes, StackedAttentionLayersAllGetStaticShapes) {
  // Each layer's head split reads Shape() of the previous layer's output, so the layers resolve one
  // shape-inference round after another: 24 layers need 24 rounds (well under the cap).
  ModelBuilder m("stack", 13);
  m.input("x", F32, {1, 16, 64});
  std::string x = "x";
  constexpr int kLayers = 24;
  for (int l = 0; l < kLayers; ++l) x = attention_layer(m, x, 64, 8, "l" + std::to_string(l) + "_");
  m.output(x, F32);
  const auto start = std::chrono::steady_clock::now();
  auto w = parse(m);
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(count_kind(w, NodeKind::Computation), 3u * kLayers);
  // 8 heads of 64/8 = 8: scores dims (1, 8, 16, 16, 8) in every layer.
  EXPECT_EQ(sizes(node(w, "l23_scores")), (std::vector<std::int64_t>{1, 8, 16, 16, 8}));
  EXPECT_LT(seconds, 30.0);  // a generous bound against a super-linear blow-up, not a benchmark
}

TEST(RuntimeShapes, VitClassTokenExpandFromShapeWithMinusOnes) {
  // cls.expand(x.shape[0], -1, -1) exports as Expand(cls, Where(Equal(s, -1 * ones), ones, s))
  // with s = Concat(Shape(x)[0:1], [-1], [-1]): the -1s become 1s, which broadcast.
  ModelBuilder m("vit", 13);
  m.input("x", F32, {2, 5, 16}).initializer("cls", F32, {1, 1, 16});
  const auto b = unsqueezed(m, dim_of(m, "x", 0, "b"));
  m.int_initializer("minus_ones", {-1, -1});
  m.node("Concat", {b, "minus_ones"}, {"s"}, "cat_shape").attr("axis", 0);
  m.node("Shape", {"s"}, {"s_len"}, "s_len");
  auto ones = m.node("ConstantOfShape", {"s_len"}, {"ones"}, "ones");
  auto* value = ones.proto().add_attribute();
  value->set_name("value");
  value->set_type(onnx::AttributeProto_AttributeType_TENSOR);
  value->mutable_t()->set_data_type(I64);
  value->mutable_t()->add_dims(1);
  value->mutable_t()->add_int64_data(1);
  m.int_initializer("minus_one", {-1}, false);
  m.node("Mul", {"ones", "minus_one"}, {"neg"}, "neg");
  m.node("Equal", {"s", "neg"}, {"is_free"}, "is_free");
  m.node("Where", {"is_free", "ones", "s"}, {"target"}, "target");
  m.node("Expand", {"cls", "target"}, {"cls_e"}, "expand_cls");
  m.node("Concat", {"cls_e", "x"}, {"tokens"}, "tokens").attr("axis", 1);
  m.output("tokens", F32);
  auto w = parse(m);
  // target = Where([F, T, T], [1, 1, 1], [2, -1, -1]) = [2, 1, 1]; Expand([1,1,16], [2,1,1]) = [2,1,16].
  // The Expand reads only the weight: it is evaluated at load time, and Concat reads its result.
  const auto& t = node(w, "tokens");
  EXPECT_EQ(t.inputs[0]->name, "cls_e");
  EXPECT_EQ(t.inputs[0]->shape, (std::vector<std::int64_t>{2, 1, 16}));
  EXPECT_EQ(w.computation_nodes().size(), 1u);  // the Concat
  EXPECT_EQ(t.outputs[0]->shape, (std::vector<std::int64_t>{2, 6, 16}));
  EXPECT_EQ(map_of(t, 1), "(d0, (d1 + -1), d2)");
}

// (window - d % window) % window for d = Shape(x)[axis], as one-element vectors.
std::string window_pad(ModelBuilder& m, const std::string& x, std::int64_t axis, const std::string& tag) {
  const auto d = dim_of(m, x, axis, tag);
  m.int_initializer(tag + "_w", {4}, false);
  m.node("Mod", {d, tag + "_w"}, {tag + "_mod"}, tag + "_Mod");
  m.node("Sub", {tag + "_w", tag + "_mod"}, {tag + "_sub"}, tag + "_Sub");
  m.node("Mod", {tag + "_sub", tag + "_w"}, {tag + "_pad"}, tag + "_Mod2");
  return unsqueezed(m, tag + "_pad");
}

TEST(RuntimeShapes, SwinWindowPadAndPartitionFromShapeArithmetic) {
  // F.pad(x, (0, 0, 0, pad_w, 0, pad_h)) on x [B, H, W, C] = [1, 7, 6, 8] with window 4, as the
  // exporter writes it: torch's last-axis-first pairs, extended with zeros, reshaped to [-1, 2],
  // reversed by a Slice with step -1, transposed and flattened into ONNX's begins-then-ends.
  ModelBuilder m("swin", 13);
  m.input("x", F32, {1, 7, 6, 8});
  const auto ph = window_pad(m, "x", 1, "h"), pw = window_pad(m, "x", 2, "w");
  m.int_initializer("zero", {0});
  m.int_initializer("zeros2", {0, 0});
  m.node("Concat", {"zeros2", "zero", pw, "zero", ph}, {"torch_pads"}, "torch_pads").attr("axis", 0);
  m.int_initializer("two", {2});
  auto fill = m.node("ConstantOfShape", {"two"}, {"batch_pads"}, "batch_pads");
  auto* value = fill.proto().add_attribute();
  value->set_name("value");
  value->set_type(onnx::AttributeProto_AttributeType_TENSOR);
  value->mutable_t()->set_data_type(I64);
  value->mutable_t()->add_dims(1);
  value->mutable_t()->add_int64_data(0);
  m.node("Concat", {"torch_pads", "batch_pads"}, {"all_pads"}, "all_pads").attr("axis", 0);
  m.int_initializer("pairs", {-1, 2});
  m.node("Reshape", {"all_pads", "pairs"}, {"paired"}, "paired");
  m.int_initializer("rs", {-1}).int_initializer("re", {-9223372036854775807LL}).int_initializer("ra", {0});
  m.node("Slice", {"paired", "rs", "re", "ra", "rs"}, {"reversed"}, "reversed");
  m.node("Transpose", {"reversed"}, {"by_side"}, "by_side").attr("perm", Shape{1, 0});
  m.int_initializer("flat", {-1});
  m.node("Reshape", {"by_side", "flat"}, {"pads"}, "pads");
  m.node("Pad", {"x", "pads"}, {"xp"}, "window_pad");
  // Window partition from the padded shape: [B, H/4, 4, W/4, 4, C] -> windows [-1, 4, 4, C].
  const auto b = unsqueezed(m, dim_of(m, "xp", 0, "pb"));
  const auto hp = dim_of(m, "xp", 1, "ph"), wp = dim_of(m, "xp", 2, "pw");
  m.int_initializer("win", {4}, false).int_initializer("win_1d", {4});
  m.node("Div", {hp, "win"}, {"nh"}, "nh");
  m.node("Div", {wp, "win"}, {"nw"}, "nw");
  const auto c = unsqueezed(m, dim_of(m, "xp", 3, "pc"));
  m.node("Concat", {b, unsqueezed(m, "nh"), "win_1d", unsqueezed(m, "nw"), "win_1d", c}, {"grid"}, "grid").attr("axis", 0);
  m.node("Reshape", {"xp", "grid"}, {"xg"}, "to_grid");
  m.node("Transpose", {"xg"}, {"xw"}, "to_windows").attr("perm", Shape{0, 1, 3, 2, 4, 5});
  m.int_initializer("windows", {-1, 4, 4, 8});
  m.node("Reshape", {"xw", "windows"}, {"win_x"}, "windows");
  m.initializer("Wqkv", F32, {8, 24});
  m.node("MatMul", {"win_x", "Wqkv"}, {"qkv"}, "qkv");
  m.output("qkv", F32);
  auto w = parse(m);
  // pad_h = (4 - 7 % 4) % 4 = 1, pad_w = (4 - 6 % 4) % 4 = 2; torch pairs (C:0,0)(W:0,2)(H:0,1)(B:0,0)
  // reversed to B, H, W, C and split into begins [0,0,0,0] and ends [0,1,2,0]: [1, 8, 8, 8].
  const auto& pad = node(w, "window_pad");
  EXPECT_EQ(pad.outputs[0]->shape, (std::vector<std::int64_t>{1, 8, 8, 8}));
  EXPECT_EQ(map_of(pad, 0), "(d0, d1, d2, d3)");
  // 8/4 * 8/4 = 4 windows of 4 x 4 tokens. The window merge [1, 2, 2] -> 4 folds by splitting
  // qkv's window loop: dims (nh=2, nw=2, r=4, c=4, n=24, k=8).
  EXPECT_EQ(sizes(node(w, "qkv")), (std::vector<std::int64_t>{2, 2, 4, 4, 24, 8}));
}

TEST(RuntimeShapes, SliceEndsAndStartsFromShape) {
  // z = x[:, x.shape[1] - y.shape[1] : x.shape[1]] + y: the last 6 of 10 positions.
  ModelBuilder m("slice", 13);
  m.input("x", F32, {2, 10, 16}).input("y", F32, {2, 6, 16});
  const auto nx = unsqueezed(m, dim_of(m, "x", 1, "nx")), ny = unsqueezed(m, dim_of(m, "y", 1, "ny"));
  m.node("Sub", {nx, ny}, {"start"}, "start");
  m.int_initializer("axis1", {1});
  m.node("Slice", {"x", "start", nx, "axis1"}, {"tail"}, "tail");
  m.node("Add", {"tail", "y"}, {"z"}, "add");
  m.output("z", F32);
  auto w = parse(m);
  const auto& s = node(w, "tail");  // starts = [10 - 6] = [4], ends = [10]
  EXPECT_EQ(sizes(s), (std::vector<std::int64_t>{2, 6, 16}));
  EXPECT_EQ(map_of(s, 0), "(d0, (d1 + 4), d2)");
  EXPECT_EQ(sizes(node(w, "add")), (std::vector<std::int64_t>{2, 6, 16}));
}

TEST(RuntimeShapes, PositionIdsFromRangeAndFlattenFromReduceProd) {
  // BERT-style position embeddings: Gather(table, Range(0, Shape(x)[1], 1)); then
  // x.reshape(B, N * D) with N * D = ReduceProd(Shape(x)[1:3]).
  ModelBuilder m("bert", 13);
  m.input("x", F32, {2, 12, 16}).initializer("pos_table", F32, {512, 16});
  const auto n = dim_of(m, "x", 1, "n");
  m.int_initializer("r0", {0}, false).int_initializer("r1", {1}, false);
  m.node("Range", {"r0", n, "r1"}, {"positions"}, "positions");
  m.node("Gather", {"pos_table", "positions"}, {"pos"}, "pos_embed").attr("axis", 0);
  m.node("Add", {"x", "pos"}, {"h"}, "add_pos");
  m.node("Shape", {"h"}, {"hs"}, "hs");
  m.int_initializer("s1", {1}).int_initializer("e3", {3});
  m.node("Slice", {"hs", "s1", "e3"}, {"tail_dims"}, "tail_dims");
  m.node("ReduceProd", {"tail_dims"}, {"features"}, "features").attr("keepdims", 1);
  m.node("Slice", {"hs", "r0_1d", "s1"}, {"batch"}, "batch_dim");
  m.int_initializer("r0_1d", {0});
  m.node("Concat", {"batch", "features"}, {"flat_shape"}, "flat_shape").attr("axis", 0);
  m.node("Reshape", {"h", "flat_shape"}, {"flat"}, "flatten");
  m.initializer("W", F32, {192, 10});
  m.node("MatMul", {"flat", "W"}, {"logits"}, "head");
  m.output("logits", F32);
  auto w = parse(m);
  // positions = [0..11]: the Gather reads 12 rows of the 512-row table, from constants alone, so
  // it is evaluated at load time and the Add reads its [12, 16] result.
  const auto& add = node(w, "add_pos");
  ASSERT_EQ(add.inputs.size(), 2u);
  EXPECT_EQ(add.inputs[1]->name, "pos");
  EXPECT_EQ(add.inputs[1]->shape, (std::vector<std::int64_t>{12, 16}));
  // 12 * 16 = 192 features; the flattening Reshape folds by splitting the contraction into
  // (12, 16): head dims (m=2, n=10, k0=12, k1=16), and W is refined to [12, 16, 10].
  EXPECT_EQ(sizes(node(w, "head")), (std::vector<std::int64_t>{2, 10, 12, 16}));
  EXPECT_EQ(node(w, "head").inputs[1]->shape, (std::vector<std::int64_t>{12, 16, 10}));
}

}  // namespace

namespace {

// Genuine PyTorch 1.13 exports (inputs/workload/exported/gen_exports.py, weights cleared).
std::string exported(const std::string& file) { return std::string(STREAM_INPUTS_DIR) + "/workload/exported/" + file; }

TEST(GenuineExports, TinyVitClassTokenAndAttentionFromTheExporter) {
  const auto path = exported("vit_tiny.onnx");
  expect_error([&] { (void)parse_file(path); }, {path, "'x'", "--dim batch=N"});
  FrontendOptions opts;
  opts.values["batch"] = "2";
  const auto w = registries().load_workload(path, opts);
  // x [2, 3, 16, 16] -> 4 x 4 patches of 32 channels; cls.expand(2, -1, -1) = [2, 1, 32] (the
  // exporter's Where(Equal(s, -1), 1, s) shape); 1 + 16 = 17 tokens.
  // The Expand reads only the cls weight: evaluated at load time, Concat reads its result.
  EXPECT_EQ(node(w, "/Concat_2").inputs[0]->name, "/Expand_output_0");
  EXPECT_EQ(node(w, "/Concat_2").inputs[0]->shape, (std::vector<std::int64_t>{2, 1, 32}));
  EXPECT_EQ(node(w, "/Concat_2").outputs[0]->shape, (std::vector<std::int64_t>{2, 17, 32}));
  // nn.MultiheadAttention folds batch and 4 heads into 2 * 4 = 8 of head size 32 / 4 = 8:
  // scores dims (8, m=17, n=17, k=8).
  EXPECT_EQ(sizes(node(w, "/enc/self_attn/MatMul_1")), (std::vector<std::int64_t>{8, 17, 17, 8}));
  EXPECT_EQ(node(w, "/enc/self_attn/Softmax").reduction_axes, (std::vector<int>{2}));
  EXPECT_EQ(node(w, "/head/Gemm").outputs[0]->shape, (std::vector<std::int64_t>{2, 10}));
}

TEST(GenuineExports, SwinWindowPadFromTheExporter) {
  const auto w = parse_file(exported("swin_window.onnx"));
  // x [1, 7, 6, 8], window 4: pads (4 - 7 % 4) % 4 = 1 rows and (4 - 6 % 4) % 4 = 2 columns at the
  // end, through the exporter's ConstantOfShape/Concat/Reshape/Slice(step -1)/Transpose chain.
  const auto& pad = node(w, "/Pad");
  EXPECT_EQ(pad.outputs[0]->shape, (std::vector<std::int64_t>{1, 8, 8, 8}));
  EXPECT_EQ(map_of(pad, 0), "(d0, d1, d2, d3)");
  // 2 x 2 windows of 4 x 4 tokens: the window partition's reshapes fold into the Linear's MatMul,
  // which loops over window rows, window columns, token rows, token columns (2, 2, 4, 4), then
  // n = 24 and k = 8.
  EXPECT_EQ(sizes(node(w, "/lin/MatMul")), (std::vector<std::int64_t>{2, 2, 4, 4, 24, 8}));
}

}  // namespace

namespace {

// The values an int64 chain computes, observed as the shape of Expand(x [1], values): the
// Expand's output shape is the computed vector itself (every value must be >= 1).
std::vector<std::int64_t> computed(ModelBuilder& m, const std::string& values) {
  m.input("one", F32, {1}).output("y", F32);
  m.node("Expand", {"one", values}, {"y"}, "expand");
  return parse(m).node_by_name("expand").outputs[0]->shape;
}

TEST(ShapeArithmetic, ModAndDivFollowOnnxSigns) {
  ModelBuilder m("g", 13);
  m.int_initializer("a", {-7}).int_initializer("b", {3}).int_initializer("two", {2});
  m.node("Mod", {"a", "b"}, {"mod"}, "mod");                        // sign of the divisor: -7 mod 3 = 2
  m.node("Mod", {"a", "b"}, {"fmod"}, "fmod").attr("fmod", 1);      // C fmod: -7 % 3 = -1
  m.node("Abs", {"fmod"}, {"fmod_abs"}, "fmod_abs");                // 1
  m.node("Div", {"a", "two"}, {"div"}, "div");                      // truncation: -7 / 2 = -3
  m.node("Neg", {"div"}, {"neg"}, "neg");                           // 3
  m.node("Concat", {"mod", "fmod_abs", "neg"}, {"v"}, "cat").attr("axis", 0);
  EXPECT_EQ(computed(m, "v"), (std::vector<std::int64_t>{2, 1, 3}));
}

TEST(ShapeArithmetic, SliceGatherTileAndRangeIndexAsOnnxDefines) {
  ModelBuilder m("g", 13);
  m.int_initializer("seq", {1, 2, 3, 4, 5, 6});
  m.int_initializer("s", {-1}).int_initializer("e", {-100}).int_initializer("ax", {0}).int_initializer("st", {-2});
  m.node("Slice", {"seq", "s", "e", "ax", "st"}, {"rev"}, "rev");  // from the last, step -2: [6, 4, 2]
  m.int_initializer("idx", {-1, 0});
  m.node("Gather", {"rev", "idx"}, {"picked"}, "picked").attr("axis", 0);  // [rev[-1], rev[0]] = [2, 6]
  m.int_initializer("reps", {2});
  m.node("Tile", {"picked", "reps"}, {"tiled"}, "tiled");  // [2, 6, 2, 6]
  m.int_initializer("r0", {5}, false).int_initializer("r1", {1}, false).int_initializer("rd", {-2}, false);
  m.node("Range", {"r0", "r1", "rd"}, {"down"}, "down");  // 5, 3 (1 excluded)
  m.node("Concat", {"tiled", "down"}, {"v"}, "cat").attr("axis", 0);
  EXPECT_EQ(computed(m, "v"), (std::vector<std::int64_t>{2, 6, 2, 6, 5, 3}));
}

TEST(ShapeArithmetic, ReductionsComparisonsAndWhere) {
  ModelBuilder m("g", 13);
  m.int_initializer("grid", {2, 9, 4, 3});
  m.int_initializer("g_shape", {2, 2});
  m.node("Reshape", {"grid", "g_shape"}, {"g2"}, "g2");  // [[2, 9], [4, 3]]
  m.node("ReduceMax", {"g2"}, {"row_max"}, "row_max").attr("axes", Shape{1}).attr("keepdims", 0);  // [9, 4]
  m.int_initializer("p", {1, 2}).int_initializer("q", {1, 5}).int_initializer("sevens", {7, 7});
  m.node("Equal", {"p", "q"}, {"eq"}, "eq");    // [T, F]
  m.node("Not", {"eq"}, {"ne"}, "ne");          // [F, T]
  m.node("Where", {"ne", "sevens", "row_max"}, {"chosen"}, "chosen");  // [9, 7]
  m.int_initializer("three", {3});
  m.node("Max", {"p", "three"}, {"mx"}, "mx");  // broadcast: [3, 3]
  m.node("Cast", {"mx"}, {"mx32"}, "mx32").attr("to", static_cast<std::int64_t>(I32));
  m.node("Cast", {"mx32"}, {"mx64"}, "mx64").attr("to", static_cast<std::int64_t>(I64));
  m.node("Concat", {"chosen", "mx64"}, {"v"}, "cat").attr("axis", 0);
  EXPECT_EQ(computed(m, "v"), (std::vector<std::int64_t>{9, 7, 3, 3}));
}

TEST(ShapeArithmetic, SplitPartsAreKnownToTheirReaders) {
  // Split is the one multi-output node the evaluator reads: [3, 4, 5, 6, 7] split [2, 3] gives
  // [3, 4] and [5, 6, 7]; equal halves of [8, 9] give [8] and [9]. Concat puts them back in
  // another order: [5, 6, 7, 9, 3, 4, 8].
  ModelBuilder m("g", 13);
  m.int_initializer("seq", {3, 4, 5, 6, 7}).int_initializer("sizes", {2, 3}).int_initializer("pair", {8, 9});
  m.node("Split", {"seq", "sizes"}, {"head", "tail"}, "split").attr("axis", 0);
  m.node("Split", {"pair"}, {"first", "second"}, "halves").attr("axis", 0);
  m.node("Concat", {"tail", "second", "head", "first"}, {"v"}, "cat").attr("axis", 0);
  EXPECT_EQ(computed(m, "v"), (std::vector<std::int64_t>{5, 6, 7, 9, 3, 4, 8}));
}

TEST(ShapeArithmetic, SplitIntoNumOutputsHasAShorterLastPartFromOpset18) {
  // Opset 18: num_outputs = 2 over 5 elements gives parts of ceil(5 / 2) = 3 and 2: [3, 4, 5] and
  // [6, 7]; opset 11 reads the split attribute [1, 4]: [3] and [4, 5, 6, 7].
  ModelBuilder m18("g", 18);
  m18.int_initializer("seq", {3, 4, 5, 6, 7});
  m18.node("Split", {"seq"}, {"head", "tail"}, "split").attr("axis", 0).attr("num_outputs", 2);
  m18.node("Concat", {"tail", "head"}, {"v"}, "cat").attr("axis", 0);
  EXPECT_EQ(computed(m18, "v"), (std::vector<std::int64_t>{6, 7, 3, 4, 5}));
  ModelBuilder m11("g", 11);
  m11.int_initializer("seq", {3, 4, 5, 6, 7});
  m11.node("Split", {"seq"}, {"head", "tail"}, "split").attr("axis", 0).attr("split", Shape{1, 4});
  m11.node("Concat", {"tail", "head"}, {"v"}, "cat").attr("axis", 0);
  EXPECT_EQ(computed(m11, "v"), (std::vector<std::int64_t>{4, 5, 6, 7, 3}));
}

TEST(ShapeArithmetic, SplitThatDoesNotTileItsAxisIsLeftUnevaluated) {
  // Parts [2, 2] of a 5-element axis are malformed: nothing is invented, the Expand's shape stays
  // unknown and is named.
  ModelBuilder m("g", 13);
  m.int_initializer("seq", {3, 4, 5, 6, 7}).int_initializer("sizes", {2, 2});
  m.node("Split", {"seq", "sizes"}, {"head", "tail"}, "split").attr("axis", 0);
  expect_error([&] { (void)computed(m, "head"); }, {".onnx", "expand", "'y'", "unknown"});
}

TEST(RuntimeShapes, RepeatInterleaveExpandShapeThroughASplitOfAConstant) {
  // torch 1.13 exports k.repeat_interleave(4, dim=1) on k [1, 1, 3, 4] as Unsqueeze(k, 2) expanded
  // to Concat([1, 1], Split(Expand(4, [2]))[0], [3, 4]) (then a Reshape). Expand(4, [2]) = [4, 4],
  // its first part [4]: the target is [1, 1, 4, 3, 4]. The whole shape chain is constant, so the
  // Split is removed with it and only the Expand is costed.
  ModelBuilder m("g", 17);
  m.input("k", F32, {1, 1, 1, 3, 4}).output("y", F32);
  m.int_initializer("rep", {4}, /*as_1d=*/false).int_initializer("two", {2});
  m.node("Expand", {"rep", "two"}, {"reps"}, "reps");
  m.int_initializer("ones", {1, 1});
  m.node("Split", {"reps", "ones"}, {"r0", "r1"}, "split").attr("axis", 0);
  m.int_initializer("lead", {1, 1}).int_initializer("tail", {3, 4});
  m.node("Concat", {"lead", "r0", "tail"}, {"target"}, "target").attr("axis", 0);
  m.node("Expand", {"k", "target"}, {"y"}, "expand");
  auto w = parse(m);
  EXPECT_EQ(w.node_by_name("expand").outputs[0]->shape, (std::vector<std::int64_t>{1, 1, 4, 3, 4}));
  EXPECT_THROW((void)w.index_of("split"), Error);
}

TEST(ShapeArithmetic, DivisionByZeroIsLeftUnevaluatedAndNamed) {
  ModelBuilder m("g", 13);
  m.int_initializer("a", {6}).int_initializer("z", {0});
  m.node("Div", {"a", "z"}, {"v"}, "div0");
  expect_error([&] { (void)computed(m, "v"); }, {".onnx", "expand", "'y'", "unknown"});
}

}  // namespace

namespace {

TEST(RuntimeShapes, FloatConstantOfShapeFromShapeIsAConstantInputOfThatShape) {
  // An attention-mask style zeros tensor: ConstantOfShape(Shape(x)) (float 0 by default).
  ModelBuilder m("g", 13);
  m.input("x", F32, {2, 5, 7}).output("y", F32);
  m.node("Shape", {"x"}, {"xs"}, "xs");
  m.node("ConstantOfShape", {"xs"}, {"zeros"}, "zeros");
  m.node("Add", {"x", "zeros"}, {"y"}, "add");
  auto w = parse(m);
  const auto& add = node(w, "add");
  EXPECT_EQ(add.inputs[1]->name, "zeros");
  EXPECT_EQ(add.inputs[1]->shape, (std::vector<std::int64_t>{2, 5, 7}));
  EXPECT_EQ(map_of(add, 1), "(d0, d1, d2)");
  EXPECT_EQ(w.node(w.index_of("zeros")).kind, NodeKind::InEdge);
}

}  // namespace

namespace {

TEST(RuntimeShapes, AShapeOnlyKnownAtRunTimeIsNamedWithoutInventedDimNames) {
  // Expand's shape is a graph input: its values exist only at run time. ONNX names the unknown
  // extents unk__N; the error must not ask for --dim unk__N.
  ModelBuilder m("g", 13);
  m.input("x", F32, {1, 4}).input("target", I64, {2}).output("y", F32);
  m.node("Expand", {"x", "target"}, {"y"}, "expand");
  try {
    (void)parse(m);
    ADD_FAILURE() << "expected a stream::Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("the shape of tensor 'y' is unknown"), std::string::npos) << msg;
    EXPECT_NE(msg.find("a dimension is unknown"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("--dim"), std::string::npos) << msg;
  }
}

}  // namespace
