#include "stream/report/layouts_file.hpp"

#include <algorithm>

#include "stream/pipeline/layout_prices.hpp"
#include "stream/yaml/yaml_text.hpp"

namespace stream::report {

bool layouts_matter(const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  const bool dma = std::any_of(acc.connectivity.begin(), acc.connectivity.end(), [](const auto& c) { return c.dma.has_value(); });
  if (dma) return true;
  const auto& ts = g.workload.tensors();
  return std::any_of(ts.begin(), ts.end(), [](const auto& t) { return !t->layout.is_row_major(t->rank()); });
}

namespace {

// The run's choice for a tensor of the group: by its name, or as the tensor a conversion wrote.
const pipeline::LayoutChoice* choice_of(const pipeline::RunResult& r, const std::string& tensor) {
  for (const auto& c : r.layout_choices) {
    if (c.tensor == tensor) return &c;
    const auto& o = c.chosen_option();
    if (o.conversion && pipeline::converted_name(c.tensor, o.layout, c.shape.size()) == tensor) return &c;
  }
  return nullptr;
}

void options_yaml(yamlx::YamlText& out, const pipeline::LayoutChoice& c) {
  out << YAML::Key << "options" << YAML::Value << YAML::BeginSeq;
  for (const auto& o : c.options) {
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "from" << YAML::Value << o.from;
    out << YAML::Key << "layout" << YAML::Value << o.layout.str(c.shape.size());
    out << YAML::Key << "transfer_cycles" << YAML::Value << o.transfer_cycles;
    if (o.conversion && o.conversion_priced) out << YAML::Key << "conversion_cycles" << YAML::Value << o.conversion_cycles;
    if (o.conversion && !o.conversion_priced) out << YAML::Key << "conversion" << YAML::Value << "not priced: no cheaper than the model";
    else out << YAML::Key << "total" << YAML::Value << o.total();
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void tensor_yaml(yamlx::YamlText& out, const pipeline::TensorLayoutPrice& p, const pipeline::LayoutChoice* choice) {
  const std::size_t rank = p.shape.size();
  out << YAML::BeginMap;
  out << YAML::Key << "tensor" << YAML::Value << p.tensor;
  out << YAML::Key << "shape" << YAML::Value << YAML::Flow << p.shape;
  out << YAML::Key << "layout" << YAML::Value << p.layout.str(rank);
  out << YAML::Key << "transfers" << YAML::Value << YAML::Flow << p.transfers;
  out << YAML::Key << "candidates" << YAML::Value << YAML::BeginSeq;
  for (const auto& c : p.candidates) {
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "from" << YAML::Value << c.from;
    out << YAML::Key << "layout" << YAML::Value << c.layout.str(rank);
    out << YAML::Key << "cycles" << YAML::Value << c.cycles;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::Key << "cheapest" << YAML::Value << p.candidates.at(p.cheapest).from;
  if (choice == nullptr) {
    out << YAML::Key << "chosen" << YAML::Value << "model";
  } else {
    const auto& o = choice->chosen_option();
    out << YAML::Key << "chosen" << YAML::Value << (o.conversion ? o.from + " (conversion)" : o.from);
    if (choice->tensor != p.tensor) out << YAML::Key << "converted_from" << YAML::Value << choice->tensor;
    options_yaml(out, *choice);
  }
  out << YAML::EndMap;
}

// The run's conversion groups whose input or output this group moves, with their cost.
void conversions_yaml(yamlx::YamlText& out, const pipeline::RunResult& r, const std::vector<pipeline::TensorLayoutPrice>& prices) {
  out << YAML::Key << "conversions" << YAML::Value << YAML::BeginSeq;
  for (const auto& g : r.groups) {
    if (g.converts.empty()) continue;
    const auto* c = choice_of(r, g.converts);
    if (c == nullptr) continue;
    const auto& o = c->chosen_option();
    const std::string to = pipeline::converted_name(c->tensor, o.layout, c->shape.size());
    if (std::none_of(prices.begin(), prices.end(), [&](const auto& p) { return p.tensor == to || p.tensor == c->tensor; })) continue;
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "node" << YAML::Value << pipeline::conversion_node_name(c->tensor);
    out << YAML::Key << "group" << YAML::Value << g.index;
    out << YAML::Key << "tensor" << YAML::Value << c->tensor;
    out << YAML::Key << "to" << YAML::Value << to;
    out << YAML::Key << "layout" << YAML::Value << o.layout.str(c->shape.size());
    out << YAML::Key << "cycles" << YAML::Value << g.allocation.total_latency;
    out << YAML::Key << "energy" << YAML::Value << g.energy.total();
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

}  // namespace

std::string layouts_yaml(const pipeline::RunResult& r, const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  const auto prices = pipeline::layout_prices(g.schedule, g.allocation, acc);
  yamlx::YamlText out;
  out << YAML::BeginMap;
  out << YAML::Key << "layout_mode" << YAML::Value << pipeline::name(r.layout);
  out << YAML::Key << "tensors" << YAML::Value << YAML::BeginSeq;
  for (const auto& p : prices) tensor_yaml(out, p, choice_of(r, p.tensor));
  out << YAML::EndSeq;
  if (r.layout == pipeline::LayoutMode::Fixed)
    out << YAML::Key << "conversions" << YAML::Value << YAML::Flow << std::vector<std::string>{};
  else
    conversions_yaml(out, r, prices);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace stream::report
