// Structural deduplication (RunSpec::deduplicate, keyed by pipeline/structural_key.hpp): a group
// whose allocation problem equals an earlier group's up to names reuses its optimum. Every result
// file must be byte-identical to solving each group (`--no-dedup`), timings.* aside (clock
// readings).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "stream/pipeline/structural_key.hpp"
#include "stream_cli.hpp"

namespace fs = std::filesystem;
using stream::test::read;
using stream::test::run_stream;

namespace {

fs::path run_to(const std::string& name, const std::string& args) {
  const auto out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / ("dedup_" + name);
  fs::remove_all(out);
  const auto r = run_stream("run " + args + " --out " + out.string() + " --experiment-id exp", stream::test::Stderr::Discard);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  return out / "exp";
}

std::set<std::string> files_under(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out.insert(fs::relative(e.path(), dir).string());
  return out;
}

std::size_t reused(const fs::path& dir) {
  return nlohmann::json::parse(read(dir / "timings.json"))["phases"]["reused_allocations"].get<std::size_t>();
}

void expect_same_files(const std::string& name, const std::string& args, std::size_t min_reused) {
  const auto with = run_to(name, args), without = run_to(name + "_nodedup", args + " --no-dedup");
  const auto files = files_under(with);
  ASSERT_EQ(files, files_under(without)) << name;
  std::size_t compared = 0;
  for (const auto& f : files) {
    if (f == "timings.yaml" || f == "timings.json") continue;
    EXPECT_EQ(read(with / f), read(without / f)) << name << ": " << f;
    ++compared;
  }
  EXPECT_GT(compared, 10u) << name;
  EXPECT_GE(reused(with), min_reused) << name;  // the dedup did happen
  EXPECT_EQ(reused(without), 0u) << name;
}

}  // namespace

// decoder_stack with 8 layers: the fused stack cannot fit and is cut into 168 one-node groups
// (21 per layer); layers 1..6 repeat layer 0's problems, and so do the repeated projections within
// a layer, so at least 6 x 21 = 126 groups reuse an earlier optimum.
TEST(Dedup, DecoderStackResultFilesAreByteIdenticalToSolvingEachGroup) {
  expect_same_files("decoder8", "--block decoder_stack --param layers=8", 126);
}

// ResNet-18 (the exported fp32 model): the repeated basic blocks of a stage (layerN.1) give
// groups identical to an earlier one; every file equal, whatever is reused.
TEST(Dedup, ResNet18ResultFilesAreByteIdenticalToSolvingEachGroup) {
  expect_same_files("resnet18", std::string("--workload ") + STREAM_INPUTS_DIR + "/workload/exported/resnet18_op13.onnx", 0);
}

namespace {

stream::schedule::SteadyState tiny_state() {
  using namespace stream::schedule;
  SteadyState ss;
  SsTensor t;
  t.name = "a";
  t.bits = 1024;
  t.shape = {4, 16};
  t.dims = {0, 1};
  t.producer = 0;
  t.placements = {{0}, {1}};
  t.tile_bits = 256;
  ss.tensors.push_back(t);
  SsNode n;
  n.kind = SsKind::Compute;
  n.name = "conv_a";
  n.op_type = "Conv";
  n.outputs = {0};
  n.cores = {0};
  n.lut_latency = 100;
  n.active_latency = 100;
  n.slot = 0;
  ss.nodes.push_back(n);
  ss.max_slot = 0;
  return ss;
}

}  // namespace

// The key ignores names and nothing else: renaming keeps it, any figure the MILP reads changes it.
TEST(Dedup, AllocationKeyIgnoresNamesOnly) {
  const auto base = tiny_state();
  const stream::allocate::AllocateOptions o;
  const std::string key = stream::pipeline::allocation_key(base, o);
  auto renamed = base;
  renamed.nodes[0].name = "conv_b";
  renamed.tensors[0].name = "b";
  EXPECT_EQ(stream::pipeline::allocation_key(renamed, o), key);
  auto bits = base;
  bits.tensors[0].bits = 2048;
  EXPECT_NE(stream::pipeline::allocation_key(bits, o), key);
  auto latency = base;
  latency.nodes[0].lut_latency = 101;
  EXPECT_NE(stream::pipeline::allocation_key(latency, o), key);
  auto placement = base;
  placement.tensors[0].placements = {{1}, {0}};
  EXPECT_NE(stream::pipeline::allocation_key(placement, o), key);
  auto diagnosis = o;
  diagnosis.diagnosis = stream::allocate::Diagnosis::Memory;
  EXPECT_NE(stream::pipeline::allocation_key(base, diagnosis), key);
  // The constraint selection and the memory-tile columns change the model, so the key too.
  auto span = o;
  span.constraints.pipelining = stream::allocate::PipeliningModel::Span;
  EXPECT_NE(stream::pipeline::allocation_key(base, span), key);
  auto no_dma = o;
  no_dma.constraints.dma_channels = false;
  EXPECT_NE(stream::pipeline::allocation_key(base, no_dma), key);
  auto columns = o;
  columns.nb_cols_to_use = 8;
  EXPECT_NE(stream::pipeline::allocation_key(base, columns), key);
}
