#include "stream/report/html_report.hpp"

#include <nlohmann/json.hpp>

#include "report_data.hpp"
#include "stream/report/utf8.hpp"

namespace stream::report {

namespace detail {
extern const char kReportPageScript[];
}

namespace {

constexpr const char* kStyle = R"CSS(
body { font-family: sans-serif; font-size: 13px; margin: 16px; color: #222; background: #fff; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; border-bottom: 1px solid #ccc; } h3 { font-size: 14px; }
table { border-collapse: collapse; margin: 6px 0 12px 0; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { background: #f0f0f0; } tbody th { text-align: left; font-weight: normal; }
svg { display: block; font-size: 11px; } svg.schedule { cursor: grab; user-select: none; }
rect.bar.compute { fill: #3a7d44; stroke: #fff; stroke-width: 0.5; }
rect.bar.transfer { fill: #b5523b; stroke: #fff; stroke-width: 0.5; }
.hint { color: #666; font-size: 12px; } .controls button { margin-right: 4px; }
td.none { color: #aaa; }
)CSS";

// The JSON of the page's data, safe inside a <script> element: '<' only occurs inside JSON
// strings, where \u003c is the same character, so no "</script>" can end the element early.
std::string embeddable(const nlohmann::ordered_json& j) {
  std::string out;
  for (char c : dump_json(j, -1)) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

}  // namespace

std::string report_html(const pipeline::RunResult& r, const hardware::Accelerator& acc, const std::string& summary_json) {
  nlohmann::ordered_json data;
  data["summary"] = nlohmann::ordered_json::parse(summary_json);
  data["groups"] = nlohmann::ordered_json::array();
  for (const auto& g : r.groups) data["groups"].push_back(detail::group_report_data(g, acc));
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
          "style-src 'unsafe-inline'\">\n";
  html += "<title>Stream report</title>\n<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  html += "<h1>Stream report</h1>\n<div id=\"report\"></div>\n";
  html += "<noscript>This report draws its figures with JavaScript; the same figures are in summary.json and "
          "group_*/ beside this file.</noscript>\n";
  html += "<script type=\"application/json\" id=\"report-data\">" + embeddable(data) + "</script>\n";
  html += "<script>" + std::string(detail::kReportPageScript) + "</script>\n</body>\n</html>\n";
  return html;
}

}  // namespace stream::report
