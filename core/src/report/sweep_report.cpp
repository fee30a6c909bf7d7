#include "stream/report/sweep_report.hpp"


#include <nlohmann/json.hpp>

#include "html_page.hpp"
#include "stream/io/atomic_file.hpp"
#include "stream/io/utf8.hpp"

namespace stream::report {

namespace detail {
extern const char kSweepPageScript[];
}

// The page's data, {"rows": [...], "pareto": [...], "pareto_exact": [...]}, written row by row: a sweep of 10^4 points
// would otherwise hold every row parsed at once, several times the size of the page.
void write_sweep_report(const std::filesystem::path& path, const std::vector<std::string>& rows,
                        const std::vector<std::string>& pareto_ids, const std::vector<std::string>& exact_pareto_ids) {
  io::AtomicFileWriter page(path);  // a killed sweep leaves the previous page or none, not half of one
  page.write(detail::html_page_head("Stream sweep report", "sweep-data"));
  page.write("{\"rows\":[");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto row = nlohmann::ordered_json::parse(rows[i]);
    row.erase("wall_s");
    page.write((i ? "," : "") + detail::embeddable(io::dump_json(row, -1)));
  }
  page.write("],\"pareto\":" + detail::embeddable(io::dump_json(nlohmann::ordered_json(pareto_ids), -1)));
  page.write(",\"pareto_exact\":" + detail::embeddable(io::dump_json(nlohmann::ordered_json(exact_pareto_ids), -1)) + "}");
  page.write(detail::html_page_tail(detail::kSweepPageScript));
  page.commit();
}

}  // namespace stream::report
