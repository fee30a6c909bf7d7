#include "html_page.hpp"

#include "stream/io/utf8.hpp"

namespace stream::report::detail {

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
td.none { color: #aaa; } table.groups td:nth-child(2) { text-align: left; } table.results th { cursor: pointer; } tr.front td { background: #fde8e8; }
tr.estimated td:first-child::before { content: "\2248 "; color: #b36b00; } tr.estimated td { font-style: italic; }
)CSS";

}  // namespace

// '<' only occurs inside JSON strings, where \u003c is the same character, so no "</script>" can
// end the element early.
std::string embeddable(const std::string& json) {
  std::string out;
  out.reserve(json.size());
  for (char c : json) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

namespace {

std::string html_text(const std::string& s) {
  std::string o;
  for (char c : io::to_valid_utf8(s)) o += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return o;
}

}  // namespace

std::string html_page(const std::string& title, const std::string& data_id, const nlohmann::ordered_json& data,
                      const char* script) {
  return html_page_head(title, data_id) + embeddable(io::dump_json(data, -1)) + html_page_tail(script);
}

std::string html_page_head(const std::string& title, const std::string& data_id) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
          "style-src 'unsafe-inline'\">\n";
  html += "<title>" + html_text(title) + "</title>\n<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  html += "<h1>" + html_text(title) + "</h1>\n<div id=\"report\"></div>\n";
  html += "<noscript>This report draws its figures with JavaScript; the same figures are in the JSON and CSV files "
          "beside this file.</noscript>\n";
  return html + "<script type=\"application/json\" id=\"" + data_id + "\">";
}

std::string html_page_tail(const char* script) {
  return "</script>\n<script>" + std::string(script) + "</script>\n</body>\n</html>\n";
}

}  // namespace stream::report::detail
