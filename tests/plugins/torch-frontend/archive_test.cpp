// The .pt2 container and the JSON decoding: both archive layouts (and PyTorch's zip quirks), the
// format document's negative fixtures, tolerant JSON (null unions, bare Infinity, old fields),
// symbolic sizes, and the committed fixtures being exactly what the generator writes.
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <stream/ir/iteration_space.hpp>

#include "torch_models.hpp"
#include "torch_test_util.hpp"

using namespace stream;
using namespace stream::torch_testing;
using namespace torch_test;
namespace tf = stream::torch_frontend;

namespace {

const std::filesystem::path kFixtures = std::filesystem::path(STREAM_INPUTS_DIR) / "workload" / "torch";

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Node names, types and map strings in order: two loads are "the same workload" when equal.
std::vector<std::string> signature(const Workload& w) {
  std::vector<std::string> out;
  for (const auto& n : w.nodes()) {
    std::string s = n.name + "|" + n.type + "|" + std::string(name(n.kind));
    for (const auto& m : n.operand_mapping) s += "|" + m.str();
    for (std::size_t i = 0; i < n.num_operands(); ++i) {
      const auto& t = *n.operand(i);
      s += "|" + t.name + ":" + std::string(name(t.dtype));
      for (auto d : t.shape) s += "," + std::to_string(d);
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace

TEST(TorchArchive, CommittedFixturesAreWhatTheGeneratorWrites) {
  const auto dir = temp_dir() / "regen";
  std::filesystem::create_directories(dir);
  write_pt2(dir / "mlp.pt2", mlp_training().build(), ArchiveLayout::Pt2, {.pytorch_quirks = true});
  write_pt2(dir / "mlp_core_aten_legacy.pt2", mlp_core_aten().build(ProgramBuilder::Style::Old), ArchiveLayout::Legacy);
  write_pt2(dir / "mlp_dynamic.pt2", mlp_dynamic().build(), ArchiveLayout::Legacy);
  write_pt2(dir / "conv_block.pt2", conv_block().build(), ArchiveLayout::Pt2Torch28, {.pytorch_quirks = true});
  write_pt2(dir / "attention.pt2", attention().build(), ArchiveLayout::Pt2, {.pytorch_quirks = true});
  for (const char* f : {"mlp.pt2", "mlp_core_aten_legacy.pt2", "mlp_dynamic.pt2", "conv_block.pt2", "attention.pt2"}) {
    ASSERT_TRUE(std::filesystem::exists(kFixtures / f)) << f;
    EXPECT_EQ(slurp(kFixtures / f), slurp(dir / f)) << f << " is stale: run `cmake --build build --target gen-torch-fixtures`";
  }
}

TEST(TorchArchive, DetectsBothLayoutsAndThePrefix) {
  const auto pt2 = tf::read_archive(kFixtures / "mlp.pt2");
  EXPECT_EQ(pt2.layout, tf::ArchiveLayout::Pt2);
  EXPECT_EQ(pt2.prefix, "mlp");  // the file's stem, as torch.export.save names the folder
  EXPECT_EQ(pt2.model, "model");
  EXPECT_EQ(pt2.json_entry, "mlp/models/model.json");
  const auto legacy = tf::read_archive(kFixtures / "mlp_core_aten_legacy.pt2");
  EXPECT_EQ(legacy.layout, tf::ArchiveLayout::Legacy);
  EXPECT_EQ(legacy.json_entry, "serialized_exported_program.json");
  const auto t28 = tf::read_archive(kFixtures / "conv_block.pt2");
  EXPECT_EQ(t28.layout, tf::ArchiveLayout::Pt2);
  EXPECT_EQ(t28.json_entry, "conv_block/models/model.json");
  // The JSON read back is the program written, byte for byte.
  EXPECT_EQ(nlohmann::json::parse(pt2.json), mlp_training().build());
}

TEST(TorchArchive, PlainAndQuirkyZipsOfTheSameProgramLoadAlike) {
  const auto program = mlp_training().build();
  std::vector<std::vector<std::string>> sigs;
  for (auto layout : {ArchiveLayout::Legacy, ArchiveLayout::Pt2, ArchiveLayout::Pt2Torch28})
    for (bool quirks : {false, true}) {
      const auto path = temp_file("layout");
      write_pt2(path, program, layout, {.pytorch_quirks = quirks});
      sigs.push_back(signature(load_file(path)));
    }
  for (const auto& s : sigs) EXPECT_EQ(s, sigs.front());
  EXPECT_EQ(sigs.front().size(), 10u);  // 5 InEdges, 4 computations, 1 OutEdge
}

TEST(TorchArchive, FlatPt2WithoutPrefixAndADeflatedModelLoad) {
  const auto program = mlp_training().build();
  const auto flat = temp_file("flat");
  write_zip(flat, {{"models/model.json", program.dump()}, {"archive_format", "pt2"}, {"archive_version", "0"}});
  EXPECT_EQ(tf::read_archive(flat).prefix, "");
  EXPECT_EQ(load_file(flat).computation_nodes().size(), 4u);
  const auto deflated = temp_file("deflated");
  auto entries = archive_entries(program, ArchiveLayout::Pt2, deflated.stem().string());
  write_zip(deflated, entries, {.deflate = {deflated.stem().string() + "/models/model.json"}});
  EXPECT_EQ(load_file(deflated).computation_nodes().size(), 4u);
}

TEST(TorchArchive, NegativeArchivesFailWithClearMessages) {
  const auto program = mlp_training().build();
  // 1. archive_format is not pt2
  auto bad_format = temp_file("badformat");
  auto entries = archive_entries(program, ArchiveLayout::Pt2, bad_format.stem().string());
  for (auto& [n, d] : entries)
    if (n.ends_with("/archive_format")) d = "zip";
  write_zip(bad_format, entries);
  EXPECT_NE(error_of([&] { (void)load_file(bad_format); }).find("archive_format is 'zip'"), std::string::npos);
  // 2. an entry outside the prefix folder
  auto outside = temp_file("outside");
  entries = archive_entries(program, ArchiveLayout::Pt2, outside.stem().string());
  entries.emplace_back("stray.txt", "x");
  write_zip(outside, entries);
  EXPECT_NE(error_of([&] { (void)load_file(outside); }).find("'stray.txt' is outside the archive folder"), std::string::npos);
  // no models/*.json (an AOTInductor package)
  auto aoti = temp_file("aoti");
  write_zip(aoti, {{"archive_format", "pt2"}, {"data/aotinductor/model/model.so", "elf"}});
  EXPECT_NE(error_of([&] { (void)load_file(aoti); }).find("holds no ExportedProgram"), std::string::npos);
  // not a zip at all
  auto junk = temp_file("junk");
  std::ofstream(junk) << "not a zip";
  const auto msg = error_of([&] { (void)load_file(junk); });
  EXPECT_NE(msg.find("cannot open the archive"), std::string::npos) << msg;
  EXPECT_NE(msg.find(junk.string()), std::string::npos) << "the error names the file: " << msg;
}

TEST(TorchArchive, SchemaMajorNineAndUnknownDtypeAreErrors) {
  auto doc = mlp_training().build();
  doc["schema_version"] = {{"major", 9}, {"minor", 0}};
  EXPECT_NE(error_of([&] { (void)load_program(doc); }).find("schema major version 9"), std::string::npos);
  doc = mlp_training().build();
  doc["graph_module"]["graph"]["tensor_values"]["x"]["dtype"] = 27;
  const auto msg = error_of([&] { (void)load_program(doc); });
  EXPECT_NE(msg.find("tensor 'x' has element type code 27"), std::string::npos) << msg;
  doc = mlp_training().build();
  doc["graph_module"]["graph"]["tensor_values"]["x"]["dtype"] = kI64;
  EXPECT_NE(error_of([&] { (void)load_program(doc); }).find("LONG (int64)"), std::string::npos);
}

TEST(TorchArchive, Fp8DoubleAndUint16AreCostedAtTheirWidths) {
  // torch.export's ScalarType codes (torch/_export/serde/schema.py): DOUBLE 8, UINT16 28,
  // FLOAT8E4M3FN 29, FLOAT8E5M2 30, FLOAT8E4M3FNUZ 31, FLOAT8E5M2FNUZ 32.
  struct Code {
    int code;
    DType dtype;
    std::int64_t width;  ///< bits per element
  };
  const std::vector<Code> codes{{8, DType::f64, 64},      {28, DType::u16, 16},        {29, DType::f8e4m3fn, 8},
                                {30, DType::f8e5m2, 8}, {31, DType::f8e4m3fnuz, 8}, {32, DType::f8e5m2fnuz, 8}};
  for (const auto& [code, dtype, width] : codes) {
    auto doc = mlp_training().build();
    doc["graph_module"]["graph"]["tensor_values"]["x"]["dtype"] = code;
    const auto w = load_program(doc);
    const TensorPtr* x = nullptr;
    const auto tensors = w.tensors();
    for (const auto& t : tensors)
      if (t->name == "x") x = &t;
    ASSERT_NE(x, nullptr) << code;
    EXPECT_EQ((*x)->dtype, dtype) << code;
    EXPECT_EQ((*x)->size_bits(), (*x)->size_elements() * width) << code;
  }
}

TEST(TorchArchive, NullUnionsBareInfinityAndOldFieldsDecode) {
  // torch 2.2 wrote every union member, all null but one, and a bare integer schema version.
  auto doc = mlp_training().build();
  const auto reference = signature(load_program(doc));
  doc["schema_version"] = 2;
  for (auto& n : doc["graph_module"]["graph"]["nodes"])
    for (auto& a : n["inputs"]) {
      auto full = nlohmann::json{{"as_none", nullptr}, {"as_tensor", nullptr}, {"as_tensors", nullptr}, {"as_int", nullptr},
                                 {"as_ints", nullptr}, {"as_float", nullptr}};
      for (auto it = a["arg"].begin(); it != a["arg"].end(); ++it) full[it.key()] = it.value();
      a["arg"] = full;
    }
  EXPECT_EQ(signature(load_program(doc)), reference);

  // Older serializers wrote the non-JSON tokens Infinity / NaN; the current one writes strings.
  ProgramBuilder p;
  p.input("x", kF32, {4, 8});
  p.call("torch.ops.aten.add.Tensor", {{"self", T("x")}, {"other", F(0.5)}}, "add", kF32, {4, 8});
  p.call("torch.ops.aten.mul.Tensor", {{"self", T("add")}, {"other", {{"as_float", "-Infinity"}}}}, "mul", kF32, {4, 8});
  p.output("mul");
  auto text = p.build().dump();
  const auto at = text.find("0.5");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 3, "-Infinity");
  const auto w = tf::TorchExportFrontend().load_json(text, "inf.json", {}, Registries());
  EXPECT_EQ(computation_types(w), (std::vector<std::string>{"Add", "Mul"}));
  // a Python scalar in a Tensor slot is not an operand
  EXPECT_EQ(w.node_by_name("add").inputs.size(), 1u);
}

TEST(TorchArchive, SymbolicSizesTakeTheHintOrADimBinding) {
  const auto path = kFixtures / "mlp_dynamic.pt2";
  auto w = load_file(path);
  EXPECT_EQ(w.node_by_name("x").outputs[0]->shape, (std::vector<std::int64_t>{4, 16}));  // the hint
  EXPECT_EQ(loop_sizes(w.node_by_name("linear")), (std::vector<std::int64_t>{4, 32, 16}));
  FrontendOptions o;
  o.values["s0"] = "24";
  w = load_file(path, o);
  EXPECT_EQ(loop_sizes(w.node_by_name("linear")), (std::vector<std::int64_t>{24, 32, 16}));
  EXPECT_EQ(loop_sizes(w.node_by_name("relu_1")), (std::vector<std::int64_t>{24, 8}));
  o.values["s0"] = "100";  // range_constraints: [2, 64]
  EXPECT_NE(error_of([&] { (void)load_file(path, o); }).find("above its range constraint max 64"), std::string::npos);
  o.values["s0"] = "many";
  EXPECT_NE(error_of([&] { (void)load_file(path, o); }).find("is not an integer"), std::string::npos);

  // Compound expressions in both the srepr and the str() form follow the binding.
  ProgramBuilder p;
  p.input("x", kF32, {sym("s0", 3), 8});
  p.input("y", kF32, {sym("Mul(Integer(2), Symbol('s0', integer=True, positive=True))", 6, false), 8});
  p.call("torch.ops.aten.relu.default", {{"self", T("y")}}, "relu", kF32, {sym("2*s0", 6, false), 8});
  p.output("relu");
  auto wp = load_program(p.build());
  EXPECT_EQ(wp.node_by_name("relu").outputs[0]->shape, (std::vector<std::int64_t>{6, 8}));
  FrontendOptions o5;
  o5.values["s0"] = "5";
  wp = load_program(p.build(), o5);
  EXPECT_EQ(wp.node_by_name("relu").outputs[0]->shape, (std::vector<std::int64_t>{10, 8}));
  EXPECT_EQ(wp.node_by_name("x").outputs[0]->shape, (std::vector<std::int64_t>{5, 8}));

  // No hint and no binding: the error says how to give one.
  auto doc = p.build();
  doc["graph_module"]["graph"]["tensor_values"]["x"]["sizes"][0]["as_expr"]["hint"] = nullptr;
  doc["graph_module"]["graph"]["tensor_values"]["y"]["sizes"][0]["as_expr"]["hint"] = nullptr;
  doc["graph_module"]["graph"]["tensor_values"]["relu"]["sizes"][0]["as_expr"]["hint"] = nullptr;
  EXPECT_NE(error_of([&] { (void)load_program(doc); }).find("--dim s0=<size>"), std::string::npos);
}

TEST(TorchArchive, FrontendClaimsPt2AndTheManifestDeclaresIt) {
  tf::TorchExportFrontend f;
  EXPECT_EQ(f.name(), "torch_export");
  EXPECT_TRUE(f.can_load("model.pt2"));
  EXPECT_TRUE(f.can_load("/x/MODEL.PT2"));
  EXPECT_FALSE(f.can_load("model.onnx"));
  EXPECT_FALSE(f.can_load("model.pt"));
  // The manifest's provides must match what the plugin registers, or lazy loading misses it.
  const auto manifest = nlohmann::json::parse(slurp(STREAM_TORCH_MANIFEST));
  EXPECT_EQ(manifest["provides"]["frontends"],
            nlohmann::json::parse(R"([{"name": "torch_export", "extensions": [".pt2"]}])"));
  Registries reg;
  PluginRegistrar registrar(reg, Provenance{"torch-frontend", 0, 0});
  tf::register_torch_frontend(registrar);
  ASSERT_EQ(registrar.registered().size(), 1u);
  EXPECT_EQ(registrar.registered()[0].second, "torch_export");
  EXPECT_EQ(reg.frontend_for(kFixtures / "mlp.pt2").name(), "torch_export");
  EXPECT_EQ(reg.load_workload(kFixtures / "mlp.pt2").computation_nodes().size(), 4u);
  EXPECT_THROW((void)reg.frontend_for("model.unknownformat"), Error);
}

TEST(TorchArchive, SetGradAndAutocastWrappersAreInlined) {
  ProgramBuilder p;
  p.input("x", kF32, {4, 8});
  auto doc = p.build();
  auto& g = doc["graph_module"]["graph"];
  const auto meta = g["tensor_values"]["x"];
  // torch.no_grad() inside forward: the training IR wraps the block in a higher-order op whose
  // subgraph has its own placeholders (x_1) and value names (relu collides with nothing here,
  // add does with the outer graph: inlining renames it).
  nlohmann::json sub = {{"inputs", {T("x_1")}},
                        {"outputs", {T("add")}},
                        {"nodes",
                         {{{"target", "torch.ops.aten.relu.default"}, {"inputs", {{{"name", "self"}, {"arg", T("x_1")}}}},
                           {"outputs", {T("relu")}}, {"metadata", nlohmann::json::object()}},
                          {{"target", "torch.ops.aten.add.Tensor"},
                           {"inputs", {{{"name", "self"}, {"arg", T("relu")}}, {{"name", "other"}, {"arg", T("x_1")}}}},
                           {"outputs", {T("add")}}, {"metadata", nlohmann::json::object()}}}},
                        {"tensor_values", {{"x_1", meta}, {"relu", meta}, {"add", meta}}},
                        {"sym_int_values", nlohmann::json::object()},
                        {"sym_bool_values", nlohmann::json::object()}};
  g["nodes"] = {{{"target", "torch.ops.higher_order.wrap_with_set_grad_enabled"},
                 {"inputs", {{{"name", ""}, {"arg", B(false)}},
                             {{"name", ""}, {"arg", {{"as_graph", {{"name", "submod_1"}, {"graph", sub}}}}}},
                             {{"name", ""}, {"arg", T("x")}}}},
                 {"outputs", {T("getitem")}}, {"metadata", nlohmann::json::object()}},
                {{"target", "torch.ops.aten.add.Tensor"}, {"inputs", {{{"name", "self"}, {"arg", T("getitem")}}, {{"name", "other"}, {"arg", T("x")}}}},
                 {"outputs", {T("add")}}, {"metadata", nlohmann::json::object()}}};
  g["tensor_values"]["getitem"] = meta;
  g["tensor_values"]["add"] = meta;
  g["outputs"] = {T("add")};
  doc["graph_module"]["signature"]["output_specs"] = {{{"user_output", {{"arg", T("add")}}}}};
  const auto w = load_program(doc);
  EXPECT_EQ(computation_types(w), (std::vector<std::string>{"Relu", "Add", "Add"}));
  const auto& inner_add = w.node_by_name("getitem/add");
  EXPECT_EQ(inner_add.inputs[0]->name, "getitem/relu");
  EXPECT_EQ(inner_add.inputs[1]->name, "x");  // the placeholder is bound to the call's argument
  EXPECT_EQ(w.node_by_name("add").inputs[0]->name, "getitem/add");
}

TEST(TorchArchive, AMultiModelArchiveLoadsTheChosenModel) {
  const auto path = temp_file("multi");
  const auto stem = path.stem().string();
  write_zip(path, {{stem + "/models/encoder.json", mlp_training().build().dump()},
                   {stem + "/models/decoder.json", conv_block().build().dump()},
                   {stem + "/archive_format", "pt2"}});
  const auto msg = error_of([&] { (void)load_file(path); });
  EXPECT_NE(msg.find("several models (encoder, decoder)"), std::string::npos) << msg;
  FrontendOptions o;
  o.values["model"] = "decoder";
  EXPECT_EQ(computation_types(load_file(path, o)), (std::vector<std::string>{"Conv", "Relu", "Conv", "Add", "Relu"}));
  o.values["model"] = "nope";
  EXPECT_NE(error_of([&] { (void)load_file(path, o); }).find("has no model 'nope'"), std::string::npos);
}
