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

std::string layouts_yaml(const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  const auto prices = pipeline::layout_prices(g.schedule, g.allocation, acc);
  yamlx::YamlText out;
  out << YAML::BeginMap;
  out << YAML::Key << "layout_mode" << YAML::Value << "fixed";
  out << YAML::Key << "tensors" << YAML::Value << YAML::BeginSeq;
  for (const auto& p : prices) {
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
    out << YAML::Key << "chosen" << YAML::Value << "model";
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::Key << "conversions" << YAML::Value << YAML::Flow << std::vector<std::string>{};
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace stream::report
