// The SDK round trip a vendor makes: install Stream, build the three installed out-of-tree examples
// (an ONNX operator parser, a workload frontend, a cost backend) against the installed package with
// -Wall -Wextra -Wshadow -Werror, install them into a prefix of their own, and run a model through
// each with the installed `stream`, which finds them through STREAM_PLUGIN_PATH.
#include <gtest/gtest.h>

#include <model_builder.hpp>
#include <runpath_entries.hpp>
#include <stream_cli.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

using stream::test::run_command;

int run(const std::string& cmd) { return std::system((cmd + " > /dev/null 2>&1").c_str()); }

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A zigzag compute core: one 64-lane SIMD array with a 128 KiB scratchpad (the bundled simd.yaml
// without its operator list), named `name`.
void write_core(const fs::path& p, const std::string& name) {
  std::ofstream(p) << "name: " << name << R"(
type: zigzag.compute
memories:
  sram:
    size: 1048576
    r_cost: 60
    w_cost: 75
    area: 0
    latency: 1
    operands: [I1, I2, O]
    ports:
      - name: rw_port_1
        type: read_write
        bandwidth_min: 512
        bandwidth_max: 512
        allocation: ["I1, fh", "I2, fh", "O, fh", "O, fl"]
      - name: rw_port_2
        type: read_write
        bandwidth_min: 512
        bandwidth_max: 512
        allocation: ["I1, tl", "I2, tl", "O, tl", "O, th"]
    served_dimensions: [D1]
operational_array:
  unit_energy: 0.1
  unit_area: 0.01
  dimensions: [D1]
  sizes: [64]
)";
}

// Core 0 is the vendor's (`my_vendor_core`), core 1 the same core under another name (identical
// cores share cost-table entries; the vendor's claim must not travel with them), core 2 the
// bundled off-chip memory; the bundled SwiGLU 1/16/32 with its element-wise Silu and Elt_Mul on
// the vendor core and the three Gemms on the other one, in one group of one tile.
void write_vendor_case(const fs::path& dir, const fs::path& prefix) {
  fs::create_directories(dir / "cores");
  write_core(dir / "cores" / "vendor.yaml", "my_vendor_core");
  write_core(dir / "cores" / "other.yaml", "other_core");
  fs::copy_file(prefix / "share" / "stream" / "inputs" / "hardware" / "cores" / "offchip.yaml", dir / "cores" / "offchip.yaml");
  std::ofstream(dir / "hardware.yaml") << R"(name: vendor_pair
cores:
  0: cores/vendor.yaml
  1: cores/other.yaml
  2: cores/offchip.yaml
offchip_core_id: 2
unit_energy_cost: 0
core_connectivity:
  - {type: link, cores: [0, 1], bandwidth: 64}
  - {type: bus, cores: [0, 1, 2], bandwidth: 128}
)";
  std::ofstream(dir / "mapping.yaml") << R"(layers:
  - {name: Gemm_Left, core_allocation: [[1]]}
  - {name: Gemm_Right, core_allocation: [[1]]}
  - {name: Silu, core_allocation: [[0]]}
  - {name: Elt_Mul, core_allocation: [[0]]}
  - {name: Gemm_Down, core_allocation: [[1]]}
fused_groups:
  - name: all
    layers: [Gemm_Left, Gemm_Right, Silu, Elt_Mul, Gemm_Down]
    intra_core_tiling: [{dim: Gemm_Left.D0, tile: 1}]
)";
}

// The one cost entry of `node` in a run's group-0 cost table (one core each), or "".
std::string lut_entry(const fs::path& run_dir, const std::string& node) {
  const auto lut = slurp(run_dir / "group_0" / "core_cost_lut.yaml");
  const auto at = lut.find("- name: " + node + "\n");
  if (at == std::string::npos) return {};
  const auto from = lut.find("- {core_id:", at);
  return from == std::string::npos ? std::string() : lut.substr(from, lut.find('\n', from) - from);
}

// A mapping of `layers` (name, core) in one fused group of one tile along `tile_dim`.
void write_mapping(const fs::path& file, const std::vector<std::pair<std::string, int>>& layers, const std::string& tile_dim) {
  std::ofstream out(file);
  out << "layers:\n";
  for (const auto& [name, core] : layers) out << "  - {name: " << name << ", core_allocation: [[" << core << "]]}\n";
  out << "fused_groups:\n  - name: all\n    layers: [";
  for (std::size_t i = 0; i < layers.size(); ++i) out << (i ? ", " : "") << layers[i].first;
  out << "]\n    intra_core_tiling: [{dim: " << tile_dim << ", tile: 1}]\n";
}

// X[1, 32] -> MyScale (domain com.vendor, which no ONNX schema knows, so Y's shape is declared) -> Y.
fs::path write_my_scale_model(const fs::path& dir) {
  using namespace stream::onnx_testing;
  ModelBuilder m("vendor_scale");
  m.opset("com.vendor", 1);
  m.input("X", BF16, {1, 32}).output("Y", BF16, {1, 32}, true);
  m.node("MyScale", {"X"}, {"Y"}, "Scale", "com.vendor").attr("scale", 2.0f);
  const auto path = dir / "vendor_scale.onnx";
  m.save(path);
  return path;
}

// The installed stream with the vendor's plugin directory and no allow-list.
// `out` is stdout with stderr merged in, or stdout alone (JSON) with `json`.
struct InstalledStream {
  fs::path prefix, plugins;
  [[nodiscard]] stream::test::CliResult operator()(const std::string& args, bool json = false) const {
    return run_command("env -u STREAM_PLUGINS STREAM_PLUGIN_PATH=" + plugins.string() + " " +
                       (prefix / "bin" / "stream").string() + " " + args + (json ? " 2>/dev/null" : " 2>&1"));
  }
};

// The installed tree holds the SDK's headers only, and each compiles on its own under the strictest
// flags a vendor might use; the examples come with it.
void check_installed_sdk(const fs::path& prefix, const fs::path& tmp) {
  const auto include = prefix / "include" / "stream";
  for (const char* h : {"plugin/plugin.hpp", "plugin/sdk_version.hpp", "export.hpp", "version.hpp", "error.hpp",
                        "ir/node.hpp", "registry/registries.hpp", "registry/cost_backends.hpp",
                        "cost/cost_backend.hpp"})
    EXPECT_TRUE(fs::exists(include / h)) << h;
  // The pipeline's and the cost evaluator's internals, the solver and the YAML layer stay out.
  for (const char* h : {"cost/evaluation.hpp", "allocate/cbc_solver.hpp", "yaml/yaml_reader.hpp", "pipeline/run.hpp",
                        "report/summary.hpp"})
    EXPECT_FALSE(fs::exists(include / h)) << h;
  int headers = 0;
  for (const auto& e : fs::recursive_directory_iterator(include)) {
    if (e.path().extension() != ".hpp") continue;
    ++headers;
    const auto tu = tmp / "header.cpp";
    std::ofstream(tu) << "#include \"" << e.path().string() << "\"\n";
    const auto r = run_command("c++ -std=c++20 -fsyntax-only -Wall -Wextra -Wshadow -Wpedantic -Werror -I" +
                               (prefix / "include").string() + " " + tu.string() + " 2>&1");
    EXPECT_EQ(r.code, 0) << e.path() << "\n" << r.out;
  }
  // core's STREAM_PUBLIC_HEADERS (34: cost/cost_backend.hpp joined when the cost backends moved
  // to the cost area), version.hpp, plugin.hpp, sdk_version.hpp
  EXPECT_EQ(headers, 37);
  for (const char* f : {"CMakeLists.txt", "custom-op-plugin/plugin.cpp", "frontend-plugin/plugin.cpp",
                        "frontend-plugin/mlp.chain", "cost-backend-plugin/plugin.cpp"})
    EXPECT_TRUE(fs::exists(prefix / "share" / "stream" / "examples" / f)) << f;
}

// `stream plugins --load`: the three examples load, with the manifests' declarations and the ABI the
// installed StreamPlugin.cmake wrote (from the installed plugin.hpp, which the libraries' descriptors
// also carry); the bundled ones are the five of the install.
void check_listing(const InstalledStream& cli) {
  const auto listing = cli("plugins --load --format json", true);
  ASSERT_EQ(listing.code, 0) << listing.out;
  const auto plugins = nlohmann::json::parse(listing.out);
  std::set<std::string> bundled, loaded;
  for (const auto& p : plugins) {
    if (p["bundled"].get<bool>()) bundled.insert(p["id"].get<std::string>());
    if (p["bundled"].get<bool>() || p["status"] != "loaded") continue;
    loaded.insert(p["id"].get<std::string>());
    EXPECT_EQ(p["priority"], 10) << p.dump();
    EXPECT_EQ(p["abi"], "1.1") << p.dump();
    EXPECT_EQ(p["built_with"]["abi"], "1.1") << p.dump();
    EXPECT_EQ(p["built_with"]["stdlib"], "libstdc++ cxx11 abi") << p.dump();
    const auto& provides = p["provides"];
    if (p["id"] == "example-custom-op") {
      EXPECT_EQ(provides["onnx_ops"], nlohmann::json::array({"MyScale"})) << p.dump();
    } else if (p["id"] == "example-frontend") {
      EXPECT_EQ(provides["frontends"][0]["name"], "chain") << p.dump();
    } else {
      EXPECT_EQ(provides["cost_backends"][0]["name"], "my-vendor") << p.dump();
    }
  }
  EXPECT_EQ(loaded, (std::set<std::string>{"example-custom-op", "example-frontend", "example-cost-backend"})) << listing.out;
  EXPECT_EQ(bundled, (std::set<std::string>{"aie-backend", "blocks", "decompositions", "onnx-frontend", "torch-frontend"}));
}

// The hardware of write_vendor_case: core 0 is `my_vendor_core` (the backend's), core 1
// `other_core` (the built-in model's), both a 64-lane array.
void run_models(const InstalledStream& cli, const fs::path& vendor) {
  const auto hw = (vendor / "hardware.yaml").string();
  auto run_case = [&](const std::string& id, const fs::path& workload, const fs::path& mapping) {
    const auto r = cli("run --hardware " + hw + " --workload " + workload.string() + " --mapping " + mapping.string() +
                          " --out " + (vendor / "out").string() + " --experiment-id " + id);
    EXPECT_EQ(r.code, 0) << id << "\n" << r.out;
    return vendor / "out" / id;
  };
  // The parser: MyScale is element-wise over [1, 32]; on the vendor core the backend costs it at
  // one output element per cycle, 1 x 32 = 32 cycles.
  const auto parse = cli("parse --format json " + write_my_scale_model(vendor).string(), true);
  ASSERT_EQ(parse.code, 0) << parse.out;
  const auto nodes = nlohmann::json::parse(parse.out)["nodes"];
  const auto scale = std::find_if(nodes.begin(), nodes.end(), [](const auto& n) { return n["name"] == "Scale"; });
  ASSERT_NE(scale, nodes.end()) << parse.out;
  EXPECT_EQ((*scale)["type"], "MyScale");
  EXPECT_EQ((*scale)["loop_dims"].size(), 2u);
  write_mapping(vendor / "scale.yaml", {{"Scale", 0}}, "Scale.D0");
  const auto scale_run = run_case("parser", vendor / "vendor_scale.onnx", vendor / "scale.yaml");
  EXPECT_NE(lut_entry(scale_run, "Scale").find("latency_total: 32,"), std::string::npos) << lut_entry(scale_run, "Scale");
  EXPECT_NE(lut_entry(scale_run, "Scale").find("backend: my-vendor"), std::string::npos) << lut_entry(scale_run, "Scale");

  // The frontend: mlp.chain is x[1, 16] -> up (16 x 32) -> relu -> down (32 x 16). Each product is
  // 1 x 16 x 32 = 512 MACs, on the other core's 64 lanes ideally 512 / 64 = 8 cycles (the built-in
  // model); the relu, 1 x 32 elements on the vendor core, 32 cycles from the vendor backend.
  write_mapping(vendor / "chain.yaml", {{"up", 1}, {"act", 0}, {"down", 1}}, "up.D0");
  const auto chain_run = run_case("frontend", cli.prefix / "share" / "stream" / "examples" / "frontend-plugin" / "mlp.chain",
                                  vendor / "chain.yaml");
  for (const char* gemm : {"up", "down"}) {
    EXPECT_NE(lut_entry(chain_run, gemm).find("ideal_cycle: 8,"), std::string::npos) << gemm << " " << lut_entry(chain_run, gemm);
    EXPECT_NE(lut_entry(chain_run, gemm).find("backend: zigzag"), std::string::npos) << gemm << " " << lut_entry(chain_run, gemm);
  }
  EXPECT_NE(lut_entry(chain_run, "act").find("latency_total: 32,"), std::string::npos) << lut_entry(chain_run, "act");

  // The backend on the bundled SwiGLU 1/16/32 (seq 1, one tile): Silu and Elt_Mul iterate 1 x 32 =
  // 32 output elements, 32 cycles from `my-vendor` on core 0; each Gemm is 1 x 16 x 32 = 512 MACs,
  // ideally 8 cycles on core 1 from the built-in model (the vendor formula would give 512).
  const auto swiglu_run = run_case("backend", cli.prefix / "share" / "stream" / "inputs" / "workload" / "swiglu_1_16_32.onnx",
                                   vendor / "mapping.yaml");
  for (const char* node : {"Silu", "Elt_Mul"}) {
    const auto e = lut_entry(swiglu_run, node);
    EXPECT_NE(e.find("core_id: 0,"), std::string::npos) << node << " " << e;
    EXPECT_NE(e.find("latency_total: 32,"), std::string::npos) << node << " " << e;
    EXPECT_NE(e.find("backend: my-vendor"), std::string::npos) << node << " " << e;
  }
  for (const char* node : {"Gemm_Left", "Gemm_Right", "Gemm_Down"}) {
    const auto e = lut_entry(swiglu_run, node);
    EXPECT_NE(e.find("core_id: 1,"), std::string::npos) << node << " " << e;
    EXPECT_NE(e.find("ideal_cycle: 8,"), std::string::npos) << node << " " << e;
    EXPECT_NE(e.find("backend: zigzag"), std::string::npos) << node << " " << e;
  }
}

// Errors raised inside a vendor plugin name it, with the place the plugin gave; a file no frontend
// reads lists the frontends that exist (from the manifests, the vendor's included).
void check_errors(const InstalledStream& cli, const fs::path& vendor) {
  const auto bad = vendor / "bad.chain";
  std::ofstream(bad) << "input x 1 16\nconv c 3\n";
  const auto r = cli("parse " + bad.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error: " + bad.string() + ":2: plugin 'example-frontend': unknown statement 'conv' (expected "
                       "input, matmul or relu)"),
            std::string::npos)
      << r.out;
  const auto unknown = vendor / "model.xyz";
  std::ofstream(unknown) << "?";
  const auto none = cli("parse " + unknown.string());
  EXPECT_EQ(none.code, 2) << none.out;
  EXPECT_NE(none.out.find("frontends that exist: onnx (.onnx; plugin 'onnx-frontend'), torch_export (.pt2; plugin "
                          "'torch-frontend'), chain (.chain; plugin 'example-frontend')"),
            std::string::npos)
      << none.out;
}

}  // namespace


TEST(Sdk, ThreeOutOfTreePluginsBuildStrictAgainstAnInstallAndRunModels) {
  const fs::path tmp = fs::temp_directory_path() / ("stream-sdk-test-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const auto prefix = tmp / "prefix";
  ASSERT_EQ(run("cmake --install " STREAM_BUILD_DIR " --prefix " + prefix.string()), 0);
  EXPECT_TRUE(fs::exists(prefix / "bin" / "stream"));
  EXPECT_TRUE(fs::exists(prefix / "lib" / "stream" / "plugins" / "onnx-frontend.stream-plugin.json"));
  EXPECT_TRUE(fs::exists(prefix / "share" / "stream" / "inputs"));
  check_installed_sdk(prefix, tmp);

  // The installed examples, built as a vendor builds: no standard set (Stream::core carries C++20),
  // warnings as errors, then installed by their own `cmake --install`.
  const auto ex = tmp / "examples-build";
  const auto vendor_prefix = tmp / "vendor-prefix";
  const auto configure = run_command("cmake -S " + (prefix / "share" / "stream" / "examples").string() + " -B " + ex.string() +
                                     " -G Ninja -DCMAKE_PREFIX_PATH=" + prefix.string() +
                                     " '-DCMAKE_CXX_FLAGS=-Wall -Wextra -Wshadow -Werror' 2>&1");
  ASSERT_EQ(configure.code, 0) << configure.out;
  const auto build = run_command("cmake --build " + ex.string() + " 2>&1");
  ASSERT_EQ(build.code, 0) << build.out;
  ASSERT_EQ(run("cmake --install " + ex.string() + " --prefix " + vendor_prefix.string()), 0);
  const auto plugin_dir = vendor_prefix / "lib" / "stream" / "plugins";
  for (const char* id : {"example-custom-op", "example-frontend", "example-cost-backend"})
    EXPECT_TRUE(fs::exists(plugin_dir / (std::string(id) + ".stream-plugin.json"))) << id;

  const InstalledStream cli{prefix, plugin_dir};
  check_listing(cli);
  const auto vendor = tmp / "vendor";
  write_vendor_case(vendor, prefix);
  run_models(cli, vendor);
  check_errors(cli, vendor);

  // Installed files and the installed out-of-tree plugins search no relative directory (stream, the
  // core and five bundled plugins are installed; the examples add three).
  int count = 0;
  for (const auto& b : stream_test::unsafe_runpath_entries(tmp, count)) ADD_FAILURE() << b;
  EXPECT_GE(count, 10);
  if (!HasFailure()) fs::remove_all(tmp);
}
