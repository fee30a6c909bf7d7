#include "stream/report/schedule_svg.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "resources.hpp"
#include "stream/report/utf8.hpp"

namespace stream::report {

namespace {
// Text for an XML 1.0 element or attribute. Names are raw bytes from the models: ill-formed UTF-8
// and the C0 control characters other than tab, LF and CR (which XML 1.0 forbids even as
// character references) become U+FFFD, so the file always parses.
std::string esc(const std::string& s) {
  std::string o;
  for (char c : to_valid_utf8(s)) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') o += "\xEF\xBF\xBD";
    else o += c;
  }
  return o;
}
std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}
}  // namespace

std::string schedule_svg(const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  const auto& ss = g.schedule;
  const auto& a = g.allocation;
  const auto res = detail::resources(g, acc);
  const double left = 260, width = 900, row_h = 28, top = 50;
  const double P = std::max<double>(static_cast<double>(a.latency_per_iteration), 1);
  const double height = top + row_h * static_cast<double>(res.size()) + 60;
  auto x_of = [&](double t) { return left + width * t / P; };
  std::vector<double> start(a.slot_latency.size() + 1, 0);
  for (std::size_t s = 0; s < a.slot_latency.size(); ++s) start[s + 1] = start[s] + static_cast<double>(a.slot_latency[s]);
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << fmt(left + width + 20) << "\" height=\"" << fmt(height)
    << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  o << "<text x=\"10\" y=\"20\" font-size=\"14\">Group " << g.index << ": one steady-state iteration, "
    << a.latency_per_iteration << " cycles; " << ss.iterations << " iteration(s), overlap " << a.overlap << ", total "
    << a.total_latency << " cycles</text>\n";
  for (std::size_t s = 0; s < a.slot_latency.size(); ++s) {
    if (a.slot_latency[s] == 0) continue;
    o << "<rect x=\"" << fmt(x_of(start[s])) << "\" y=\"" << fmt(top - 14) << "\" width=\"" << fmt(x_of(start[s + 1]) - x_of(start[s]))
      << "\" height=\"" << fmt(row_h * static_cast<double>(res.size()) + 14) << "\" fill=\"" << (s % 2 ? "#f4f4f4" : "#e8eef7")
      << "\" stroke=\"#bbb\"/>\n";
    o << "<text x=\"" << fmt(x_of(start[s]) + 2) << "\" y=\"" << fmt(top - 3) << "\" fill=\"#555\">slot " << s << " ("
      << a.slot_latency[s] << ")</text>\n";
  }
  for (std::size_t k = 0; k < res.size(); ++k) {
    const double y = top + row_h * static_cast<double>(k);
    o << "<text x=\"10\" y=\"" << fmt(y + 18) << "\">" << esc(res[k].label) << "</text>\n";
  }
  auto bar = [&](std::size_t row, double t0, double dur, const std::string& label, const char* colour) {
    const double y = top + row_h * static_cast<double>(row) + 4;
    const double w = std::max(1.0, x_of(t0 + dur) - x_of(t0));
    o << "<g><title>" << esc(label) << " (" << static_cast<long long>(dur) << " cycles)</title><rect x=\"" << fmt(x_of(t0))
      << "\" y=\"" << fmt(y) << "\" width=\"" << fmt(w) << "\" height=\"" << fmt(row_h - 8) << "\" fill=\"" << colour
      << "\" stroke=\"#333\"/>";
    if (w > 40) o << "<text x=\"" << fmt(x_of(t0) + 3) << "\" y=\"" << fmt(y + 14) << "\" fill=\"#fff\">" << esc(label) << "</text>";
    o << "</g>\n";
  };
  for (std::size_t i = 0; i < ss.nodes.size() && !a.slot_latency.empty(); ++i) {
    const auto& n = ss.nodes[i];
    if (n.slot < 0) continue;
    const double t0 = start[static_cast<std::size_t>(n.slot)];
    for (std::size_t k = 0; k < res.size(); ++k) {
      if (n.kind == schedule::SsKind::Compute && res[k].is_core &&
          std::find(n.cores.begin(), n.cores.end(), res[k].id) != n.cores.end())
        bar(k, t0, static_cast<double>(n.active_latency), n.name, "#3a7d44");
      if (n.kind == schedule::SsKind::Transfer && !res[k].is_core && a.plan[i] >= 0) {
        const auto& links = n.plans[static_cast<std::size_t>(a.plan[i])].links;
        if (std::find(links.begin(), links.end(), res[k].id) != links.end())
          bar(k, t0, a.transfer_contribution[i], n.name, "#b5523b");
      }
    }
  }
  o << "<text x=\"10\" y=\"" << fmt(height - 20) << "\" fill=\"#555\">green: computation (active latency), red: transfer "
    << "(contribution to its slot); hover a bar for details</text>\n</svg>\n";
  return o.str();
}

}  // namespace stream::report
