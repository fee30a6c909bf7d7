// Shared helpers of the ONNX frontend tests: registries with the frontend registered as the
// plugin does it, model building, and compact views of a parsed node (loop sizes, iterator kinds).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <stream/error.hpp>
#include <stream/ir/iteration_space.hpp>
#include <stream/ir/op_kinds.hpp>
#include <stream/ir/workload.hpp>
#include <stream/registry/registries.hpp>

#include "model_builder.hpp"
#include "stream_onnx/onnx_frontend.hpp"

namespace onnx_test {

using namespace stream;
using namespace stream::onnx_testing;

inline Registries& registries() {
  static Registries r = [] {
    Registries reg;
    PluginRegistrar registrar(reg, Provenance{"onnx-frontend", 0, 0});
    onnx_frontend::register_onnx_frontend(registrar);
    return reg;
  }();
  return r;
}

inline std::string test_file(const std::string& suffix = "") {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "_" + info->name() + suffix + ".onnx";
}

inline Workload parse(const ModelBuilder& m, const FrontendOptions& options = {}) {
  return registries().load_workload(m.save_temp(test_file()), options);
}

inline Workload parse_file(const std::string& path) { return registries().load_workload(path); }

inline const Node& node(const Workload& w, const std::string& name) { return w.node_by_name(name); }

inline std::vector<std::int64_t> sizes(const Node& n) { return loop_sizes(n); }

/// Iterator kinds as a string of P/R/S, one letter per loop.
inline std::string kinds(const Node& n) {
  std::string s;
  for (auto k : iterator_kinds(n)) s += k == IteratorKind::Parallel ? 'P' : k == IteratorKind::Reduction ? 'R' : 'S';
  return s;
}

/// The map of operand i, printed (d0, ...) -> (...) without the domain part.
inline std::string map_of(const Node& n, std::size_t i) {
  auto s = n.operand_mapping.at(i).str();
  return s.substr(s.find("->") + 3);
}

inline std::vector<const Node*> computations(const Workload& w) {
  std::vector<const Node*> out;
  for (auto i : w.computation_nodes()) out.push_back(&w.node(i));
  return out;
}

// Node types, then per node the sorted loop extents and iterator kinds, sorted over nodes: what
// two spellings of the same computation must share.
inline std::vector<std::string> signature(const Workload& w) {
  std::vector<std::string> out;
  for (const auto* n : computations(w)) {
    auto s = sizes(*n);
    auto k = kinds(*n);
    std::vector<std::pair<std::int64_t, char>> loops;
    for (std::size_t i = 0; i < s.size(); ++i) loops.emplace_back(s[i], k[i]);
    std::sort(loops.begin(), loops.end());
    std::string sig = n->type + ":";
    for (auto [e, c] : loops) sig += std::to_string(e) + c + ",";
    out.push_back(sig);
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// The MACs the pipeline counts (metrics.cpp): the iteration-space points of every MAC-type node.
inline std::int64_t total_macs(const Workload& w) {
  std::int64_t macs = 0;
  for (const auto* n : computations(w)) {
    if (!is_mac_type(n->type)) continue;
    std::int64_t points = 1;
    for (auto s : sizes(*n)) points *= s;
    macs += points;
  }
  return macs;
}

/// The shape of graph output `name` as the workload holds it (empty when there is none).
inline std::vector<std::int64_t> graph_output_shape(const Workload& w, const std::string& name) {
  for (auto i : w.nodes_of_kind(NodeKind::OutEdge))
    if (w.node(i).inputs[0]->name == name) return w.node(i).inputs[0]->shape;
  return {};
}

inline std::size_t count_kind(const Workload& w, NodeKind k) { return w.nodes_of_kind(k).size(); }

/// True when some InEdge brings `value` into the workload.
inline bool has_in_edge(const Workload& w, const std::string& value) {
  for (auto i : w.nodes_of_kind(NodeKind::InEdge))
    if (w.node(i).outputs[0]->name == value) return true;
  return false;
}

/// Expects that loading throws a stream::Error whose message contains every fragment.
template <typename F>
void expect_error(F&& f, const std::vector<std::string>& fragments) {
  try {
    f();
    ADD_FAILURE() << "expected a stream::Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    for (const auto& frag : fragments) EXPECT_NE(msg.find(frag), std::string::npos) << "'" << frag << "' not in: " << msg;
  }
}

}  // namespace onnx_test
