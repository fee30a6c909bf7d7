#include "stream/report/layouts_file.hpp"

#include <algorithm>

#include "stream/layout/prices.hpp"
#include "stream/yaml/yaml_text.hpp"

namespace stream::report {

namespace {

// The run's choice for a tensor of the group: by its name, or as the tensor a conversion wrote.
const layout::LayoutChoice* choice_of(const pipeline::RunResult& r, const std::string& tensor) {
  for (const auto& c : r.layout.choices) {
    if (c.tensor == tensor) return &c;
    const auto& o = c.chosen_option();
    if (o.converts() && layout::converted_name(c.tensor, o.layout, c.shape.size()) == tensor) return &c;
  }
  return nullptr;
}

// A DMA conversion's two sides: runs, descriptors and cycles of the read and of the write.
void dma_sides_yaml(yamlx::YamlText& out, const layout::DmaConversionCost& d, const hardware::Accelerator& acc) {
  out << YAML::Key << "dma_link" << YAML::Value << acc.link_name(d.link);
  auto side = [&](const char* key, const auto& cost) {
    out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "runs" << YAML::Value << cost.runs;
    out << YAML::Key << "descriptors" << YAML::Value << cost.descriptors;
    out << YAML::Key << "cycles" << YAML::Value << cost.cycles;
    out << YAML::EndMap;
  };
  side("read", d.read);
  side("write", d.write);
}

void option_yaml(yamlx::YamlText& out, const layout::LayoutOption& o, std::size_t rank, const hardware::Accelerator& acc) {
  out << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "from" << YAML::Value << o.from;
  out << YAML::Key << "layout" << YAML::Value << o.layout.str(rank);
  out << YAML::Key << "transfer_cycles" << YAML::Value << o.transfer_cycles;
  out << YAML::Key << "transfer_energy" << YAML::Value << o.transfer_energy;
  if (o.converts()) {
    out << YAML::Key << "conversion" << YAML::Value << layout::name(o.conversion);
    out << YAML::Key << "written" << YAML::Value << o.written.str(rank);
    if (o.dma) dma_sides_yaml(out, *o.dma, acc);
  }
  if (o.converts() && !o.conversion_priced) {
    out << YAML::Key << "conversion_cycles" << YAML::Value << "not priced: its transfers alone are no cheaper";
  } else {
    if (o.converts()) {
      out << YAML::Key << "conversion_cycles" << YAML::Value << o.conversion_cycles;
      out << YAML::Key << "conversion_energy" << YAML::Value << o.conversion_energy;
    }
    out << YAML::Key << "total" << YAML::Value << o.total();
    out << YAML::Key << "energy" << YAML::Value << o.total_energy();
  }
  out << YAML::EndMap;
}

void options_yaml(yamlx::YamlText& out, const layout::LayoutChoice& c, const hardware::Accelerator& acc) {
  out << YAML::Key << "options" << YAML::Value << YAML::BeginSeq;
  for (const auto& o : c.options) option_yaml(out, o, c.shape.size(), acc);
  out << YAML::EndSeq;
}

// "reader scores", "reader scores (conversion)" (on a core), "reader scores (DMA conversion)".
std::string chosen_text(const layout::LayoutOption& o) {
  switch (o.conversion) {
    case layout::Conversion::Core: return o.from + " (conversion)";
    case layout::Conversion::Dma: return o.from + " (DMA conversion)";
    case layout::Conversion::None: break;
  }
  return o.from;
}

void tensor_yaml(yamlx::YamlText& out, const layout::TensorLayoutPrice& p, const layout::LayoutChoice* choice,
                 const hardware::Accelerator& acc) {
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
    out << YAML::Key << "chosen" << YAML::Value << chosen_text(o);
    if (choice->tensor != p.tensor) out << YAML::Key << "converted_from" << YAML::Value << choice->tensor;
    options_yaml(out, *choice, acc);
  }
  out << YAML::EndMap;
}

// The run's conversions (groups on a core, then those on the DMA) whose input or output this
// group moves, with their cost.
void conversions_yaml(yamlx::YamlText& out, const pipeline::RunResult& r, const std::vector<layout::TensorLayoutPrice>& prices,
                      const hardware::Accelerator& acc) {
  auto moved = [&](const std::string& a, const std::string& b) {
    return std::any_of(prices.begin(), prices.end(), [&](const auto& p) { return p.tensor == a || p.tensor == b; });
  };
  auto head = [&](const std::string& tensor, const std::string& to, const std::string& layout, const char* engine) {
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "node" << YAML::Value << layout::conversion_node_name(tensor);
    out << YAML::Key << "engine" << YAML::Value << engine;
    out << YAML::Key << "tensor" << YAML::Value << tensor;
    out << YAML::Key << "to" << YAML::Value << to;
    out << YAML::Key << "layout" << YAML::Value << layout;
  };
  out << YAML::Key << "conversions" << YAML::Value << YAML::BeginSeq;
  for (const auto& g : r.groups) {
    if (g.converts.empty()) continue;
    const auto* c = choice_of(r, g.converts);
    if (c == nullptr) continue;
    const auto& o = c->chosen_option();
    const std::string to = layout::converted_name(c->tensor, o.layout, c->shape.size());
    if (!moved(to, c->tensor)) continue;
    head(c->tensor, to, o.layout.str(c->shape.size()), "core");
    out << YAML::Key << "group" << YAML::Value << g.index;
    out << YAML::Key << "cycles" << YAML::Value << g.allocation.total_latency;
    out << YAML::Key << "energy" << YAML::Value << g.energy.total();
    out << YAML::EndMap;
  }
  for (const auto& d : r.layout.dma_conversions) {
    if (!moved(d.to, d.tensor)) continue;
    head(d.tensor, d.to, d.layout.str(d.shape.size()), "dma");
    out << YAML::Key << "before_group" << YAML::Value << d.before_group;
    out << YAML::Key << "cycles" << YAML::Value << d.cost.cycles;
    out << YAML::Key << "energy" << YAML::Value << d.cost.energy;
    dma_sides_yaml(out, d.cost, acc);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

}  // namespace

std::string layouts_yaml(const pipeline::RunResult& r, const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  static const std::vector<layout::TensorLayoutPrice> kNone;
  const auto& prices = g.layout_prices ? *g.layout_prices : kNone;  // priced by the run
  yamlx::YamlText out;
  out << YAML::BeginMap;
  out << YAML::Key << "layout_mode" << YAML::Value << layout::name(r.layout.mode);
  out << YAML::Key << "tensors" << YAML::Value << YAML::BeginSeq;
  for (const auto& p : prices) tensor_yaml(out, p, choice_of(r, p.tensor), acc);
  out << YAML::EndSeq;
  if (r.layout.mode == layout::LayoutMode::Fixed)
    out << YAML::Key << "conversions" << YAML::Value << YAML::Flow << std::vector<std::string>{};
  else
    conversions_yaml(out, r, prices, acc);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace stream::report
