// Look-alikes of ONNX model-zoo CNNs (opsets 9-17) must parse completely: AlexNet (LRN, Dropout),
// VGG, ResNet-50 (BatchNorm bottlenecks), Inception (Concat of pooled branches), DenseNet
// (dense Concat), SqueezeNet (fire modules), ShuffleNet (grouped convs, channel shuffle), weights
// produced by ConstantOfShape, and the old PyTorch Shape->Gather->Concat->Reshape flatten.
#include <map>

#include "../onnx_test_util.hpp"

using namespace onnx_test;

namespace {

struct Net {
  ModelBuilder m;
  int counter = 0;
  explicit Net(const std::string& name, std::int64_t opset) : m(name, opset) {}
  std::string fresh(const std::string& p) { return p + std::to_string(counter++); }
  std::string conv(const std::string& x, std::int64_t cin, std::int64_t cout, std::int64_t k, std::int64_t stride = 1,
                   std::int64_t group = 1, bool bias = true) {
    const auto w = fresh("w"), y = fresh("conv");
    m.initializer(w, F32, {cout, cin / group, k, k});
    std::vector<std::string> ins{x, w};
    if (bias) {
      const auto b = fresh("b");
      m.initializer(b, F32, {cout});
      ins.push_back(b);
    }
    m.node("Conv", ins, {y}, y).attr("kernel_shape", Shape{k, k}).attr("strides", Shape{stride, stride})
        .attr("pads", Shape{k / 2, k / 2, k / 2, k / 2}).attr("group", group);
    return y;
  }
  std::string op(const std::string& type, const std::vector<std::string>& ins) {
    const auto y = fresh(type);
    m.node(type, ins, {y}, y);
    return y;
  }
  std::string relu(const std::string& x) { return op("Relu", {x}); }
  std::string bn(const std::string& x, std::int64_t c) {
    std::vector<std::string> ins{x};
    for (int i = 0; i < 4; ++i) {
      ins.push_back(fresh("bn_p"));
      m.initializer(ins.back(), F32, {c});
    }
    return op("BatchNormalization", ins);
  }
  std::string maxpool(const std::string& x, std::int64_t k, std::int64_t s, std::int64_t p = 0) {
    const auto y = fresh("maxpool");
    m.node("MaxPool", {x}, {y}, y).attr("kernel_shape", Shape{k, k}).attr("strides", Shape{s, s}).attr("pads", Shape{p, p, p, p});
    return y;
  }
  std::string avgpool(const std::string& x, std::int64_t k, std::int64_t s, std::int64_t p = 0) {
    const auto y = fresh("avgpool");
    m.node("AveragePool", {x}, {y}, y).attr("kernel_shape", Shape{k, k}).attr("strides", Shape{s, s}).attr("pads", Shape{p, p, p, p});
    return y;
  }
  std::string concat(const std::vector<std::string>& xs) {
    const auto y = fresh("concat");
    m.node("Concat", xs, {y}, y).attr("axis", 1);
    return y;
  }
  std::string fc(const std::string& x, std::int64_t in, std::int64_t out) {
    const auto w = fresh("fc_w"), b = fresh("fc_b"), y = fresh("fc");
    m.initializer(w, F32, {out, in}).initializer(b, F32, {out});
    m.node("Gemm", {x, w, b}, {y}, y).attr("transB", 1);
    return y;
  }
  std::string flatten(const std::string& x) {
    const auto y = fresh("flatten");
    m.node("Flatten", {x}, {y}, y).attr("axis", 1);
    return y;
  }
  std::string dropout(const std::string& x) {
    const auto y = fresh("dropout"), mask = fresh("mask");
    m.node("Dropout", {x}, {y, mask}, y);
    return y;
  }
  Workload finish(const std::string& out) {
    m.output(out, F32);
    return parse(m);
  }
};

std::map<std::string, int> types(const Workload& w) {
  std::map<std::string, int> out;
  for (const auto* n : computations(w)) ++out[n->type];
  return out;
}

TEST(Zoo, AlexNetOpset9) {
  Net n("alexnet", 9);
  n.m.input("data", F32, {1, 3, 64, 64});
  auto x = n.relu(n.conv("data", 3, 16, 5, 2));
  const auto lrn = n.fresh("lrn");
  n.m.node("LRN", {x}, {lrn}, lrn).attr("size", 5).attr("alpha", 1e-4f).attr("beta", 0.75f);
  x = n.maxpool(lrn, 3, 2);
  x = n.relu(n.conv(x, 16, 32, 3));
  x = n.maxpool(x, 3, 2);
  x = n.dropout(n.flatten(x));
  x = n.fc(x, 32 * 7 * 7, 10);
  const auto prob = n.fresh("softmax");
  n.m.node("Softmax", {x}, {prob}, prob);
  auto w = n.finish(prob);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  EXPECT_EQ(types(w), (std::map<std::string, int>{
                          {"Conv", 2}, {"Gemm", 1}, {"LRN", 1}, {"MaxPool", 2}, {"Relu", 2}, {"Softmax", 1}}));
  // 64 -> conv s2 p2 k5 -> 32 -> pool k3 s2 -> 15 -> conv -> 15 -> pool -> 7.
  const auto* gemm = computations(w)[7];
  EXPECT_EQ(gemm->type, "Gemm");
  EXPECT_EQ(sizes(*gemm), (std::vector<std::int64_t>{1, 32, 7, 7, 10}));  // k split into (c, h, w)
  EXPECT_EQ(kinds(*gemm), "PRRRP");
}

TEST(Zoo, VggBlocksOpset12) {
  Net n("vgg", 12);
  n.m.input("data", F32, {1, 3, 32, 32});
  std::string x = "data";
  std::int64_t c = 3;
  for (std::int64_t out : {8, 16, 32}) {
    x = n.relu(n.conv(x, c, out, 3));
    x = n.relu(n.conv(x, out, out, 3));
    x = n.maxpool(x, 2, 2);
    c = out;
  }
  x = n.fc(n.dropout(n.flatten(x)), 32 * 4 * 4, 10);
  auto w = n.finish(x);
  EXPECT_EQ(types(w)["Conv"], 6);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
}

TEST(Zoo, ResNet50BottleneckOpset11) {
  Net n("resnet50", 11);
  n.m.input("data", F32, {1, 3, 64, 64});
  auto x = n.maxpool(n.relu(n.bn(n.conv("data", 3, 16, 7, 2, 1, false), 16)), 3, 2, 1);
  std::int64_t c = 16;
  for (int block = 0; block < 2; ++block) {
    auto y = n.relu(n.bn(n.conv(x, c, 8, 1, 1, 1, false), 8));
    y = n.relu(n.bn(n.conv(y, 8, 8, 3, 1, 1, false), 8));
    y = n.bn(n.conv(y, 8, 32, 1, 1, 1, false), 32);
    auto shortcut = block == 0 ? n.bn(n.conv(x, c, 32, 1, 1, 1, false), 32) : x;
    x = n.relu(n.op("Add", {y, shortcut}));
    c = 32;
  }
  const auto gap = n.op("GlobalAveragePool", {x});
  auto out = n.fc(n.flatten(gap), 32, 10);
  auto w = n.finish(out);
  EXPECT_EQ(types(w)["BatchNormalization"], 8);
  EXPECT_EQ(types(w)["Add"], 2);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  const auto& gemm = *computations(w).back();
  EXPECT_EQ(sizes(gemm), (std::vector<std::int64_t>{1, 32, 10}));
}

TEST(Zoo, InceptionModuleOpset9) {
  Net n("inception", 9);
  n.m.input("data", F32, {1, 16, 14, 14});
  auto b1 = n.relu(n.conv("data", 16, 8, 1));
  auto b2 = n.relu(n.conv(n.relu(n.conv("data", 16, 8, 1)), 8, 12, 3));
  auto b3 = n.relu(n.conv(n.relu(n.conv("data", 16, 4, 1)), 4, 6, 5));
  auto b4 = n.relu(n.conv(n.maxpool("data", 3, 1, 1), 16, 6, 1));
  auto cat = n.concat({b1, b2, b3, b4});
  auto w = n.finish(n.avgpool(cat, 3, 2));
  const auto& c = node(w, cat);
  EXPECT_EQ(c.outputs[0]->shape, (std::vector<std::int64_t>{1, 32, 14, 14}));
  EXPECT_EQ(map_of(c, 3), "(d0, (d1 + -26), d2, d3)");  // offsets 0, 8, 20, 26
  EXPECT_EQ(sizes(c), (std::vector<std::int64_t>{1, 32, 14, 14}));
}

TEST(Zoo, DenseNetBlockOpset10) {
  Net n("densenet", 10);
  n.m.input("data", F32, {1, 8, 16, 16});
  std::string x = "data";
  std::int64_t c = 8;
  for (int layer = 0; layer < 3; ++layer) {
    auto y = n.conv(n.relu(n.bn(x, c)), c, 4, 3, 1, 1, false);
    x = n.concat({x, y});
    c += 4;
  }
  auto t = n.avgpool(n.conv(n.relu(n.bn(x, c)), c, 10, 1, 1, 1, false), 2, 2);
  auto w = n.finish(t);
  EXPECT_EQ(types(w)["Concat"], 3);
  EXPECT_EQ(node(w, x).outputs[0]->shape, (std::vector<std::int64_t>{1, 20, 16, 16}));
}

TEST(Zoo, SqueezeNetFireModuleWithConstantOfShapeWeights) {
  Net n("squeezenet", 9);
  n.m.input("data", F32, {1, 16, 16, 16});
  // The squeeze weights come from ConstantOfShape, as some exporters write them.
  n.m.int_initializer("sq_shape", {4, 16, 1, 1});
  auto& cs = n.m.node("ConstantOfShape", {"sq_shape"}, {"sq_w"}, "sq_w_gen").proto();
  auto* a = cs.add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto_AttributeType_TENSOR);
  a->mutable_t()->set_data_type(F32);
  a->mutable_t()->add_dims(1);
  a->mutable_t()->add_float_data(0.0f);
  n.m.node("Conv", {"data", "sq_w"}, {"squeeze"}, "squeeze").attr("kernel_shape", Shape{1, 1});
  auto s = n.relu("squeeze");
  auto e1 = n.relu(n.conv(s, 4, 8, 1));
  auto e3 = n.relu(n.conv(s, 4, 8, 3));
  auto fire = n.concat({e1, e3});
  auto gap = n.op("GlobalAveragePool", {n.dropout(fire)});
  n.m.int_initializer("flat_shape", {1, 16});
  n.m.node("Reshape", {gap, "flat_shape"}, {"logits"}, "flatten_reshape");
  auto w = n.finish("logits");
  EXPECT_EQ(node(w, "sq_w").kind, NodeKind::InEdge);
  EXPECT_EQ(sizes(node(w, "squeeze")), (std::vector<std::int64_t>{1, 16, 16, 1, 1, 16, 4}));
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
}

TEST(Zoo, ShuffleNetChannelShuffleFoldsIntoGroupedConvs) {
  Net n("shufflenet", 9);
  n.m.input("data", F32, {1, 12, 8, 8});
  auto g1 = n.relu(n.conv("data", 12, 12, 1, 1, 3, false));
  // Channel shuffle: [1,12,8,8] -> [1,3,4,8,8] -> transpose(0,2,1,3,4) -> [1,4,3,8,8] -> [1,12,8,8].
  n.m.int_initializer("split_shape", {1, 3, 4, 8, 8}).int_initializer("merge_shape", {1, 12, 8, 8});
  n.m.node("Reshape", {g1, "split_shape"}, {"sh1"}, "shuffle_split");
  n.m.node("Transpose", {"sh1"}, {"sh2"}, "shuffle_transpose").attr("perm", Shape{0, 2, 1, 3, 4});
  n.m.node("Reshape", {"sh2", "merge_shape"}, {"sh3"}, "shuffle_merge");
  auto dw = n.conv("sh3", 12, 12, 3, 1, 12, false);  // depthwise
  auto w = n.finish(n.conv(dw, 12, 12, 1, 1, 1, false));
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  // The depthwise conv reads the group conv's output with its channel loop split in (4, 3).
  const auto& d = node(w, dw);
  EXPECT_EQ(d.inputs[0]->name, g1);
  EXPECT_EQ(d.inputs[0]->shape, (std::vector<std::int64_t>{1, 3, 4, 8, 8}));
  std::int64_t points = 1;
  for (auto s : sizes(d)) points *= s;
  EXPECT_EQ(points, 12 * 8 * 8 * 9);  // the same work as before the shuffle was folded
}

TEST(Zoo, ShuffleBetweenIncompatiblyGroupedConvsStaysAFusionEdge) {
  // After the shuffle, a group-3 conv reads channel g*4 + c: the (4, 3) split of the shuffled
  // axis cannot be walked with one loop per factor there.
  Net n("shuffle_conflict", 13);
  n.m.input("data", F32, {1, 12, 8, 8});
  auto g1 = n.conv("data", 12, 12, 1, 1, 3, false);
  n.m.int_initializer("split_shape", {1, 3, 4, 8, 8}).int_initializer("merge_shape", {1, 12, 8, 8});
  n.m.node("Reshape", {g1, "split_shape"}, {"sh1"}, "shuffle_split");
  n.m.node("Transpose", {"sh1"}, {"sh2"}, "shuffle_transpose").attr("perm", Shape{0, 2, 1, 3, 4});
  n.m.node("Reshape", {"sh2", "merge_shape"}, {"sh3"}, "shuffle_merge");
  auto dw = n.conv("sh3", 12, 12, 3, 1, 12, false);
  auto w = n.finish(n.conv(dw, 12, 12, 1, 1, 3, false));
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 1u);
}

TEST(Zoo, OldPytorchFlattenThroughShapeArithmetic) {
  Net n("old_flatten", 9);
  n.m.input("data", F32, {1, 8, 4, 4});
  auto x = n.relu("data");
  n.m.int_initializer("zero", {0}, false);
  n.m.int_initializer("minus_one", {-1});
  n.m.node("Shape", {x}, {"shape"}, "shape");
  n.m.node("Gather", {"shape", "zero"}, {"batch"}, "gather_batch").attr("axis", 0);
  n.m.node("Unsqueeze", {"batch"}, {"batch1"}, "unsqueeze_batch").attr("axes", Shape{0});
  n.m.node("Concat", {"batch1", "minus_one"}, {"target"}, "concat_shape").attr("axis", 0);
  n.m.node("Reshape", {x, "target"}, {"flat"}, "flatten");
  auto out = n.fc("flat", 128, 10);
  auto w = n.finish(out);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  EXPECT_EQ(w.computation_nodes().size(), 2u);  // Relu, Gemm: the shape arithmetic is metadata
  EXPECT_EQ(sizes(*computations(w).back()), (std::vector<std::int64_t>{1, 8, 4, 4, 10}));
}

TEST(Zoo, Opset9AttributeFormsOfSliceSqueezePad) {
  ModelBuilder m("old_attrs", 9);
  m.input("x", F32, {1, 4, 6, 6}).output("y", F32);
  m.node("Slice", {"x"}, {"s"}, "slice").attr("starts", Shape{1}).attr("ends", Shape{3}).attr("axes", Shape{1});
  m.node("Pad", {"s"}, {"p"}, "pad").attr("pads", Shape{0, 0, 1, 1, 0, 0, 1, 1});
  m.node("Unsqueeze", {"p"}, {"u"}, "unsq").attr("axes", Shape{0});
  m.node("Squeeze", {"u"}, {"q"}, "sq").attr("axes", Shape{0});
  m.node("Relu", {"q"}, {"y"}, "relu");
  auto w = parse(m);
  EXPECT_EQ(map_of(node(w, "slice"), 0), "(d0, (d1 + 1), d2, d3)");
  EXPECT_EQ(map_of(node(w, "pad"), 0), "(d0, d1, (d2 + -1), (d3 + -1))");
  EXPECT_EQ(sizes(node(w, "relu")), (std::vector<std::int64_t>{1, 2, 8, 8}));
  EXPECT_EQ(node(w, "relu").inputs[0]->name, "p");
}

}  // namespace
