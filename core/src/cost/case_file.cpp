#include "stream/cost/case_file.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "stream/error.hpp"

namespace stream::cost {

std::string disagreement(const CoreCost& got, const ExpectedCost& expected, double energy_rel_tol) {
  std::ostringstream os;
  os.precision(17);
  if (expected.status != status_name(got.status)) {
    os << "status " << status_name(got.status) << " (" << got.reason << "), expected " << expected.status;
    return os.str();
  }
  if (got.status == CostStatus::StreamError) return {};
  if (got.latency_total != expected.latency_total)
    os << "latency_total " << got.latency_total << " != " << expected.latency_total << "; ";
  if (got.ideal_cycle != expected.ideal_cycle) os << "ideal_cycle " << got.ideal_cycle << " != " << expected.ideal_cycle << "; ";
  if (got.ideal_temporal_cycle != expected.ideal_temporal_cycle)
    os << "ideal_temporal_cycle " << got.ideal_temporal_cycle << " != " << expected.ideal_temporal_cycle << "; ";
  if (std::fabs(got.energy_total - expected.energy_total) > energy_rel_tol * std::fabs(expected.energy_total))
    os << "energy_total " << got.energy_total << " != " << expected.energy_total << "; ";
  return os.str();
}

std::vector<CostCase> read_cost_cases(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open case file", Location{.file = path.string()});
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("invalid JSON: ") + e.what(), Location{.file = path.string()});
  }
  std::vector<CostCase> out;
  if (!doc.contains("cases") || !doc["cases"].is_array())
    throw Error("no 'cases' array", Location{.file = path.string()});
  for (const auto& c : doc["cases"]) {
    CostCase cc;
    try {
      cc.id = c.at("id").get<std::string>();
      cc.core = c.at("core").get<std::string>();
      cc.family = c.value("family", "");
      cc.tile.name = cc.id;
      cc.tile.op_type = c.value("op_type", "");
      const auto& layer = c.at("layer");
      for (const auto& d : layer.at("dims")) cc.tile.dims.push_back({d.value("name", ""), d.at("size").get<std::int64_t>()});
      for (const auto& o : layer.at("operands")) {
        TileOperand op;
        op.role = o.at("role").get<std::string>();
        op.precision_bits = o.at("precision_bits").get<int>();
        op.tensor_shape = o.value("tensor_shape", std::vector<std::int64_t>{});
        for (const auto& ax : o.at("axes")) {
          AxisExpr e;
          e.constant = ax.value("const", std::int64_t{0});
          for (const auto& t : ax.at("terms")) e.terms.push_back({t.at(0).get<int>(), t.at(1).get<std::int64_t>()});
          op.axes.push_back(std::move(e));
        }
        cc.tile.operands.push_back(std::move(op));
      }
      if (c.contains("expected")) {
        const auto& e = c["expected"];
        cc.expected.status = e.value("status", "");
        cc.expected.latency_total = e.value("latency_total", 0.0);
        cc.expected.energy_total = e.value("energy_total", 0.0);
        cc.expected.ideal_cycle = e.value("ideal_cycle", 0.0);
        cc.expected.ideal_temporal_cycle = e.value("ideal_temporal_cycle", 0.0);
        cc.expected.mac_spatial_utilization = e.value("mac_spatial_utilization", 0.0);
        if (e.contains("error") && e["error"].is_string()) cc.expected.error = e["error"].get<std::string>();
      }
      if (c.contains("timing")) cc.reference_seconds = c["timing"].value("wall_s_zigzag", 0.0);
    } catch (const nlohmann::json::exception& e) {
      throw Error(std::string("malformed case: ") + e.what(), Location{.file = path.string(), .node = cc.id});
    }
    out.push_back(std::move(cc));
  }
  return out;
}

}  // namespace stream::cost
