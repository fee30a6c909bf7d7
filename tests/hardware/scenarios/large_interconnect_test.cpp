// Large interconnects (issue 13): reading a 2,001-core file is linear in its directed core pairs.
// A bus listed after a chain of links replaces every link; each replaced pair used to rescan the
// whole edge list (pairs x edges: 4,000 x 4,000,000 for 2,001 cores, minutes), and the routing
// tables were cores x cores per call. A file with more pairs than can be routed is an error.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>

#include "stream/error.hpp"
#include "stream/hardware/accelerator_reader.hpp"

namespace fs = std::filesystem;
using namespace stream::hardware;

namespace {

const fs::path kHardware = fs::path(STREAM_INPUTS_DIR) / "hardware";

// n cores (the last one off-chip), a chain of links 0-1-...-(n-1), then optionally one bus over all.
std::string accelerator(int n, bool chain, bool bus) {
  std::string s = "name: big\ncores:\n";
  for (int i = 0; i + 1 < n; ++i) s += "  " + std::to_string(i) + ": ./cores/tpu_like.yaml\n";
  s += "  " + std::to_string(n - 1) + ": ./cores/offchip.yaml\n";
  s += "offchip_core_id: " + std::to_string(n - 1) + "\ncore_connectivity:\n";
  if (chain)
    for (int i = 0; i + 1 < n; ++i)
      s += "  - {type: link, cores: [" + std::to_string(i) + ", " + std::to_string(i + 1) + "], bandwidth: 32}\n";
  if (bus) {
    s += "  - type: bus\n    bandwidth: 128\n    cores: [";
    for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(i);
    s += "]\n";
  }
  return s;
}

TEST(LargeInterconnect, TwoThousandOneCoresWithABusOverAChainReadInLinearTime) {
  // 2,001 cores: the bus gives 2001 * 2000 = 4,002,000 directed pairs and replaces the 4,000 link
  // pairs of the chain (one warning naming the 2,000 replaced entries). `stream validate` took
  // more than 200 s on this file before (1.4 s for the chain alone, 100 s for the bus alone).
  const int n = 2001;
  const auto t0 = std::chrono::steady_clock::now();
  const auto acc = parse_accelerator_text(accelerator(n, true, true), "big.yaml", kHardware);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "2,001-core chain + bus read in " << took << " s\n";
  EXPECT_EQ(acc.edges().size(), std::size_t{2001} * 2000);
  EXPECT_EQ(acc.active_links().size(), 1u);  // only the bus carries traffic
  EXPECT_EQ(acc.replacements.size(), 2000u);  // (link entry, bus entry) for each of the 2,000 links
  ASSERT_FALSE(acc.warnings.empty());
  EXPECT_EQ(acc.warnings.back().message,
            "2000 links of core_connectivity are replaced by the bus at line 4006 (a later entry wins on the core "
            "pairs they share); `stream validate` lists them");
  ASSERT_EQ(acc.replacement_details.size(), 1u);
  EXPECT_NE(acc.replacement_details[0].message.find("on 4000 directed core pair(s)"), std::string::npos)
      << acc.replacement_details[0].message;
  // Every pair is now one hop over the bus.
  EXPECT_EQ(acc.shortest_path(0, n - 1), (std::vector<int>{0, n - 1}));
  EXPECT_EQ(acc.edge(n - 1, 0), acc.edge(0, 1));  // both the bus
}

TEST(LargeInterconnect, KShortestPathsOnALongChainCostPathLengthNotCoresSquared) {
  // A chain has one simple path between its ends: 2,000 hops. Yen's search ran two n x n tables
  // (4 MB each, cleared per accepted path) for every routed pair.
  const int n = 2001;
  const auto acc = parse_accelerator_text(accelerator(n, true, false), "chain.yaml", kHardware);
  const auto paths = acc.shortest_simple_paths(0, n - 1, 3);
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_EQ(paths.front().size(), static_cast<std::size_t>(n));
  EXPECT_EQ(paths.front().back(), n - 1);
}

TEST(LargeInterconnect, MoreDirectedPairsThanCanBeRoutedIsAnError) {
  // A bus of 4,098 cores has 4098 * 4097 = 16,789,506 directed pairs, past the 2^24 = 16,777,216
  // the reader accepts (a bus of 4,097 has 16,781,312, also past; 4,096 has 16,773,120, within).
  const auto text = accelerator(4098, false, true);
  try {
    (void)parse_accelerator_text(text, "huge.yaml", kHardware);
    ADD_FAILURE() << "expected an error";
  } catch (const stream::Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("huge.yaml:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("more than 16777216 directed core pairs"), std::string::npos) << msg;
  }
}

}  // namespace
