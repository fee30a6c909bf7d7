// A genuine PyTorch 1.13 export (tests/plugins/onnx-frontend/data/torch_upsampling.py, weights cleared) of the
// upsampling operators: nn.Upsample nearest / bilinear / bilinear align_corners (Resize, opset 13,
// scales from Constants), ConvTranspose2d(16, 8, 4, stride 2, pad 1) and PixelShuffle(2)
// (DepthToSpace CRD) before a padded Conv.
#include <filesystem>

#include "../onnx_test_util.hpp"
#include "stream_cli.hpp"

using namespace onnx_test;

namespace {

const std::string kModel = std::string(STREAM_SOURCE_DIR) + "/tests/plugins/onnx-frontend/data/torch_upsampling.onnx";

TEST(TorchExport, UpsamplingDecoderParsesToTheHandDerivedNodes) {
  auto w = parse_file(kModel);
  // nearest, asymmetric, floor: x[Q], y[2Q + r].
  const auto& up1 = node(w, "/up1/Resize");
  EXPECT_EQ(map_of(up1, 0), "(d0, d1, d2, d3)");
  EXPECT_EQ(map_of(up1, 1), "(d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))");
  // bilinear half_pixel: phases read {Q-1, Q} and {Q, Q+1}: x[Q + w - 1], W = 3.
  const auto& up2 = node(w, "/up2/Resize");
  EXPECT_EQ(map_of(up2, 0), "(d0, d1, ((d2 + d5) + -1), ((d3 + d7) + -1))");
  EXPECT_EQ(sizes(up2), (std::vector<std::int64_t>{1, 16, 16, 16, 2, 3, 2, 3}));
  // align_corners 16 -> 32: x_orig = 15o/31; o = 2 reads 0 (Q = 1, offset -1), o = 1 reads
  // {0, 1} (Q = 0, offset +1): the same window [-1, 1].
  EXPECT_EQ(map_of(node(w, "/up3/Resize"), 0), "(d0, d1, ((d2 + d5) + -1), ((d3 + d7) + -1))");
  // ConvTranspose k 4, s 2, p 1, in 32: out = 2*31 + 4 - 2 = 64; the scatter y[2i + f] reaches
  // 2*31 + 3 + 1 = 66 positions, cropped to [1, 65). MACs 32*32 * 4*4 * 16 * 8, the real count.
  const auto& ct = node(w, "/ct/ConvTranspose");
  EXPECT_EQ(map_of(ct, 0), "(d0, d5, d2, d1)");
  EXPECT_EQ(map_of(ct, 1), "(d5, d6, d4, d3)");
  EXPECT_EQ(map_of(ct, 2), "(d0, d6, ((d2 * 2) + d4), ((d1 * 2) + d3))");
  EXPECT_EQ(sizes(ct), (std::vector<std::int64_t>{1, 32, 32, 4, 4, 16, 8}));
  const auto& crop = node(w, "/ct/ConvTranspose_crop");
  EXPECT_EQ(map_of(crop, 0), "(d0, d1, (d2 + 1), (d3 + 1))");
  EXPECT_EQ(crop.outputs[0]->shape, (std::vector<std::int64_t>{1, 8, 64, 64}));
  // PixelShuffle before a padded convolution: one FusionEdge from the ConvTranspose output.
  const auto edges = w.nodes_of_kind(NodeKind::FusionEdge);
  ASSERT_EQ(edges.size(), 1u);
  EXPECT_EQ(w.node(edges[0]).inputs[0]->name, crop.outputs[0]->name);
  EXPECT_EQ(w.node(edges[0]).outputs[0]->shape, (std::vector<std::int64_t>{1, 2, 128, 128}));
}

TEST(TorchExport, UpsamplingDecoderRunsEndToEndOnTheTpuLikeQuadCore) {
  const auto out = std::filesystem::path(STREAM_BUILD_DIR) / "test_scratch" / "torch_upsampling";
  std::filesystem::remove_all(out);
  const auto r = stream::test::run_stream("run --workload " + kModel + " --hardware " + STREAM_INPUTS_DIR +
                                          "/hardware/tpu_like_quad_core.yaml --out " + out.string() + " --experiment-id exp");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(stream::test::read(out / "exp" / "summary.yaml").find("total_latency: "), std::string::npos);
}

}  // namespace
