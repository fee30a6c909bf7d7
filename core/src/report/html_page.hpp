// The frame of the report pages (a run's and a sweep's report.html): one self-contained HTML file
// with inline CSS, its figures as a JSON <script> element and an inline script that draws them,
// under a Content-Security-Policy that allows no network access at all.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace stream::report::detail {

/// `data` goes into <script type="application/json" id="`data_id`">, `script` after it.
[[nodiscard]] std::string html_page(const std::string& title, const std::string& data_id, const nlohmann::ordered_json& data,
                                    const char* script);
/// The same with the data already serialized as compact JSON (io::dump_json(data, -1)).
[[nodiscard]] std::string html_page(const std::string& title, const std::string& data_id, const std::string& data_json,
                                    const char* script);

}  // namespace stream::report::detail
