// ONNX's own ConvTranspose test models (data/onnx_conformance/README.md): each parses, its output
// has the shape of the test's expected output, and its MACs are the real count
// N * C * prod(in) * prod(k) * K/G, every input element times every tap. The lowering before the
// scatter (a convolution over the zero-inserted, padded input) costed the figure in brackets.
#include "../onnx_test_util.hpp"

using namespace onnx_test;

namespace {

struct Case {
  std::string test;
  std::vector<std::int64_t> y_shape;  ///< test_data_set_0/output_0.pb's dims
  std::int64_t macs;
};

const std::vector<Case> kCases = {
    {"test_convtranspose", {1, 2, 5, 5}, 162},                // 3*3 * 3*3 * K 2 (450)
    {"test_convtranspose_1d", {1, 2, 5}, 18},                 // 3 * 3 * K 2 (30)
    {"test_convtranspose_3d", {1, 2, 5, 6, 7}, 3240},         // 3*4*5 * 27 * K 2 (11340)
    {"test_convtranspose_autopad_same", {1, 2, 6, 6}, 162},   // 3*3 * 3*3 * K 2, s 2 (648)
    {"test_convtranspose_dilations", {1, 1, 5, 5}, 36},       // 3*3 * 2*2 * K 1, d 2 (100)
    {"test_convtranspose_group_2", {1, 2, 5, 5}, 162},        // C 2 * 3*3 * 3*3 * K/G 1 (450)
    {"test_convtranspose_group_2_image_3", {3, 2, 5, 5}, 486},  // N 3 * 162 (1350)
    {"test_convtranspose_kernel_shape", {1, 2, 10, 8}, 162},  // 3*3 * 3*3 * K 2, s (3, 2) (1440)
    {"test_convtranspose_output_shape", {1, 2, 10, 8}, 162},  // output_shape one past the scatter (rejected)
    {"test_convtranspose_pad", {1, 2, 10, 8}, 162},           // output_padding (1, 1) (1440)
    {"test_convtranspose_pads", {1, 2, 7, 3}, 162},           // pads (1, 2, 1, 2), s (3, 2) (378)
};

TEST(ConformanceConvTranspose, OutputShapesAndRealMacs) {
  for (const auto& c : kCases) {
    const auto path = std::string(STREAM_SOURCE_DIR) + "/tests/plugins/onnx-frontend/data/onnx_conformance/" + c.test + ".onnx";
    Workload w = parse_file(path);
    EXPECT_EQ(graph_output_shape(w, "Y"), c.y_shape) << c.test;
    EXPECT_EQ(total_macs(w), c.macs) << c.test;
  }
}

}  // namespace
