// Names that are not UTF-8 (ONNX strings are unchecked bytes; a Latin-1 file name) reach every
// writer: each must still write a readable file or stream, with U+FFFD for the bad bytes, instead
// of nlohmann::json's type_error 316 ("internal error", exit 1, results half written).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include <stream/io/utf8.hpp>

#include <expat.h>

#include <memory>
#include <type_traits>

#include "model_builder.hpp"
#include "stream_cli.hpp"

namespace fs = std::filesystem;
using namespace stream::onnx_testing;
using stream::test::read;
using stream::test::run_stream;

namespace {

const std::string kTpu = std::string(STREAM_INPUTS_DIR) + "/hardware/tpu_like_quad_core.yaml";
const std::string kFffd = "\xEF\xBF\xBD";

fs::path scratch(const std::string& name) { return stream::test::fresh_scratch_dir("report", name); }

// One Conv whose node, input, weight and output names carry Latin-1 bytes (0xE9, 0xFF), a cut
// sequence (0xC3 then '_') and a lone continuation byte (0x80).
fs::path latin1_model() {
  ModelBuilder m("latin1_names");
  m.input("entr\xE9\xFF", F32, {1, 8, 8, 8}).initializer("poids\xC3_w", F32, {16, 8, 3, 3}).output("sortie\x80", F32);
  m.node("Conv", {"entr\xE9\xFF", "poids\xC3_w"}, {"sortie\x80"}, "conv\xE9").attr("pads", std::vector<std::int64_t>{1, 1, 1, 1});
  return m.save_temp("latin1_names.onnx");
}

// Every result file: the JSON ones parse, the YAML ones load, and all are valid UTF-8.
void expect_readable_results(const fs::path& dir) {
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const auto text = read(e.path());
    EXPECT_TRUE(stream::io::is_valid_utf8(text)) << e.path();
    if (e.path().extension() == ".json") {
      EXPECT_TRUE(nlohmann::json::accept(text)) << e.path();
    }
    if (e.path().extension() == ".yaml") {
      EXPECT_NO_THROW(YAML::Load(text)) << e.path();
    }
  }
}

}  // namespace

// Before: "internal error: [json.exception.type_error.316]" after the pipeline, exit 1, with only
// summary.yaml written. Now every file is written; the node's name appears with U+FFFD.
TEST(Utf8Names, RunWritesEveryResultFile) {
  const auto model = latin1_model();
  const auto out = scratch("utf8_run");
  const auto r = run_stream("run --workload " + model.string() + " --out " + out.string() + " --experiment-id exp");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* f : {"summary.json", "timings.json", "group_0/steady_state_trace.json", "group_0/core_cost_lut.yaml",
                        "group_0/mapping.yaml", "group_0/schedule.svg", "group_0/memory_accesses.yaml"})
    EXPECT_TRUE(fs::exists(out / "exp" / f)) << f;
  expect_readable_results(out / "exp");
  // "conv\xE9" is the node: 0xE9 followed by nothing that continues it -> "conv" U+FFFD.
  EXPECT_NE(read(out / "exp" / "group_0" / "core_cost_lut.yaml").find("conv" + kFffd), std::string::npos);
  EXPECT_NE(read(out / "exp" / "group_0" / "steady_state_trace.json").find("conv" + kFffd), std::string::npos);
}

// The commands that print JSON on stdout: each exits 0 with a document that parses and names
// the tensors with U+FFFD (0xE9 0xFF: two ill-formed bytes, two replacements).
TEST(Utf8Names, JsonOnStdoutParses) {
  const auto model = latin1_model().string();
  const std::string commands[] = {
      "parse " + model + " --format json",
      "validate --hardware " + kTpu + " --workload " + model + " --format json",
      "core-cost --hardware " + kTpu + " --workload " + model + " --format json",
  };
  for (const auto& c : commands) {
    const auto r = run_stream(c, stream::test::Stderr::Discard);
    ASSERT_EQ(r.code, 0) << c << "\n" << r.out;
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << c << "\n" << r.out;
    EXPECT_TRUE(stream::io::is_valid_utf8(r.out)) << c;
    EXPECT_NE(j.dump().find("conv" + kFffd), std::string::npos) << c;
  }
  const auto parsed = nlohmann::json::parse(run_stream(commands[0], stream::test::Stderr::Discard).out);
  EXPECT_EQ(parsed["nodes"][0]["operands"][0]["tensor"], "entr" + kFffd + kFffd) << parsed.dump(1);
}

// A model whose file name is Latin-1 ("mod\xE8le.onnx"): validate --format json reports it with
// U+FFFD. Before: type_error 316, exit 1, nothing on stdout.
TEST(Utf8Names, Latin1FileNameInValidateJson) {
  const auto dir = scratch("latin1_file");
  const auto model = dir / "mod\xE8le.onnx";
  fs::copy_file(std::string(STREAM_INPUTS_DIR) + "/workload/2conv_1_8_32_32_16_32_3.onnx", model);
  const auto r = run_stream("validate --hardware " + kTpu + " --workload '" + model.string() + "' --format json",
                            stream::test::Stderr::Discard);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["valid"], true);
  EXPECT_EQ(j["workload"]["file"], (dir / ("mod" + kFffd + "le.onnx")).string());
}

// Control characters in a node's name (C0 bytes are not allowed in XML 1.0, not even as
// character references) and the characters XML reserves: schedule.svg must still be a
// well-formed document (expat, an independent parser, reads it) and show the name with U+FFFD;
// the JSON and YAML files, written with escapes, must parse too.
TEST(Utf8Names, ScheduleSvgIsWellFormedXmlWithControlCharactersInNames) {
  ModelBuilder m("control_names");
  m.input("x", F32, {1, 8, 8, 8}).initializer("w", F32, {16, 8, 3, 3}).output("y", F32);
  m.node("Conv", {"x", "w"}, {"y"}, "c\x01<&\"\x1b\tv").attr("pads", std::vector<std::int64_t>{1, 1, 1, 1});
  const auto model = m.save_temp("control_names.onnx");
  const auto out = scratch("control_names");
  const auto r = run_stream("run --workload " + model.string() + " --out " + out.string() + " --experiment-id exp");
  ASSERT_EQ(r.code, 0) << r.out;
  expect_readable_results(out / "exp");
  const auto svg = read(out / "exp" / "group_0" / "schedule.svg");
  std::unique_ptr<std::remove_pointer_t<XML_Parser>, decltype(&XML_ParserFree)> parser(XML_ParserCreate("UTF-8"),
                                                                                         XML_ParserFree);
  const bool parsed = XML_Parse(parser.get(), svg.data(), static_cast<int>(svg.size()), 1) == XML_STATUS_OK;
  EXPECT_TRUE(parsed) << XML_ErrorString(XML_GetErrorCode(parser.get())) << " at line "
                      << XML_GetCurrentLineNumber(parser.get());
  // 0x01 and 0x1b -> U+FFFD; '<', '&', '"' as entities; the tab is allowed and kept.
  EXPECT_NE(svg.find("c" + kFffd + "&lt;&amp;&quot;" + kFffd + "\tv"), std::string::npos) << svg;
}
