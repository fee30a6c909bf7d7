// The SDK round trip a vendor makes: install Stream, build the out-of-tree example plugin against
// the installed package, and see the installed `stream` find it through STREAM_PLUGIN_PATH.
#include <gtest/gtest.h>

#include <runpath_entries.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

int run(const std::string& cmd) { return std::system((cmd + " > /dev/null 2>&1").c_str()); }

std::string capture(const std::string& cmd) {
  std::string out;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::array<char, 4096> buf{};
  while (pipe && fgets(buf.data(), buf.size(), pipe.get())) out += buf.data();
  return out;
}

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

}  // namespace

TEST(Sdk, OutOfTreePluginBuildsAgainstAnInstallAndLoads) {
  const fs::path tmp = fs::temp_directory_path() / ("stream-sdk-test-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  const auto prefix = tmp / "prefix";
  ASSERT_EQ(run("cmake --install " STREAM_BUILD_DIR " --prefix " + prefix.string()), 0);
  EXPECT_TRUE(fs::exists(prefix / "bin" / "stream"));
  EXPECT_TRUE(fs::exists(prefix / "include" / "stream" / "plugin" / "plugin.hpp"));
  EXPECT_TRUE(fs::exists(prefix / "include" / "stream" / "plugin" / "sdk_version.hpp"));
  EXPECT_TRUE(fs::exists(prefix / "lib" / "stream" / "plugins" / "onnx-frontend.stream-plugin.json"));
  EXPECT_TRUE(fs::exists(prefix / "share" / "stream" / "inputs"));

  const auto ex = tmp / "example";
  ASSERT_EQ(run("cmake -S " STREAM_SOURCE_DIR "/examples/custom-op-plugin -B " + ex.string() +
                " -G Ninja -DCMAKE_PREFIX_PATH=" + prefix.string()),
            0);
  ASSERT_EQ(run("cmake --build " + ex.string()), 0);

  const auto listing = capture("env -u STREAM_PLUGINS STREAM_PLUGIN_PATH=" + (ex / "plugins").string() + " " +
                               (prefix / "bin" / "stream").string() + " plugins --load --format json 2>/dev/null");
  const auto plugins = nlohmann::json::parse(listing);
  bool found = false;
  std::set<std::string> bundled;
  for (const auto& p : plugins) {
    if (p["bundled"].get<bool>()) bundled.insert(p["id"].get<std::string>());
    if (p["id"] == "example-custom-op") {
      found = true;
      EXPECT_EQ(p["status"], "loaded") << p.dump();
      EXPECT_EQ(p["priority"], 10);
      EXPECT_EQ(p["provides"]["onnx_ops"], nlohmann::json::array({"MyScale"}));
      ASSERT_EQ(p["provides"]["cost_backends"].size(), 1u) << p.dump();
      EXPECT_EQ(p["provides"]["cost_backends"][0]["name"], "my-vendor");
      // The installed StreamPlugin.cmake wrote the ABI fields the template leaves out, from the
      // installed plugin.hpp, which the library's descriptor also carries.
      EXPECT_EQ(p["abi"], "1.1") << p.dump();
      EXPECT_EQ(p["built_with"]["abi"], "1.1") << p.dump();
      EXPECT_EQ(p["built_with"]["stdlib"], "libstdc++ cxx11 abi") << p.dump();
    }
  }
  EXPECT_TRUE(found) << listing;
  EXPECT_EQ(bundled, (std::set<std::string>{"aie-backend", "blocks", "decompositions", "onnx-frontend", "torch-frontend"}));
  // Installed files and an out-of-tree plugin search no relative directory (stream, the core and
  // five bundled plugins are installed; the example adds one).
  int count = 0;
  for (const auto& b : stream_test::unsafe_runpath_entries(tmp, count)) ADD_FAILURE() << b;
  EXPECT_GE(count, 8);

  // The vendor backend costs what runs on its cores, and only that. SwiGLU 1/16/32: seq 1, so the
  // group is one tile; Silu and Elt_Mul iterate (seq 1, hidden 32): 1 x 32 = 32 output elements,
  // at one per cycle 32 cycles, from `my-vendor`. The Gemms run on `other_core`, which the vendor
  // backend does not claim: the built-in model costs them.
  const auto vendor = tmp / "vendor";
  write_vendor_case(vendor, prefix);
  const auto run_out = capture("env -u STREAM_PLUGINS STREAM_PLUGIN_PATH=" + (ex / "plugins").string() + " " +
                               (prefix / "bin" / "stream").string() + " run --hardware " + (vendor / "hardware.yaml").string() +
                               " --workload " + (prefix / "share" / "stream" / "inputs" / "workload" / "swiglu_1_16_32.onnx").string() +
                               " --mapping " + (vendor / "mapping.yaml").string() + " --out " + (vendor / "out").string() +
                               " --experiment-id v 2>&1; echo exit=$?");
  ASSERT_NE(run_out.find("exit=0"), std::string::npos) << run_out;
  const auto lut = slurp(vendor / "out" / "v" / "group_0" / "core_cost_lut.yaml");
  auto entry_of = [&](const std::string& node) {  // the node's one cost entry (one core each)
    const auto at = lut.find("- name: " + node + "\n");
    if (at == std::string::npos) return std::string();
    const auto from = lut.find("- {core_id:", at);
    return from == std::string::npos ? std::string() : lut.substr(from, lut.find('\n', from) - from);
  };
  for (const char* node : {"Silu", "Elt_Mul"}) {
    const auto e = entry_of(node);
    EXPECT_NE(e.find("core_id: 0,"), std::string::npos) << node << "\n" << lut;
    EXPECT_NE(e.find("latency_total: 32,"), std::string::npos) << node << "\n" << lut;
    EXPECT_NE(e.find("backend: my-vendor"), std::string::npos) << node << "\n" << lut;
  }
  // Each Gemm is 1 x 16 x 32 = 512 MACs on the 64-lane array: ideal 512 / 64 = 8 cycles, the
  // built-in model's figure (the vendor formula would give 512).
  for (const char* node : {"Gemm_Left", "Gemm_Right", "Gemm_Down"}) {
    const auto e = entry_of(node);
    EXPECT_NE(e.find("core_id: 1,"), std::string::npos) << node << "\n" << lut;
    EXPECT_NE(e.find("ideal_cycle: 8,"), std::string::npos) << node << "\n" << lut;
    EXPECT_NE(e.find("backend: zigzag"), std::string::npos) << node << "\n" << lut;
  }
  fs::remove_all(tmp);
}
