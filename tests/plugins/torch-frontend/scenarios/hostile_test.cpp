// Hostile .pt2 archives (issue 13): a zip bomb (a small file whose JSON entry inflates to a
// gigabyte), the same with a header that lies about the size, and a dimension of 2^62. Each ends in
// a stream::Error naming the file and the entry or tensor, without inflating the bomb.
#include <chrono>

#include <gtest/gtest.h>

#include "../torch_test_util.hpp"

using namespace stream;
using namespace stream::torch_testing;
using namespace torch_test;

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
const std::string kJson = "serialized_exported_program.json";

template <typename F>
double seconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(TorchHostile, ZipBombIsRejectedByItsDeclaredSize) {
  // 1 GiB of JSON text from about 1 MB on disk; the header says 1 GiB, honestly. Before the
  // limit, the reader inflated it all (1 GiB in memory) and handed it to the JSON parser.
  const auto path = temp_file("bomb");
  write_deflate_bomb(path, kJson, 1024 * kMiB);
  EXPECT_LT(std::filesystem::file_size(path), 2 * kMiB);
  std::string error;
  const double took = seconds([&] { error = error_of([&] { (void)load_file(path); }); });
  EXPECT_NE(error.find(path.string()), std::string::npos) << error;
  EXPECT_NE(error.find("entry '" + kJson + "' inflates to 1073741824 bytes"), std::string::npos) << error;
  EXPECT_NE(error.find("at most 268435456 bytes"), std::string::npos) << error;
  EXPECT_LT(took, 5.0);  // no inflation at all: the declared size decides
}

TEST(TorchHostile, ZipBombWithALyingHeaderStopsAtTheLimit) {
  // The headers claim 100 bytes; the stream inflates to 512 MiB. The reader counts what arrives
  // and stops once past kMaxProgramJsonBytes (256 MiB), whatever the header says.
  const auto path = temp_file("liar");
  write_deflate_bomb(path, kJson, 512 * kMiB, 100);
  const auto error = error_of([&] { (void)load_file(path); });
  EXPECT_NE(error.find(path.string()), std::string::npos) << error;
  EXPECT_NE(error.find("entry '" + kJson + "'"), std::string::npos) << error;
  EXPECT_EQ(error.find("<no error>"), std::string::npos);
}

TEST(TorchHostile, ADimensionOf2To62IsRejectedNamingTheTensor) {
  // x and relu: f32 [2^62, 2], 2^63 elements, past INT64_MAX (the element count wrapped to
  // INT64_MIN before); the first tensor built, the output of 'relu', is named.
  ProgramBuilder p;
  p.input("x", kF32, {std::int64_t{1} << 62, 2});
  p.call("torch.ops.aten.relu.default", {{"self", T("x")}}, "relu", kF32, {std::int64_t{1} << 62, 2});
  p.output("relu");
  const auto error = error_of([&] { (void)load_program(p.build()); });
  EXPECT_NE(error.find("node 'relu': tensor 'relu' (elements)"), std::string::npos) << error;
  EXPECT_NE(error.find("does not fit in 64 bits"), std::string::npos) << error;
}

TEST(TorchHostile, ASymbolicPowerOfATrillionIsNotATrillionMultiplications) {
  // s0 = 3 (x's hint). `s0**1000000000000` was evaluated by a loop of 10^12 wrapping
  // multiplications (a hang); by squaring it overflows int64 within 40 steps, so the expression
  // cannot be evaluated and its hint (7) is used, as for any expression this reader cannot evaluate.
  ProgramBuilder p;
  p.input("x", kF32, {sym("s0", 3), 8});
  p.input("y", kF32, {sym("s0**1000000000000", 7, false), 8});
  p.call("torch.ops.aten.relu.default", {{"self", T("y")}}, "relu", kF32, {sym("Pow(s0, 1000000000000)", 7, false), 8});
  p.output("relu");
  Workload w;
  const double took = seconds([&] { w = load_program(p.build()); });
  EXPECT_EQ(w.node_by_name("relu").outputs[0]->shape, (std::vector<std::int64_t>{7, 8}));
  EXPECT_LT(took, 5.0);
  // A power that fits is still exact: s0**3 = 27.
  ProgramBuilder q;
  q.input("x", kF32, {sym("s0", 3), 8});
  q.input("y", kF32, {sym("s0**3", 1, false), 8});
  q.call("torch.ops.aten.relu.default", {{"self", T("y")}}, "relu", kF32, {sym("s0**3", 1, false), 8});
  q.output("relu");
  EXPECT_EQ(load_program(q.build()).node_by_name("relu").outputs[0]->shape, (std::vector<std::int64_t>{27, 8}));
}

}  // namespace
