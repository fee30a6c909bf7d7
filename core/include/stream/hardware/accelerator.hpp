// The accelerator: cores by id, the interconnect between them, and what is derived from both.
//
// Cores are indexed by id (ids are exactly 0..N-1). The interconnect follows the reference
// (spec §1.4) on purpose, because the reference's numbers depend on it:
//  - a `link` [a, b] gives two directed edges a->b and b->a, each its own CommunicationLink;
//  - a `bus` [c0..ck] is ONE CommunicationLink shared by the directed edges of every ordered pair
//    (i<j in list order: ci->cj then cj->ci), so all its pairs contend for one resource;
//  - the graph keeps one edge per ordered pair and a later connection replaces an earlier one on
//    every pair they share (a bus listed after links replaces them). The reader warns once per
//    file, in one line (how many entries, by which); `replacement_details` names every pair of
//    connections, for `stream validate`;
//  - the graph's node order is the order of first appearance in the edge list, and each node's
//    successors/predecessors keep first-insertion order. Shortest paths break ties exactly as
//    networkx does (bidirectional BFS for one path, BFS predecessors for all shortest paths,
//    Yen's algorithm over a bidirectional Dijkstra for k shortest simple paths).
// A core that appears in no connection is kept (it can be listed) but is not a graph node.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "stream/diagnostics/diagnostics.hpp"
#include "stream/error.hpp"
#include "stream/export.hpp"
#include "stream/hardware/core.hpp"
#include "stream/hardware/dma.hpp"

namespace stream::hardware {

enum class ConnectionType { Link, Bus };
[[nodiscard]] STREAM_API std::string_view name(ConnectionType t);  ///< "link", "bus"

/// One `core_connectivity` entry as written.
struct Connection {
  ConnectionType type = ConnectionType::Link;
  std::vector<int> cores;
  double bandwidth = 0.0;         ///< bits/cycle
  double unit_energy_cost = 0.0;  ///< per word; stored, unused by the cost model (as the reference)
  Location where;
  std::optional<DmaModel> dma;  ///< its own `dma`, else the accelerator's; none: bandwidth only
  [[nodiscard]] std::string str() const;  ///< "link [0, 1] bw 32", "bus [0, 1, 2] bw 128"
};

/// A communication resource: one direction of a link, or a whole bus.
struct CommunicationLink {
  int id = -1;               ///< index in Accelerator::links()
  int sender = -1;           ///< core id; -1 ("Any") for a bus
  int receiver = -1;         ///< core id; -1 ("Any") for a bus
  double bandwidth = 0.0;    ///< bits/cycle
  double unit_energy_cost = 0.0;
  bool bidirectional = false;    ///< true for a bus
  std::size_t connection = 0;    ///< index into Accelerator::connectivity
  [[nodiscard]] bool is_bus() const { return bidirectional; }
};

struct MemorySharingGroup {
  std::vector<int> cores;
  Location where;
};

struct MemoryAlias {
  std::vector<std::pair<int, std::string>> members;  ///< (core id, memory name)
  Location where;
};

class STREAM_API Accelerator {
 public:
  std::string name;
  std::vector<Core> cores;  ///< index == core id
  int offchip_core_id = -1;
  double unit_energy_cost = 0.0;
  std::optional<DmaModel> dma;           ///< the default DMA model of every connection
  std::vector<Connection> connectivity;  ///< file order, as written
  std::vector<MemorySharingGroup> memory_sharing;
  std::map<int, std::array<int, 2>> coordinates;  ///< core id -> {col, row}
  std::optional<std::string> technology_node;
  std::vector<MemoryAlias> memory_aliases;
  std::string source_file;
  std::vector<Diagnostic> warnings;  ///< warnings found while reading (repeated keys, replacements)
  /// (replaced entry, replacing entry) indices into `connectivity`, one per replaced entry and
  /// replacing entry that took over at least one of its pairs; filled by build_interconnect().
  std::vector<std::pair<std::size_t, std::size_t>> replacements;
  /// One warning per replacing entry, naming every entry it replaces and the pairs it took over
  /// (what `stream validate` lists); `warnings` holds their one-line summary.
  std::vector<Diagnostic> replacement_details;

  /// Builds the directed graph from `connectivity` (done by the reader; call again after editing
  /// connectivity). Replacements are summed up in one warning of `warnings` and listed in
  /// `replacement_details`, unless they are the design (a generated array's links taking their
  /// pairs from its bus).
  void build_interconnect(bool warn_replacements = true);

  [[nodiscard]] std::size_t size() const { return cores.size(); }
  [[nodiscard]] const Core& core(int id) const;  ///< throws stream::Error for an unknown id
  [[nodiscard]] const Core& offchip_core() const { return core(offchip_core_id); }
  [[nodiscard]] Namespace core_namespace() const;

  // ---- interconnect ----
  [[nodiscard]] const std::vector<CommunicationLink>& links() const { return links_; }
  /// Links that still carry at least one edge after replacement, in id order.
  [[nodiscard]] std::vector<int> active_links() const;
  /// The link carrying edge a->b, or -1 when there is no such edge.
  [[nodiscard]] int edge(int from, int to) const;
  /// The index of edge a->b in edges(), or -1 when there is no such edge (O(1)).
  [[nodiscard]] std::int64_t edge_position(int from, int to) const;
  /// Every directed edge (from, to, link id) in insertion order of the pair.
  [[nodiscard]] const std::vector<std::array<int, 3>>& edges() const { return edge_list_; }
  /// Core ids in graph order (first appearance in the edge list): the reference's core_list.
  [[nodiscard]] const std::vector<int>& graph_cores() const { return graph_order_; }
  [[nodiscard]] bool in_graph(int id) const;
  [[nodiscard]] const std::vector<int>& successors(int id) const;
  [[nodiscard]] const std::vector<int>& predecessors(int id) const;
  /// One shortest path (core ids, from..to) as networkx.shortest_path; empty when unreachable.
  [[nodiscard]] std::vector<int> shortest_path(int from, int to) const;
  /// Every shortest path, in networkx.all_shortest_paths order; empty when unreachable.
  [[nodiscard]] std::vector<std::vector<int>> all_shortest_paths(int from, int to) const;
  /// The first `k` simple paths from..to, shortest first, exactly as the first `k` results of
  /// networkx.shortest_simple_paths(G, from, to, weight=<unit>) (Yen's algorithm; tie order in
  /// simple_paths.cpp). Empty when unreachable; {{from}} when from == to.
  [[nodiscard]] std::vector<std::vector<int>> shortest_simple_paths(int from, int to, std::size_t k) const;
  /// True when the link ends at the off-chip core, or is a bus the off-chip core is a member of.
  [[nodiscard]] bool touches_offchip(const CommunicationLink& link) const;
  /// The one name of a link wherever a result shows it (report, trace, result files, terminal):
  /// "link 0->1" for one direction of a point-to-point link, "bus 12 (cores 0, 1, 4)" for a bus,
  /// numbered by its core_connectivity entry, which is where the user finds it in the file.
  [[nodiscard]] std::string link_name(int link_id) const;
  /// The DMA model of a link's connection; null when the connection has none.
  [[nodiscard]] const DmaModel* dma_of(const CommunicationLink& link) const;
  /// The link ids along a path of core ids.
  [[nodiscard]] std::vector<int> path_links(const std::vector<int>& path) const;

  // ---- derived ----
  /// Ids of cores of kind compute, in graph order then the unconnected ones by id.
  [[nodiscard]] std::vector<int> compute_cores() const;
  /// For each core id, the lowest core id with the same performance (itself when unique): the
  /// reference copies cost results between such cores.
  [[nodiscard]] std::vector<int> performance_representatives() const;
  /// The sharing group index of every core: cores of one `core_memory_sharing` entry share an
  /// index, every other core has its own. Indices are dense, in order of lowest core id.
  [[nodiscard]] std::vector<int> shared_memory_groups() const;
  [[nodiscard]] int nb_shared_mem_groups() const;

 private:
  /// The one-line warning that sums up `replacements` for the file.
  [[nodiscard]] Diagnostic replacement_summary() const;
  std::vector<CommunicationLink> links_;
  static std::uint64_t pair_key(int from, int to);
  std::unordered_map<std::uint64_t, std::size_t> edge_index_;  ///< (from, to) -> index in edge_list_; lookups only
  std::vector<std::array<int, 3>> edge_list_;
  std::vector<int> graph_order_;
  std::map<int, std::vector<int>> succ_, pred_;
};

}  // namespace stream::hardware
