// Genuine torch.onnx.export output (inputs/workload/exported/, weights cleared) parses with every
// Conv, Gemm and MatMul of the torch model as a computation node and the graph output's shape.
// Only the fixtures that parse today are here; inputs/workload/exported/SURVEY.md lists the rest.
#include <ostream>
#include <string>
#include <vector>

#include "../onnx_test_util.hpp"

using namespace onnx_test;

namespace {

std::string exported(const std::string& name) { return std::string(STREAM_INPUTS_DIR) + "/workload/exported/" + name + ".onnx"; }

struct ExportedModel {
  const char* file;
  int conv, gemm, matmul;
  std::vector<std::int64_t> output_shape;  // the OutEdge's tensor: a folded Flatten leaves its input
};

// Names the case in test listings (gtest otherwise prints the struct's bytes).
void PrintTo(const ExportedModel& m, std::ostream* os) { *os << m.file; }

// Counts derived from the torch model definitions (torchvision 0.14), not from the ONNX files;
// a Linear on a 2-D input exports as Gemm, on a 3-D input as MatMul; eval-mode export folds each
// BatchNorm into the Conv before it, so a Conv-BN pair is one Conv.
const std::vector<ExportedModel> kModels = {
    // stem 1 + 8 BasicBlocks x 2 + 3 downsample 1x1 = 20; fc.
    {"resnet18_op13", 20, 1, 0, {1, 1000}},
    {"resnet18_op17", 20, 1, 0, {1, 1000}},
    // stem 1 + 16 Bottlenecks x 3 + 4 downsample = 53; fc.
    {"resnet50_op17", 53, 1, 0, {1, 1000}},
    // stem 1 + first block (t=1: dw, project) 2 + 16 blocks x 3 + last 1x1 = 52; classifier Linear.
    {"mobilenet_v2_op13", 52, 1, 0, {1, 1000}},
    {"mobilenet_v2_op17", 52, 1, 0, {1, 1000}},
    // stem 1 + first bneck (no expand: dw, project) 2 + 10 bnecks x 3 + 9 SE x 2 + last 1x1 = 52;
    // the classifier's two Linears.
    {"mobilenet_v3_small_op13", 52, 2, 0, {1, 1000}},
    {"mobilenet_v3_small_op17", 52, 2, 0, {1, 1000}},
    // conv0 1 + (6 + 12 + 24 + 16) dense layers x 2 + 3 transitions = 120; classifier.
    {"densenet121_op13", 120, 1, 0, {1, 1000}},
    // stem 5 + 3 InceptionA x 7 + InceptionB 4 + 4 InceptionC x 10 + InceptionD 6 + 2 InceptionE x 9 = 94.
    {"inception_v3_op13", 94, 1, 0, {1, 1000}},
    // conv1..3 + 9 Inception modules x 6 = 57.
    {"googlenet_op13", 57, 1, 0, {1, 1000}},
    // 4 stages of 1, 3, 6, 6 Y-blocks x (a, b, c, SE 2) = 80 + 4 stage projections + stem = 85.
    {"regnet_y_400mf_op13", 85, 1, 0, {1, 1000}},
    // stem 1 + first MBConv (expand 1: dw, SE 2, project) 4 + 15 MBConv x 5 + head 1x1 = 81.
    {"efficientnet_b0_op17", 81, 1, 0, {1, 1000}},
    // conv1 + 8 Fire x 3 + the classifier's 1x1 = 26, no Linear; the output Flatten folds, so the
    // OutEdge reads the pooled [1, 1000, 1, 1].
    {"squeezenet1_0_op13", 26, 0, 0, {1, 1000, 1, 1}},
    // VGG-11 config A: 8 convs; classifier 3 Linears.
    {"vgg11_op13", 8, 3, 0, {1, 1000}},
};

class ExportedModels : public ::testing::TestWithParam<ExportedModel> {};

TEST_P(ExportedModels, LinearNodesAndOutputShape) {
  const auto& m = GetParam();
  const auto w = parse_file(exported(m.file));
  int conv = 0, gemm = 0, matmul = 0;
  for (const auto* n : computations(w)) {
    conv += n->type == "Conv";
    gemm += n->type == "Gemm";
    matmul += n->type == "MatMul";
  }
  EXPECT_EQ(conv, m.conv);
  EXPECT_EQ(gemm, m.gemm);
  EXPECT_EQ(matmul, m.matmul);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  const auto outs = w.nodes_of_kind(NodeKind::OutEdge);
  ASSERT_EQ(outs.size(), 1u);
  const auto& out = *w.node(outs[0]).inputs.at(0);
  EXPECT_EQ(out.shape, m.output_shape);
  EXPECT_EQ(out.dtype, DType::f32);  // exported fp32 and costed as such unless cast
}

INSTANTIATE_TEST_SUITE_P(Torch, ExportedModels, ::testing::ValuesIn(kModels),
                         [](const auto& info) { return std::string(info.param.file); });

// ResNet-18 at 64x64: the stem is 7x7 stride 2 pad 3 -> 32x32 from 3 to 64 channels; after four
// halvings (maxpool, layer2..4) layer4 works on 2x2 with 512 channels; fc reads the pooled
// [1, 512, 1, 1] directly (the Flatten folds into its map).
TEST(ExportedModelsResnet18, LoopSizesFollowTheInputResolution) {
  const auto w = parse_file(exported("resnet18_op13"));
  EXPECT_EQ(sizes(node(w, "/conv1/Conv")), (std::vector<std::int64_t>{1, 32, 32, 7, 7, 3, 64}));
  EXPECT_EQ(sizes(node(w, "/layer4/layer4.1/conv2/Conv")), (std::vector<std::int64_t>{1, 2, 2, 3, 3, 512, 512}));
  const auto& fc = node(w, "/fc/Gemm");
  EXPECT_EQ(sizes(fc), (std::vector<std::int64_t>{1, 512, 1000}));
  EXPECT_EQ(map_of(fc, 0), "(d0, d1, 0, 0)");
  EXPECT_EQ(kinds(fc), "PRP");
}

}  // namespace
