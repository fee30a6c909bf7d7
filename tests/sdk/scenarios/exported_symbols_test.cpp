// What libstream_core exports (core/include/stream/export.hpp, core/stream_core.map): the
// STREAM_API declarations of namespace stream, nothing of spdlog, fmt, yaml-cpp, nlohmann_json or
// CBC, and not the standard library's instantiations. Read with `nm -D --defined-only`, as a
// vendor would check it.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

// (type letter, demangled name) of every defined dynamic symbol of the built core.
std::vector<std::pair<char, std::string>> exported_symbols() {
  const std::string cmd = "nm -D --defined-only -C " STREAM_BUILD_DIR "/lib/libstream_core.so 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::vector<std::pair<char, std::string>> out;
  std::array<char, 8192> buf{};
  while (pipe && fgets(buf.data(), buf.size(), pipe.get())) {
    std::string line(buf.data());
    if (!line.empty() && line.back() == '\n') line.pop_back();
    // "<address> <type> <name>"
    std::istringstream in(line);
    std::string address, type;
    in >> address >> type;
    std::string symbol;
    std::getline(in >> std::ws, symbol);
    if (type.size() == 1) out.emplace_back(type[0], symbol);
  }
  return out;
}

// The entity a symbol belongs to: "stream::..." for a function or object, the type for type_info,
// vtables and thunks.
std::string entity(const std::string& symbol) {
  for (const char* prefix : {"typeinfo name for ", "typeinfo for ", "vtable for ", "VTT for ", "non-virtual thunk to "})
    if (symbol.rfind(prefix, 0) == 0) return symbol.substr(std::string(prefix).size());
  return symbol;
}

}  // namespace

TEST(CoreExports, OnlyNamespaceStreamAndNoThirdPartySymbols) {
  const auto symbols = exported_symbols();
  ASSERT_FALSE(symbols.empty()) << "nm printed nothing for " STREAM_BUILD_DIR "/lib/libstream_core.so";
  int foreign = 0;
  for (const auto& [type, symbol] : symbols) {
    const auto what = entity(symbol);
    // A stream:: function may take a yaml-cpp type (YamlText << YAML::Null); it is still Stream's.
    EXPECT_EQ(what.rfind("stream::", 0), 0u) << type << " " << symbol;
    for (const char* other : {"spdlog::", "fmt::", "YAML::", "nlohmann::", "Osi", "Cbc", "Clp", "Coin", "std::", "__gnu_cxx::"})
      if (what.rfind(other, 0) == 0) ++foreign;
  }
  EXPECT_EQ(foreign, 0);
}

// The bound: 1,721 defined dynamic symbols before the export macro (of them 605 std::, 137
// nlohmann::, 91 fmt::, 45 YAML::); 381 after it: the SDK's API plus what the host, the bundled
// plugins, the Python module, the benchmarks and the tests call; 407 with the data-layout model
// (Layout, run counting, transfer pricing, layout prices: their tests call them); 411 with
// `--layout choose` (parse_layout_mode for the host, cheapest_option, walk_layout and
// tensor_transfer_cycles for its tests); 424 with the sweep's run cache (RouteMemos, the
// CostCache class, topology_key) and the piecewise file writer (io::FileWriter) the host uses; 433
// with the rest of the layout choice (copy_runs, dma_conversion_links and _cost, blocked_layouts,
// tensor_transfer_price in place of tensor_transfer_cycles, timings_json: their tests call them); 437
// with the cost model's probe of a core (`stream validate`, the run and the sweep call it); 447
// with the estimates' reasons and shares (explain_fallback, CostFallbacks, fallback_note,
// first_mac_estimate, strict_message, share_percent: the host, Python and MCP report them) and the
// traffic model (traffic_cost, operand_elements, the cost profiles: its tests and the host); 451
// with the memory use (memory_use and fullest_core for the host and its tests, the evaluator's
// memory_bits, YamlText's Shortest numbers); 452 with dtype_names (the host's --cast check and the
// ONNX frontend's element-type error list the types); 459 with the sweep's points counted and made
// from their numbers (point_count, point_at, PointList: the host's sweep, merge and MCP tool) and
// YAML's nesting bound (find_deep_nesting, load_file: the readers and their tests); 467 with the
// atomic file writer (AtomicFileWriter, write_file_atomically, FileWriter::sync: the sweep's final
// files, the report's and their tests); 472 with OutOfMemory (its constructor, type info and
// vtable: the host and the plugins catch it by type to name the step that ran out); 473 with
// Accelerator::link_name (the one name of a link: the report, the trace, the result files); 477
// with the sweep's override check and typed axis values (check_overrides, typed_value: the host's
// sweep and submit) and the estimates' cast hint and file pointer (cast_hint,
// estimate_reasons_file: the host, Python and MCP say them); 480 with the compatibility mode
// (name and parse_compat of Compat: the host, Python, MCP and sweeps read --compat; and
// with_reference_memory_tiles, rule A3 for the pipeline's tests); 483 when an infeasible
// allocation became a value (allocate::mps_text, the model as text report/ writes;
// report::infeasible_model_path, the one spelling of group_<i>/model.mps that `stream run`
// names; SolveClocks::level_s and levels_s, a solve's clocks apart from its Allocation) while
// the layout and cost areas' moves renamed exports without adding any; 494 with the mapping
// optimizer (optimize_mapping, parse_optimize_spec, is_optimize_spec, name of an Objective,
// objective_of, still_improving, optimize_yaml, write_optimize_files: the host, Python, MCP, the
// sweep and the tests call them; allowed_cores, splittable_dims and mapped_cut_points, which the
// enumeration and fusion-group tests check on their own), the optimizer's report block changing
// write_results' and the summaries' signatures without adding any.
// A new export is a decision: raise the bound with it.
TEST(CoreExports, CountIsBounded) {
  const auto symbols = exported_symbols();
  EXPECT_LE(symbols.size(), 494u);
  EXPECT_GE(symbols.size(), 139u);  // what the host and the bundled plugins call, measured alone
}

// What a plugin built against the SDK binds to is there: the registrar, the IR builders, the parse
// context's type_info (a parser's context derives from it), the error type.
TEST(CoreExports, TheSdkApiIsExported) {
  std::set<std::string> names;
  for (const auto& [type, symbol] : exported_symbols()) names.insert(symbol.substr(0, symbol.find('(')));
  for (const char* needed :
       {"stream::PluginRegistrar::add_onnx_parser", "stream::PluginRegistrar::add_frontend",
        "stream::PluginRegistrar::add_cost_backend", "stream::make_computation", "stream::make_tensor",
        "stream::AffineMap::identity", "stream::matmul_node", "stream::add_graph_edges", "stream::Workload::Workload",
        "stream::Error::Error", "stream::OnnxNodeView::fail", "typeinfo for stream::OnnxParseContext",
        "typeinfo for stream::Error"})
    EXPECT_EQ(names.count(needed), 1u) << needed;
}
