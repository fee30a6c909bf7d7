#include "stream/report/schedule_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "axis_ticks.hpp"
#include "lanes.hpp"
#include "stream/io/utf8.hpp"
#include "svg_text.hpp"
#include "timeline.hpp"

namespace stream::report {

namespace {

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}

constexpr double kLeft = 300, kWidth = 900, kLaneH = 20, kRowPad = 4, kTop = 64, kFont = 11;

// One picture: a slot header, one row per resource (as many lanes high as its bars need), a
// cycle axis under the rows and a legend. x is linear in cycles over one iteration.
class SchedulePicture {
 public:
  SchedulePicture(const pipeline::GroupResult& g, const hardware::Accelerator& acc)
      : g_(g), t_(detail::timeline(g, acc)), P_(std::max<double>(static_cast<double>(g.allocation.latency_per_iteration), 1)) {
    place_bars();
  }

  std::string svg() {
    const double bottom = row_top_.back();
    const double height = bottom + 90;
    o_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << fmt(kLeft + kWidth + 30) << "\" height=\"" << fmt(height)
       << "\" font-family=\"sans-serif\" font-size=\"" << kFont << "\">\n";
    title();
    slot_bands(bottom);
    rows();
    bars();
    axis(bottom);
    legend(bottom + 58);
    o_ << "</svg>\n";
    return o_.str();
  }

 private:
  double x_of(double t) const { return kLeft + kWidth * t / P_; }

  // Lanes per row in picture space: a bar is at least 1 px wide, so lanes are computed on the
  // drawn extent and bars of one lane never overlap on the page.
  void place_bars() {
    lane_.assign(t_.bars.size(), 0);
    row_top_.assign(t_.rows.size() + 1, kTop);
    for (std::size_t k = 0; k < t_.rows.size(); ++k) {
      std::vector<std::size_t> mine;
      std::vector<detail::Interval> spans;
      for (std::size_t b = 0; b < t_.bars.size(); ++b)
        if (t_.bars[b].row == k) {
          mine.push_back(b);
          spans.push_back({x_of(t_.bars[b].start), x_of(t_.bars[b].start) + width_of(t_.bars[b])});
        }
      const auto lanes = detail::assign_lanes(spans);
      for (std::size_t j = 0; j < mine.size(); ++j) lane_[mine[j]] = lanes[j];
      row_top_[k + 1] = row_top_[k] + kLaneH * detail::lane_count(lanes) + 2 * kRowPad;
    }
  }

  double width_of(const detail::Bar& b) const { return std::max(1.0, x_of(b.start + b.duration) - x_of(b.start)); }

  void title() {
    const auto& a = g_.allocation;
    o_ << "<text x=\"10\" y=\"20\" font-size=\"14\">Group " << g_.index << ": one steady-state iteration of "
       << a.latency_per_iteration << " cycles in " << a.slot_latency.size() << " slot(s)</text>\n";
    o_ << "<text x=\"10\" y=\"38\" fill=\"#444\">" << g_.schedule.iterations << " iteration(s); consecutive iterations overlap by "
       << a.overlap << " cycles; total latency " << a.total_latency << " cycles</text>\n";
  }

  void slot_bands(double bottom) {
    const auto& a = g_.allocation;
    for (std::size_t s = 0; s < a.slot_latency.size(); ++s) {
      if (a.slot_latency[s] == 0) continue;
      const double x0 = x_of(static_cast<double>(t_.slot_start[s])), w = x_of(static_cast<double>(t_.slot_start[s + 1])) - x0;
      const std::string label = "slot " + std::to_string(s);
      o_ << "<g class=\"slot\"><title>slot " << s << ": " << a.slot_latency[s] << " cycles</title><rect x=\"" << fmt(x0)
         << "\" y=\"" << fmt(kTop - 14) << "\" width=\"" << fmt(w) << "\" height=\"" << fmt(bottom - kTop + 14) << "\" fill=\""
         << (s % 2 ? "#f4f4f4" : "#e8eef7") << "\" stroke=\"#bbb\"/>";
      if (detail::text_fits(label, kFont, w - 4))
        o_ << "<text x=\"" << fmt(x0 + 2) << "\" y=\"" << fmt(kTop - 3) << "\" fill=\"#555\">" << detail::xml_text(label) << "</text>";
      o_ << "</g>\n";
    }
  }

  void rows() {
    for (std::size_t k = 0; k < t_.rows.size(); ++k) {
      o_ << "<line x1=\"10\" x2=\"" << fmt(kLeft + kWidth) << "\" y1=\"" << fmt(row_top_[k + 1]) << "\" y2=\""
         << fmt(row_top_[k + 1]) << "\" stroke=\"#ccc\"/>\n";
      o_ << "<text class=\"row-label\" x=\"10\" y=\"" << fmt(row_top_[k] + kRowPad + 14) << "\">"
         << detail::xml_text(t_.rows[k].label) << "</text>\n";
    }
  }

  void bars() {
    for (std::size_t b = 0; b < t_.bars.size(); ++b) {
      const auto& bar = t_.bars[b];
      const double x = x_of(bar.start), full = width_of(bar), w = full > 3 ? full - 1 : full;  // a gap between back-to-back bars
      const double y = row_top_[bar.row] + kRowPad + kLaneH * lane_[b] + 1;
      char dur[32];
      std::snprintf(dur, sizeof dur, "%.6g", bar.duration);
      o_ << "<g><title>" << detail::xml_text(bar.label) << ": " << (bar.transfer ? "transfer, " : "computation, ") << dur
         << " cycles, slot " << bar.slot << "</title><rect class=\"bar\" x=\"" << fmt(x) << "\" y=\"" << fmt(y) << "\" width=\""
         << fmt(w) << "\" height=\"" << fmt(kLaneH - 2) << "\" fill=\"" << (bar.transfer ? "#b5523b" : "#3a7d44")
         << "\" stroke=\"#fff\" stroke-width=\"0.5\"/>";
      if (detail::text_fits(bar.label, kFont, w - 6))
        o_ << "<text x=\"" << fmt(x + 3) << "\" y=\"" << fmt(y + 13) << "\" fill=\"#fff\">" << detail::xml_text(bar.label)
           << "</text>";
      o_ << "</g>\n";
    }
  }

  void axis(double y) {
    o_ << "<g class=\"axis\"><line x1=\"" << fmt(kLeft) << "\" x2=\"" << fmt(kLeft + kWidth) << "\" y1=\"" << fmt(y) << "\" y2=\""
       << fmt(y) << "\" stroke=\"#333\"/>\n";
    for (double t : detail::axis_ticks(P_, 10)) {
      o_ << "<line class=\"tick\" x1=\"" << fmt(x_of(t)) << "\" x2=\"" << fmt(x_of(t)) << "\" y1=\"" << fmt(y) << "\" y2=\""
         << fmt(y + 5) << "\" stroke=\"#333\"/><text class=\"tick-label\" x=\"" << fmt(x_of(t)) << "\" y=\"" << fmt(y + 17)
         << "\" text-anchor=\"middle\">" << detail::tick_text(t) << "</text>\n";
    }
    o_ << "<text x=\"" << fmt(kLeft + kWidth / 2) << "\" y=\"" << fmt(y + 34)
       << "\" text-anchor=\"middle\">clock cycles from the start of the iteration</text></g>\n";
  }

  void legend(double y) {
    o_ << "<rect x=\"10\" y=\"" << fmt(y - 10) << "\" width=\"12\" height=\"12\" fill=\"#3a7d44\"/><text x=\"28\" y=\"" << fmt(y)
       << "\">computation on a core: active latency (cycles)</text>\n";
    o_ << "<rect x=\"330\" y=\"" << fmt(y - 10) << "\" width=\"12\" height=\"12\" fill=\"#b5523b\"/><text x=\"348\" y=\""
       << fmt(y) << "\">transfer on a link: its contribution to the slot (cycles)</text>\n";
    o_ << "<text x=\"700\" y=\"" << fmt(y) << "\" fill=\"#555\">a name too long for its bar is left out</text>\n";
  }

  const pipeline::GroupResult& g_;
  detail::Timeline t_;
  double P_;
  std::vector<int> lane_;
  std::vector<double> row_top_;
  std::ostringstream o_;
};

}  // namespace

std::string schedule_svg(const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  return SchedulePicture(g, acc).svg();
}

}  // namespace stream::report
