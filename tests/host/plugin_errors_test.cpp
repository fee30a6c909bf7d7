// host/plugin_errors.hpp: what a non-bundled plugin registers is wrapped so that an error escaping
// it names the plugin, keeps its place and kind, and is named once when plugins call each other.
#include <gtest/gtest.h>

#include <plugin_errors.hpp>
#include <stdexcept>
#include <stream/error.hpp>

using namespace stream;
using namespace stream::host;

namespace {

// An ONNX parser that throws what `thrower` throws.
template <typename F>
OnnxParser throwing_parser(F thrower) {
  return [thrower](const OnnxNodeView&, OnnxParseContext&) -> std::vector<Node> { thrower(); return {}; };
}

class NoContext final : public OnnxParseContext {
 public:
  TensorPtr tensor(const std::string&) override { return nullptr; }
  TensorPtr new_tensor(const std::string&, DType, std::vector<std::int64_t>) override { return nullptr; }
};

// What calling `parser` throws, as a stream::Error.
Error thrown_by(const OnnxParser& parser) {
  NoContext context;
  try {
    (void)parser(OnnxNodeView{}, context);
  } catch (const Error& e) {
    return e;
  }
  return Error("nothing was thrown");
}

}  // namespace

TEST(PluginErrors, AnErrorFromAParserNamesThePluginAndKeepsPlaceAndKind) {
  const auto parser = naming_errors(throwing_parser([] {
    throw Error("expects one input", Location{.file = "m.onnx", .node = "Scale"}, ErrorKind::Internal);
  }), "vendor-ops");
  const auto e = thrown_by(parser);
  EXPECT_EQ(e.message(), "plugin 'vendor-ops': expects one input");
  EXPECT_EQ(e.where().file, "m.onnx");
  EXPECT_EQ(e.where().node, "Scale");
  EXPECT_EQ(e.kind(), ErrorKind::Internal);
  EXPECT_EQ(std::string(e.what()), "m.onnx: node 'Scale': plugin 'vendor-ops': expects one input");
}

TEST(PluginErrors, AnErrorThatNamesAPluginIsNotNamedAgain) {
  // A parser of plugin `inner`, called by a frontend of plugin `outer`: the innermost is named.
  const auto inner = naming_errors(throwing_parser([] { throw Error("bad attribute"); }), "inner");
  const auto outer = naming_errors(throwing_parser([&] {
    NoContext context;
    (void)inner(OnnxNodeView{}, context);
  }), "outer");
  EXPECT_EQ(thrown_by(outer).message(), "plugin 'inner': bad attribute");
}

TEST(PluginErrors, AnotherExceptionStaysWhatItWasAndNamesThePlugin) {
  const auto parser = naming_errors(throwing_parser([] { throw std::out_of_range("map::at"); }), "vendor-ops");
  NoContext context;
  try {
    (void)parser(OnnxNodeView{}, context);
    FAIL() << "nothing was thrown";
  } catch (const Error& e) {
    FAIL() << "became a stream::Error: " << e.what();
  } catch (const std::exception& e) {
    EXPECT_EQ(std::string(e.what()), "plugin 'vendor-ops': map::at");
  }
}

TEST(PluginErrors, ACostBackendsClaimsAndCostNameThePlugin) {
  CostBackend b;
  b.name = "vendor";
  b.claims = [](const hardware::Core&) -> bool { throw Error("unknown core kind"); };
  b.cost = [](const CostRequest&) -> cost::CostEntry { throw Error("cannot cost node 'n'"); };
  const auto named = naming_errors(b, "vendor-backend");
  hardware::Core core;
  try {
    (void)named.claims(core);
    FAIL() << "nothing was thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "plugin 'vendor-backend': unknown core kind");
  }
  EXPECT_EQ(named.name, "vendor");  // the rest of the backend is the plugin's
}
