// report.html in a real browser: Debian's headless Chromium loads the report of the default run
// and of the ten-group ResNet-18 run with no console message at all (a script error, a blocked
// resource or a CSP violation each log one), the page's script finishes (data-rendered="ok"),
// and a screenshot shows the first group's schedule and memory panels drawn: the colours of
// computation bars and of the memory chart's capacity line and occupancy are where the page says
// the panels are. A sweep's report (the bundled 32-point sweep) loads the same way, with its
// Pareto plot drawn. A run of the mapping optimizer shows its search: the candidates, the
// best-so-far steps, the automatic mapping's line and the front. Skipped, with a message, only when no chromium is installed (CI installs
// it: scripts/setup.sh).
#include <gtest/gtest.h>

#include <png.h>

#include <cstdlib>
#include <limits>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/report/write.hpp>

#include "../report_runs.hpp"

namespace fs = std::filesystem;

namespace {

std::string chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (fs::exists(p)) return p;
  return "";
}

// Runs headless Chromium on `page` with a fresh profile; `mode` is --dump-dom or --screenshot=...
// Returns stdout; stderr (with the console log) goes to `log`.
std::string browse(const fs::path& page, const std::string& mode, const fs::path& scratch, const std::string& log) {
  const auto profile = scratch / ("profile-" + log);
  fs::remove_all(profile);
  const std::string cmd = "timeout 120 '" + chromium() +
                          "' --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking"
                          " --disable-component-update --disable-sync --hide-scrollbars --force-device-scale-factor=1"
                          " --enable-logging=stderr --v=0 --user-data-dir='" +
                          profile.string() + "' " + mode + " 'file://" + page.string() + "' 2> '" + (scratch / log).string() + "'";
  return stream::test::run_command(cmd).out;
}

struct Image {
  unsigned width = 0, height = 0;
  std::vector<unsigned char> rgb;
};

// libpng's simplified API: any PNG as 8-bit RGB.
Image read_png(const fs::path& file) {
  Image img;
  png_image p{};
  p.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&p, file.c_str())) return img;
  p.format = PNG_FORMAT_RGB;
  img.rgb.resize(PNG_IMAGE_SIZE(p));
  if (!png_image_finish_read(&p, nullptr, img.rgb.data(), 0, nullptr)) return Image{};
  img.width = p.width;
  img.height = p.height;
  return img;
}

// Pixels within `tol` of colour `hex` in the rectangle [x, y, w, h].
int count_colour(const Image& img, const std::vector<int>& r, unsigned hex, int tol = 24) {
  const int cr = static_cast<int>(hex >> 16), cg = static_cast<int>((hex >> 8) & 0xff), cb = static_cast<int>(hex & 0xff);
  int n = 0;
  for (int y = std::max(r[1], 0); y < std::min<int>(r[1] + r[3], static_cast<int>(img.height)); ++y)
    for (int x = std::max(r[0], 0); x < std::min<int>(r[0] + r[2], static_cast<int>(img.width)); ++x) {
      const auto* px = &img.rgb[(static_cast<std::size_t>(y) * img.width + static_cast<std::size_t>(x)) * 3];
      if (std::abs(px[0] - cr) <= tol && std::abs(px[1] - cg) <= tol && std::abs(px[2] - cb) <= tol) ++n;
    }
  return n;
}

// `dom_out`: the DOM after the script ran, for the caller's own checks.
void check_in_browser(const fs::path& run, const std::string& name, std::string* dom_out = nullptr) {
  SCOPED_TRACE(name);
  const auto page = run / "report.html";
  const auto scratch = run.parent_path();
  // 1. The DOM after the script ran, and the console.
  // The same width as the screenshot: the layout (where the panels are) depends on it.
  const auto dom = browse(page, "--window-size=1280,800 --virtual-time-budget=5000 --dump-dom", scratch, "dom.log");
  if (dom_out) *dom_out = dom;
  const auto log = stream::test::read(scratch / "dom.log");
  for (std::size_t p = log.find(":CONSOLE"); p != std::string::npos; p = log.find(":CONSOLE", p + 1))
    ADD_FAILURE() << "console message: " << log.substr(p, log.find('\n', p) - p);
  // The page's marks are attributes of <body> (its script's text also names them).
  std::smatch m;
  ASSERT_TRUE(std::regex_search(dom, m, std::regex("<body[^>]*>"))) << dom.substr(0, 2000);
  const std::string body = m[0];
  EXPECT_EQ(body.find("data-error"), std::string::npos) << "a script error: " << body;
  ASSERT_NE(body.find("data-rendered=\"ok\""), std::string::npos) << "the script did not finish:\n" << log;
  ASSERT_TRUE(std::regex_search(body, m, std::regex("data-panels=\"([^\"]*)\"")));
  const auto panels = nlohmann::json::parse(std::regex_replace(m[1].str(), std::regex("&quot;"), "\""));
  const auto sched = panels["schedule"].get<std::vector<int>>(), mem = panels["memory"].get<std::vector<int>>();
  const auto timeline = panels["timeline"].get<std::vector<int>>(), graph = panels["graph"].get<std::vector<int>>();
  ASSERT_EQ(sched.size(), 4u);
  ASSERT_EQ(mem.size(), 4u);
  ASSERT_EQ(timeline.size(), 4u);
  ASSERT_EQ(graph.size(), 4u);
  // 2. A screenshot tall enough for both panels of the first group.
  const int height = mem[1] + mem[3] + 20;
  const auto png = scratch / (name + ".png");
  fs::remove(png);
  browse(page, "--screenshot='" + png.string() + "' --window-size=1280," + std::to_string(height), scratch, "shot.log");
  const Image img = read_png(png);
  ASSERT_EQ(img.width, 1280u) << stream::test::read(scratch / "shot.log");
  ASSERT_EQ(img.height, static_cast<unsigned>(height));
  // The schedule panel: computation bars (#3a7d44) cover a good part of it (the default run's
  // convolutions span most of the iteration on four cores: hundreds of pixels per row at least).
  EXPECT_GT(count_colour(img, sched, 0x3a7d44), 2000) << "no computation bars in the schedule panel";
  // ... and nothing of them outside it, above the panel (the summary).
  EXPECT_EQ(count_colour(img, {0, 0, 1280, sched[1] - 5}, 0x3a7d44), 0);
  // The memory panel: the occupancy fill (#5b8fd6; each chart is scaled so the use is visible)
  // and the capacity in red (#d62728, a line or a note).
  EXPECT_GT(count_colour(img, mem, 0x5b8fd6), 2000) << "no occupancy drawn in the memory panel";
  EXPECT_GT(count_colour(img, mem, 0xd62728, 40), 100) << "no capacity in the memory panel";
  // The whole network's timeline: the groups' bars (alternating #2c5aa0 and #5b8fd6) fill it.
  EXPECT_GT(count_colour(img, timeline, 0x2c5aa0) + count_colour(img, timeline, 0x5b8fd6), 20000) << "no groups in the timeline";
  // The workload graph: group 0's layers are drawn in its colour (hsl(0, 60 %, 45 %) = #b82e2e).
  EXPECT_GT(count_colour(img, graph, 0xb82e2e), 40) << "no layers of group 0 in the workload graph";
}

// The sweep report's DOM after the page's script ran, failing the test on any console message.
std::string sweep_report_dom(const fs::path& scratch) {
  const auto dom = browse(scratch / "out" / "report.html", "--window-size=1280,800 --virtual-time-budget=5000 --dump-dom",
                          scratch, "dom.log");
  const auto log = stream::test::read(scratch / "dom.log");
  for (std::size_t p = log.find(":CONSOLE"); p != std::string::npos; p = log.find(":CONSOLE", p + 1))
    ADD_FAILURE() << "console message: " << log.substr(p, log.find('\n', p) - p);
  return dom;
}

std::size_t occurrences(const std::string& text, const std::string& s) {
  std::size_t n = 0;
  for (auto p = text.find(s); p != std::string::npos; p = text.find(s, p + 1)) ++n;
  return n;
}

}  // namespace

TEST(BrowserReport, DefaultAndMultiGroupReportsRenderWithoutConsoleErrors) {
  if (chromium().empty()) GTEST_SKIP() << "chromium not found (/usr/bin/chromium): scripts/setup.sh installs it";
  check_in_browser(stream::test::default_run("browser_default"), "default");
  std::string dom;
  check_in_browser(stream::test::multi_group_run("browser_multi"), "multi", &dom);
  // What the page says of the int8 ResNet-18's ten groups: one bar each on the network's
  // timeline, its 48 layers in the graph (20 convolutions, 17 ReLUs, 8 Adds, the two pools and
  // the Gemm), the energy in three parts, each group's layers (group 1 is layer1.0: two
  // convolutions with their ReLUs and the residual Add) and links between the groups' sections.
  EXPECT_EQ(occurrences(dom, "class=\"group-span\""), 10u);
  EXPECT_EQ(occurrences(dom, "<circle"), 48u);
  EXPECT_NE(dom.find("Energy split"), std::string::npos);
  for (const char* part : {"compute (cores)", "transfers (links)", "off-chip memory accesses"})
    EXPECT_NE(dom.find(part), std::string::npos) << part;
  EXPECT_NE(dom.find("5: /layer1/layer1.0/conv1/Conv, /layer1/layer1.0/relu/Relu, /layer1/layer1.0/conv2/Conv, "
                     "/layer1/layer1.0/Add, ..."), std::string::npos);
  EXPECT_NE(dom.find("<a href=\"#group_1\">group 1 \u2192</a>"), std::string::npos);
  EXPECT_NE(dom.find("<a href=\"#group_9\">group_9</a>"), std::string::npos);
  EXPECT_EQ(dom.find("id=\"optimizer\""), std::string::npos) << "a search section in a run without the optimizer";
}

// The pareto search on the default run: as many dots in the search plot as optimize.yaml has
// feasible candidates (the accepted ones in their own class), a cross per failed one, one
// best-so-far path drawn (orange, #ff7f0e, in the screenshot), the automatic mapping's line, and
// one red marker per front point in the latency-energy plot.
TEST(BrowserReport, OptimizedRunsReportDrawsTheSearch) {
  if (chromium().empty()) GTEST_SKIP() << "chromium not found (/usr/bin/chromium): scripts/setup.sh installs it";
  const auto run = stream::test::report_run("browser_optimized", "--mapping 'optimize?objective=pareto&evaluations=40&jobs=2'");
  std::string dom;
  check_in_browser(run, "optimized", &dom);
  const auto opt = stream::test::read(run / "optimize.yaml");
  const auto lines = [&](const std::string& s) { return occurrences(opt.substr(opt.find("\ncandidates:")), s); };
  const std::size_t feasible = lines(", latency: "), failed = lines("objective: .inf");
  ASSERT_EQ(feasible + failed, 41u);
  ASSERT_NE(dom.find("<h2>Mapping optimizer</h2>"), std::string::npos);
  const auto plot_at = dom.find("id=\"optimizer-plot\"");
  ASSERT_NE(plot_at, std::string::npos);
  const auto plot = dom.substr(plot_at, dom.find("</svg>", plot_at) - plot_at);
  EXPECT_EQ(occurrences(plot, "<circle class=\"candidate\"") + occurrences(plot, "<circle class=\"accepted\""), feasible);
  EXPECT_GE(occurrences(plot, "<circle class=\"accepted\""), 1u);  // the automatic mapping, the search's start
  EXPECT_EQ(occurrences(plot, "class=\"failed\""), failed);
  EXPECT_EQ(occurrences(plot, "class=\"best-so-far\""), 1u);
  EXPECT_EQ(occurrences(plot, "<line class=\"automatic\""), 1u);
  EXPECT_NE(dom.find("40 / 40"), std::string::npos);  // evaluations spent / budget
  const auto front_at = dom.find("id=\"optimizer-front\"");
  ASSERT_NE(front_at, std::string::npos);
  const auto front = dom.substr(front_at, dom.find("</svg>", front_at) - front_at);
  EXPECT_EQ(occurrences(front, "<circle class=\"front\""), occurrences(opt, "mapping: front/point_"));
  EXPECT_GE(occurrences(front, "<circle class=\"front\""), 1u);
  // The screenshot: the best-so-far steps are drawn in the plot's place.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(dom, m, std::regex("data-panels=\"([^\"]*)\"")));
  const auto panels = nlohmann::json::parse(std::regex_replace(m[1].str(), std::regex("&quot;"), "\""));
  const auto at = panels["optimizer"].get<std::vector<int>>();
  ASSERT_EQ(at.size(), 4u);
  const auto png = run.parent_path() / "optimizer.png";
  browse(run / "report.html", "--screenshot='" + png.string() + "' --window-size=1280," + std::to_string(at[1] + at[3] + 20),
         run.parent_path(), "optimizer_shot.log");
  const Image img = read_png(png);
  ASSERT_GT(img.height, 0u);
  EXPECT_GT(count_colour(img, at, 0xff7f0e), 300) << "no best-so-far steps in the search plot";
}

TEST(BrowserReport, SweepReportRendersItsParetoPlotWithoutConsoleErrors) {
  if (chromium().empty()) GTEST_SKIP() << "chromium not found (/usr/bin/chromium): scripts/setup.sh installs it";
  const auto scratch = stream::test::fresh_scratch_dir("report", "browser_sweep");
  const auto r = stream::test::run_stream("sweep '" + std::string(STREAM_INPUTS_DIR) + "/sweeps/hardware_2conv.yaml' --out '" +
                                          (scratch / "out").string() + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto dom = sweep_report_dom(scratch);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(dom, m, std::regex("<body[^>]*>")));
  EXPECT_NE(m[0].str().find("data-rendered=\"ok\""), std::string::npos)
      << m[0].str() << "\n" << stream::test::read(scratch / "dom.log");
  EXPECT_EQ(m[0].str().find("data-error"), std::string::npos) << m[0].str();
  // One marker per point that has figures, the front's in red (r=5), and one table row per point.
  const auto count = [&](const std::string& s) { return occurrences(dom, s); };
  EXPECT_GE(count("<circle"), 20u);
  EXPECT_GE(count("r=\"5\" fill=\"#d62728\""), 1u);
  EXPECT_EQ(count("<tr"), 33u);  // header + 32 points
  // The plot's colour can be any swept parameter: the sweep file's four axes, no figure column.
  EXPECT_EQ(count("<option value=\"hardware\">"), 1u);
  for (const char* axis : {"workload", "cast", "intra_core_tiling"}) {
    EXPECT_EQ(count("<option value=\"" + std::string(axis) + "\">"), 1u) << axis;
  }
  EXPECT_EQ(count("<option value=\"latency\""), 2u);  // x and y offer it, colour does not
  // The colour menu holds the Pareto choice and exactly those four axes: a column the sweep adds
  // as a figure but the page's list of figures misses would show up here as a fifth parameter.
  const auto menu = dom.find("id=\"plot-colour\"");
  ASSERT_NE(menu, std::string::npos);
  EXPECT_EQ(occurrences(dom.substr(menu, dom.find("</select>", menu) - menu), "<option"), 5u);
  // Two axes of this sweep change nothing on any system, and the page says so: the 2-conv is
  // bf16 already (its input's elem_type is 16), so casting it to bf16 is no change, and tiling its
  // D0 (the batch, of size 1) by 1 is none either. The hardware changes the figures; the one
  // workload is no axis to judge.
  EXPECT_EQ(count("class=\"inert-axis\""), 2u);
  EXPECT_NE(dom.find("Note: cast changes nothing"), std::string::npos);
  EXPECT_NE(dom.find("Note: intra_core_tiling changes nothing"), std::string::npos);
  // Coloured by hardware (chosen in the URL): eight systems, eight colours in the legend, and the
  // front ringed in black.
  const auto coloured = browse(scratch / "out" / "report.html#colour=hardware",
                               "--window-size=1280,800 --virtual-time-budget=5000 --dump-dom", scratch, "colour.log");
  EXPECT_NE(coloured.find("selected=\"selected\">hardware</option>"), std::string::npos);
  EXPECT_EQ(occurrences(coloured, "\u25cf "), 8u);
  EXPECT_GE(occurrences(coloured, "stroke=\"#000\""), 1u);
  EXPECT_EQ(occurrences(coloured, "fill=\"#d62728\""), 0u);
}

// A sweep with a point resting on estimates (the reference's fp32 2-conv uncast, beside it cast to
// bf16): its marker is hollow, its table row marked, and the checkbox that leaves it out is there.
TEST(BrowserReport, SweepReportMarksPointsRestingOnEstimates) {
  if (chromium().empty()) GTEST_SKIP() << "chromium not found (/usr/bin/chromium): scripts/setup.sh installs it";
  const auto scratch = stream::test::fresh_scratch_dir("report", "browser_sweep_estimates");
  std::ofstream(scratch / "sweep.yaml") << "axes:\n  hardware: ['" << STREAM_INPUTS_DIR
                                        << "/hardware/tpu_like_quad_core.yaml']\n  workload: ['" << STREAM_TEST_DATA_DIR
                                        << "/reference/stream-inputs/workload/2_conv.onnx']\n  cast: [none, bf16]\n";
  const auto r = stream::test::run_stream("sweep '" + (scratch / "sweep.yaml").string() + "' --out '" +
                                          (scratch / "out").string() + "' --jobs 1");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto dom = sweep_report_dom(scratch);
  EXPECT_NE(dom.find("data-rendered=\"ok\""), std::string::npos) << stream::test::read(scratch / "dom.log");
  const auto count = [&](const std::string& s) { return occurrences(dom, s); };
  EXPECT_EQ(count("<circle"), 2u);
  EXPECT_EQ(count("fill=\"#fff\" stroke=\"#d62728\" stroke-width=\"2\" class=\"estimated\"") +
                count("fill=\"#fff\" stroke=\"#5b8fd6\" stroke-width=\"2\" class=\"estimated\""),
            1u);  // the hollow marker
  EXPECT_EQ(count("estimated\"><td"), 1u);      // the table row (class "estimated" or "front estimated")
  EXPECT_EQ(count("id=\"exclude-estimates\""), 1u);
  EXPECT_NE(dom.find("rests on 8 estimated (node, core) costs: 100 % of its latency"), std::string::npos);
}

// A search the real runs above do not show: cut short after 5 of its 40 evaluations, two of them
// failed (drawn as crosses above the plot and counted in the note, not as dots), the best at
// evaluation 3. Written by write_results itself around a run with no group, so the page holds the
// search alone.
TEST(BrowserReport, SearchWithFailedCandidatesShowsThemApartAndSaysItWasCutShort) {
  if (chromium().empty()) GTEST_SKIP() << "chromium not found (/usr/bin/chromium): scripts/setup.sh installs it";
  stream::report::OptimizerReport o;
  o.objective = "latency";
  o.automatic = 1000;
  o.best = 700;
  o.budget = 40;
  o.spent = 5;
  o.cut_short = true;
  o.best_evaluation = 3;
  o.group_runs = 6;
  const double inf = std::numeric_limits<double>::infinity();
  o.candidates = {{0, true, 1000, 5.0, 1000, true}, {1, false, 0, 0, inf, false}, {2, true, 900, 6.0, 900, true},
                  {3, true, 700, 7.0, 700, true},   {4, false, 0, 0, inf, false}, {5, true, 800, 4.0, 800, false}};
  o.best_so_far = {{0, 1000}, {2, 900}, {3, 700}};
  const auto scratch = stream::test::fresh_scratch_dir("report", "browser_failed_candidates");
  const auto acc = stream::hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/tpu_like_quad_core.yaml");
  stream::report::write_results(stream::pipeline::RunResult{}, {}, acc, scratch / "exp", "cbc", false, true, {}, &o);
  const auto dom = browse(scratch / "exp" / "report.html", "--window-size=1280,800 --virtual-time-budget=5000 --dump-dom", scratch,
                          "dom.log");
  const auto log = stream::test::read(scratch / "dom.log");
  for (std::size_t p = log.find(":CONSOLE"); p != std::string::npos; p = log.find(":CONSOLE", p + 1))
    ADD_FAILURE() << "console message: " << log.substr(p, log.find('\n', p) - p);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(dom, m, std::regex("<body[^>]*>")));
  EXPECT_NE(m[0].str().find("data-rendered=\"ok\""), std::string::npos) << m[0].str() << "\n" << log;
  const auto plot_at = dom.find("id=\"optimizer-plot\"");
  ASSERT_NE(plot_at, std::string::npos);
  const auto plot = dom.substr(plot_at, dom.find("</svg>", plot_at) - plot_at);
  EXPECT_EQ(occurrences(plot, "class=\"failed\""), 2u);
  EXPECT_EQ(occurrences(plot, "<circle class=\"accepted\""), 3u);
  EXPECT_EQ(occurrences(plot, "<circle class=\"candidate\""), 1u);
  EXPECT_EQ(occurrences(plot, "<circle class=\"best\""), 1u);
  EXPECT_NE(dom.find("2 failed candidates as crosses above the plot"), std::string::npos);
  EXPECT_NE(dom.find("cut short (interrupted) after 5 of 40 evaluations"), std::string::npos);
  EXPECT_NE(dom.find("<td>0.7</td>"), std::string::npos);  // best / automatic
  EXPECT_NE(dom.find("<td>evaluation 3</td>"), std::string::npos);
  EXPECT_EQ(dom.find("id=\"optimizer-front\""), std::string::npos);  // a latency search has no front
}
