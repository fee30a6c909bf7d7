// A workload frontend for a file format of the vendor's own, `.chain`: a chain of matrix products
// and element-wise activations over one bf16 activation, one statement a line.
//
//   input x 1 16      # the input: name, rows, columns
//   matmul up 32      # Y[rows, 32] = X[rows, 16] x up.weight[16, 32]
//   relu act          # element-wise, same shape
//   matmul down 16
//
// The frontend builds the body of affine nodes (matmul_node gives a matrix product's maps and loop
// names; an element-wise node has identity maps), then add_graph_edges wraps the body in InEdges
// (the input, every weight) and an OutEdge (the last value); the Workload constructor validates the
// graph. Every bad statement is a stream::Error naming the file and line.
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <stream/error.hpp>
#include <stream/ir/graph_edges.hpp>
#include <stream/ir/matmul_layout.hpp>
#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>

namespace {

namespace fs = std::filesystem;

// What the statements so far have built.
struct Chain {
  std::vector<stream::Node> body;
  std::vector<stream::GraphEdgeInput> inputs;  // the input, then the weights, in file order
  std::map<std::string, stream::TensorPtr> tensors;
  stream::TensorPtr last;  // the value the next statement reads

  stream::TensorPtr add(const std::string& name, std::vector<std::int64_t> shape) {
    auto t = stream::make_tensor(name, stream::DType::bf16, std::move(shape));
    tensors[name] = t;
    return t;
  }
};

std::int64_t positive(std::istringstream& words, const stream::Location& at, const char* what) {
  std::int64_t v = 0;
  if (!(words >> v) || v < 1) throw stream::Error(std::string("expected ") + what + ", a positive integer", at);
  return v;
}

// One statement; `at` is its file and line.
void statement(Chain& chain, const std::string& verb, std::istringstream& words, const stream::Location& at) {
  std::string node_name;
  if (!(words >> node_name)) throw stream::Error("'" + verb + "' needs a name", at);
  if (chain.tensors.count(node_name) != 0) throw stream::Error("the name '" + node_name + "' is used twice", at);
  if (verb == "input") {
    if (chain.last) throw stream::Error("a second 'input' (a chain has one)", at);
    const auto rows = positive(words, at, "the rows");
    chain.last = chain.add(node_name, {rows, positive(words, at, "the columns")});
    chain.inputs.push_back({.value = node_name});
    return;
  }
  if (!chain.last) throw stream::Error("'" + verb + "' before 'input'", at);
  if (verb == "matmul") {
    const auto columns = positive(words, at, "the output columns");
    auto w = chain.add(node_name + ".weight", {chain.last->shape[1], columns});
    auto y = chain.add(node_name, {chain.last->shape[0], columns});
    chain.body.push_back(stream::matmul_node(node_name, "Gemm", chain.last, w, y));
    chain.inputs.push_back({.value = w->name});
    chain.last = y;
  } else if (verb == "relu") {
    auto y = chain.add(node_name, chain.last->shape);
    const auto id = stream::AffineMap::identity(2);
    chain.body.push_back(stream::make_computation(node_name, "Relu", {chain.last}, {y}, {id, id}));
    chain.last = y;
  } else {
    throw stream::Error("unknown statement '" + verb + "' (expected input, matmul or relu)", at);
  }
}

class ChainFrontend final : public stream::WorkloadFrontend {
 public:
  [[nodiscard]] std::string name() const override { return "chain"; }
  [[nodiscard]] bool can_load(const fs::path& source) const override { return source.extension() == ".chain"; }

  [[nodiscard]] stream::Workload load(const fs::path& source, const stream::FrontendOptions& /*options*/,
                                      const stream::Registries& /*registries*/) const override {
    std::ifstream in(source);
    if (!in) throw stream::Error("cannot read the file", {.file = source.string()});
    Chain chain;
    std::string text;
    for (int line = 1; std::getline(in, text); ++line) {
      std::istringstream words(text.substr(0, text.find('#')));
      std::string verb;
      if (words >> verb) statement(chain, verb, words, {.file = source.string(), .line = line});
    }
    if (chain.body.empty()) throw stream::Error("no matmul or relu statement", {.file = source.string()});
    stream::GraphEdgeOptions edges;
    edges.inputs = chain.inputs;
    edges.outputs = {{"output", chain.last->name}};
    edges.tensor = [&chain](const std::string& value) { return chain.tensors.at(value); };
    return stream::Workload(stream::add_graph_edges(std::move(chain.body), edges));
  }
};

void register_plugin(stream::PluginRegistrar& registrar) { registrar.add_frontend(std::make_shared<ChainFrontend>()); }

}  // namespace

STREAM_PLUGIN("example-frontend", "1.0.0", register_plugin)
