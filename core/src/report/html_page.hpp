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
/// The same page in three parts, for data written piece by piece: the head (up to the data's
/// opening <script> tag), then each piece of the compact JSON through embeddable(), then the tail.
[[nodiscard]] std::string html_page_head(const std::string& title, const std::string& data_id);
[[nodiscard]] std::string embeddable(const std::string& json);  ///< safe inside a <script> element
[[nodiscard]] std::string html_page_tail(const char* script);
}  // namespace stream::report::detail
