// schedule.svg of real runs, read back with expat: a cycle axis with evenly spaced round ticks,
// cores in numeric order then link/bus rows, bars that never overlap on a lane, labels that fit
// their bar (else only the bar's <title>), quantities with units, no "hover" in a static picture.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "report_runs.hpp"
#include "xml_dom.hpp"

namespace fs = std::filesystem;
using stream::test::XmlElement;

namespace {

// Width a label of n characters needs at least at font-size 11: sans-serif fonts advance about
// 0.5 em per character on average, so a label drawn in a narrower bar spills out of it.
double min_label_width(const std::string& utf8) {
  std::size_t n = 0;
  for (char c : utf8)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return 0.5 * 11 * static_cast<double>(n);
}

struct Picture {
  std::string text;
  stream::test::XmlDocument doc;
};

Picture load(const fs::path& file) {
  Picture p;
  p.text = stream::test::read(file);
  p.doc = stream::test::parse_xml(p.text);
  return p;
}

void check_axis(const XmlElement& root, double period) {
  const XmlElement* axis = nullptr;
  root.walk([&](const XmlElement& e) {
    if (e.attr("class") == "axis") axis = &e;
  });
  ASSERT_NE(axis, nullptr) << "no cycle axis";
  std::vector<double> x, t;
  std::string title;
  for (const auto& c : axis->children) {
    if (c->attr("class") == "tick-label") {
      x.push_back(c->num("x"));
      t.push_back(std::stod(c->text));
    } else if (c->name == "text") {
      title = c->text;
    }
  }
  EXPECT_NE(title.find("cycles"), std::string::npos) << "the axis does not say its unit";
  ASSERT_GE(t.size(), 3u);
  EXPECT_EQ(t.front(), 0);
  EXPECT_LE(t.back(), period);
  const double step = t[1] - t[0];
  // A round step: 1, 2 or 5 times a power of ten.
  const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
  EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9) << step;
  for (std::size_t i = 1; i < t.size(); ++i) {
    EXPECT_DOUBLE_EQ(t[i] - t[i - 1], step);
    // x is linear in cycles: the same pixels per cycle from the first tick to every other.
    EXPECT_NEAR((x[i] - x[0]) / t[i], (x[1] - x[0]) / t[1], 1e-3);
  }
  // The last tick is the last round number within the iteration.
  EXPECT_GT(t.back() + step, period);
}

void check_rows(const XmlElement& root, bool expect_links) {
  std::vector<std::string> labels;
  std::vector<double> ys;
  root.walk([&](const XmlElement& e) {
    if (e.attr("class") == "row-label") {
      labels.push_back(e.text);
      ys.push_back(e.num("y"));
    }
  });
  ASSERT_FALSE(labels.empty());
  EXPECT_TRUE(std::is_sorted(ys.begin(), ys.end()));
  int last_core = -1;
  bool in_links = false, any_link = false;
  for (const auto& l : labels) {
    if (l.rfind("core ", 0) == 0) {
      EXPECT_FALSE(in_links) << l << " after a link row";
      const int id = std::stoi(l.substr(5));
      EXPECT_GT(id, last_core) << "cores out of numeric order at " << l;
      last_core = id;
    } else {
      EXPECT_TRUE(l.rfind("link ", 0) == 0 || l.rfind("bus ", 0) == 0) << l;
      in_links = any_link = true;
    }
  }
  if (expect_links) {
    EXPECT_TRUE(any_link);
  }
}

// Bars on one lane (same y) never overlap; every bar has a tooltip; a drawn label fits.
void check_bars(const XmlElement& root) {
  struct R {
    double x, w, y;
  };
  std::vector<R> bars;
  root.walk([&](const XmlElement& g) {
    if (g.name != "g") return;
    const XmlElement* rect = g.child("rect");
    if (rect == nullptr || (rect->attr("class") != "bar" && g.attr("class") != "slot")) return;
    EXPECT_NE(g.child("title"), nullptr) << "a bar without a tooltip";
    if (const XmlElement* label = g.child("text")) {
      EXPECT_LE(min_label_width(label->text), rect->num("width")) << "label '" << label->text << "' spills out of its bar";
    }
    if (rect->attr("class") == "bar") bars.push_back({rect->num("x"), rect->num("width"), rect->num("y")});
  });
  ASSERT_FALSE(bars.empty());
  for (std::size_t a = 0; a < bars.size(); ++a)
    for (std::size_t b = a + 1; b < bars.size(); ++b) {
      if (bars[a].y != bars[b].y) continue;
      // 0.01 px: the file rounds coordinates to 2 decimals.
      EXPECT_TRUE(bars[a].x + bars[a].w <= bars[b].x + 0.011 || bars[b].x + bars[b].w <= bars[a].x + 0.011)
          << "bars at x=" << bars[a].x << " and x=" << bars[b].x << " overlap on y=" << bars[a].y;
    }
}

void check_picture(const fs::path& file, bool expect_links) {
  SCOPED_TRACE(file.string());
  const auto p = load(file);
  ASSERT_TRUE(p.doc.error.empty()) << p.doc.error;
  EXPECT_EQ(p.text.find("hover"), std::string::npos);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(p.text, m, std::regex("iteration of (\\d+) cycles")));
  const double period = std::stod(m[1]);
  EXPECT_TRUE(std::regex_search(p.text, std::regex("overlap by \\d+ cycles"))) << "the overlap has no unit";
  check_axis(*p.doc.root, period);
  check_rows(*p.doc.root, expect_links);
  check_bars(*p.doc.root);
}

}  // namespace

TEST(ScheduleSvg, DefaultRunHasAxisOrderedRowsAndNoOverlappingBars) {
  const auto run = stream::test::default_run("svg_default");
  check_picture(run / "group_0" / "schedule.svg", true);
}

TEST(ScheduleSvg, EveryGroupOfAMultiGroupRunHasAxisOrderedRowsAndNoOverlappingBars) {
  const auto run = stream::test::multi_group_run("svg_multi");
  const int groups = stream::test::group_count(run);
  ASSERT_EQ(groups, 10);
  for (int g = 0; g < groups; ++g) check_picture(run / ("group_" + std::to_string(g)) / "schedule.svg", true);
}
