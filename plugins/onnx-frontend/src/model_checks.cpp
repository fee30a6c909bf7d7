#include "model_checks.hpp"

#include "schema_lookup.hpp"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <queue>
#include <set>
#include <unordered_map>
#include <vector>

#include <stream/error.hpp>

namespace stream::onnx_frontend {
namespace {

class GraphChecker {
 public:
  GraphChecker(onnx::GraphProto& g, const std::map<std::string, std::int64_t>& opsets, const std::string& file)
      : g_(g), opsets_(opsets), file_(file) {}

  void run() {
    check_dims();
    index_producers();
    check_reads();
    for (const auto& n : g_.node()) {
      check_attributes(n);
      check_window(n);
    }
    sort_nodes();
  }

 private:
  [[noreturn]] void fail(const std::string& message, const std::string& node = "", const std::string& tensor = "") const {
    throw Error("malformed ONNX model: " + message, Location{.file = file_, .node = node, .operand = tensor});
  }

  // Negative extents are malformed; an extent 0 is a legal empty tensor (frontend.cpp drops its work).
  void check_dims() const {
    auto check = [&](const onnx::ValueInfoProto& v, const char* what) {
      if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) return;
      const auto& dims = v.type().tensor_type().shape().dim();
      for (int a = 0; a < dims.size(); ++a) {
        if (!dims[a].has_dim_value() || dims[a].dim_value() >= 0) continue;
        fail(std::string(what) + " '" + v.name() + "' declares extent " + std::to_string(dims[a].dim_value()) +
                 " on axis " + std::to_string(a) + " (extents cannot be negative)",
             "", v.name());
      }
    };
    for (const auto& v : g_.input()) check(v, "graph input");
    for (const auto& v : g_.output()) check(v, "graph output");
    for (const auto& v : g_.value_info()) check(v, "value_info");
    for (const auto& t : g_.initializer())
      for (int a = 0; a < t.dims_size(); ++a)
        if (t.dims(a) < 0)
          fail("initializer '" + t.name() + "' declares extent " + std::to_string(t.dims(a)) + " on axis " +
                   std::to_string(a) + " (extents cannot be negative)",
               "", t.name());
  }

  // Producers: -1 for graph inputs and initializers, else the node index.
  void index_producers() {
    for (const auto& v : g_.input()) producer_[v.name()] = -1;
    for (const auto& t : g_.initializer()) producer_[t.name()] = -1;
    for (int i = 0; i < g_.node_size(); ++i)
      for (const auto& o : g_.node(i).output()) {
        if (o.empty()) continue;
        auto [it, inserted] = producer_.emplace(o, i);
        if (inserted) continue;
        const auto& n = g_.node(i);
        if (it->second < 0)
          fail("node '" + n.name() + "' writes '" + o + "', which is already a graph input or initializer", n.name(), o);
        fail("value '" + o + "' is written by node '" + g_.node(it->second).name() + "' and by node '" + n.name() +
                 "' (every value must have exactly one producer)",
             n.name(), o);
      }
  }

  void check_reads() const {
    for (const auto& n : g_.node())
      for (const auto& i : n.input())
        if (!i.empty() && producer_.count(i) == 0)
          fail("node '" + n.name() + "' (" + n.op_type() + ") reads '" + i +
                   "', which is not a graph input, an initializer or any node's output",
               n.name(), i);
    for (const auto& o : g_.output())
      if (producer_.count(o.name()) == 0) fail("graph output '" + o.name() + "' is not produced by any node", "", o.name());
  }

  void check_attributes(const onnx::NodeProto& n) const {
    const auto domain = n.domain() == "ai.onnx" ? std::string() : n.domain();
    const auto op = opsets_.find(domain);
    if (!domain.empty() || op == opsets_.end()) return;  // only the default domain's schemas are known
    const auto* schema = LazySchemaRegistry::instance().GetSchema(n.op_type(), static_cast<int>(op->second), "");
    if (!schema) return;
    using T = onnx::AttributeProto;
    for (const auto& a : n.attribute()) {
      const auto it = schema->attributes().find(a.name());
      if (it == schema->attributes().end() || a.type() == T::UNDEFINED || a.type() == it->second.type) continue;
      // A scalar where a list is declared is accepted (as the reference does for axes).
      if ((a.type() == T::INT && it->second.type == T::INTS) || (a.type() == T::FLOAT && it->second.type == T::FLOATS))
        continue;
      fail("attribute '" + a.name() + "' of node '" + n.name() + "' (" + n.op_type() + ") is " +
               T::AttributeType_Name(a.type()) + ", but " + n.op_type() + " declares it " +
               T::AttributeType_Name(it->second.type),
           n.name());
    }
  }

  // ONNX shape inference divides by strides and dilations (SIGFPE on 0) and trusts kernel_shape,
  // so a window op's geometry is checked before it runs. ConvTranspose's too: a negative stride
  // can make its inferred output extent 0, which would pass for a legal empty tensor (its parser
  // checks the rest of its geometry).
  void check_window(const onnx::NodeProto& n) const {
    static const std::set<std::string> window_ops = {"Conv",   "ConvInteger", "QLinearConv", "ConvTranspose",
                                                     "AveragePool", "MaxPool",     "LpPool"};
    if (!(n.domain().empty() || n.domain() == "ai.onnx") || window_ops.count(n.op_type()) == 0) return;
    for (const auto& a : n.attribute()) {
      const bool pads = a.name() == "pads";  // ONNX: "each value must be greater than or equal to 0"
      if (!pads && a.name() != "strides" && a.name() != "dilations" && a.name() != "kernel_shape") continue;
      const std::int64_t least = pads ? 0 : 1;
      const bool scalar = a.type() == onnx::AttributeProto::INT;
      for (int k = 0; k < (scalar ? 1 : a.ints_size()); ++k) {
        const auto v = scalar ? a.i() : a.ints(k);
        if (v >= least) continue;
        fail("attribute '" + a.name() + "' of node '" + n.name() + "' (" + n.op_type() + ") has " + std::to_string(v) +
                 (pads ? " at position " : " on spatial axis ") + std::to_string(k) + " (each entry must be at least " +
                 std::to_string(least) + ")",
             n.name());
      }
    }
  }

  // Kahn's algorithm taking the lowest original index first, so that a sorted graph keeps its order.
  void sort_nodes() {
    const int count = g_.node_size();
    std::vector<int> pending(static_cast<std::size_t>(count), 0);
    std::vector<std::vector<int>> readers(static_cast<std::size_t>(count));
    bool sorted = true;
    for (int i = 0; i < count; ++i)
      for (const auto& in : g_.node(i).input()) {
        const auto p = in.empty() ? -1 : producer_.at(in);
        if (p < 0) continue;
        ++pending[static_cast<std::size_t>(i)];
        readers[static_cast<std::size_t>(p)].push_back(i);
        sorted = sorted && p < i;
      }
    if (sorted) return;
    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (int i = 0; i < count; ++i)
      if (pending[static_cast<std::size_t>(i)] == 0) ready.push(i);
    std::vector<int> order;
    while (!ready.empty()) {
      const int i = ready.top();
      ready.pop();
      order.push_back(i);
      for (int r : readers[static_cast<std::size_t>(i)])
        if (--pending[static_cast<std::size_t>(r)] == 0) ready.push(r);
    }
    if (static_cast<int>(order.size()) != count) report_cycle(pending);
    google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
    for (int i : order) *nodes.Add() = g_.node(i);
    g_.mutable_node()->Swap(&nodes);
  }

  // Walks back from a node left unsorted along inputs whose producers are also left: a cycle.
  [[noreturn]] void report_cycle(const std::vector<int>& pending) const {
    int cur = static_cast<int>(std::find_if(pending.begin(), pending.end(), [](int p) { return p > 0; }) - pending.begin());
    std::vector<int> path;
    std::vector<int> seen_at(pending.size(), -1);
    while (seen_at[static_cast<std::size_t>(cur)] < 0) {
      seen_at[static_cast<std::size_t>(cur)] = static_cast<int>(path.size());
      path.push_back(cur);
      for (const auto& in : g_.node(cur).input()) {
        const auto p = in.empty() ? -1 : producer_.at(in);
        if (p >= 0 && pending[static_cast<std::size_t>(p)] > 0) {
          cur = p;
          break;
        }
      }
    }
    // path[k + 1] produces what path[k] reads: the data flows backwards along the path.
    const auto& first = g_.node(cur).name();
    std::string names = "'" + first + "'";
    for (auto k = path.size() - 1; k > static_cast<std::size_t>(seen_at[static_cast<std::size_t>(cur)]); --k)
      names += " -> '" + g_.node(path[k]).name() + "'";
    fail("the graph has a cycle: " + names + " -> '" + first + "' (each node reads an output of the one before it)", first);
  }

  onnx::GraphProto& g_;
  const std::map<std::string, std::int64_t>& opsets_;
  const std::string& file_;
  std::unordered_map<std::string, int> producer_;  // lookups only
};

}  // namespace

void check_and_sort_graph(onnx::GraphProto& graph, const std::map<std::string, std::int64_t>& opsets,
                          const std::string& file) {
  GraphChecker(graph, opsets, file).run();
}

}  // namespace stream::onnx_frontend
