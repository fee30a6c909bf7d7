// What a candidate may hold and how the search moves from one to a neighbour (optimizer.hpp).
// A move changes one thing: one node's cores (their number, or one core for another), its split,
// its cores copied from a neighbouring node, or one fusion cut toggled; each yields a valid
// candidate (cores allowed, splits over free dims multiplying to the core count).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "random_stream.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/ir/workload.hpp"
#include "stream/optimize/optimizer.hpp"

namespace stream::optimize {

class SearchSpace {
 public:
  SearchSpace(const Workload& workload, const hardware::Accelerator& accelerator);

  /// A neighbour of `from` and the name of its move. Deterministic in `rng`'s stream.
  [[nodiscard]] Candidate neighbour(const Candidate& from, RandomStream& rng, std::string& move) const;
  /// The cuts that change the grouping (a node whose successor is in its group without a cut).
  [[nodiscard]] const std::vector<std::string>& cuttable() const { return cuttable_; }
  /// A valid split of `cores` cores for node k (index into nodes()): fewer cores when no split of
  /// that many exists (`cores` is lowered to what the split uses).
  [[nodiscard]] std::vector<mapping::DimSplit> split_for(std::size_t k, std::size_t& cores, RandomStream& rng) const;

  struct NodeSpace {
    std::string name;
    std::vector<int> allowed;                 ///< ascending
    std::vector<std::int64_t> sizes;          ///< per local dim
    std::vector<int> free_dims;               ///< splittable local dims
    std::vector<std::size_t> neighbours;      ///< producers and consumers among nodes()
  };
  [[nodiscard]] const std::vector<NodeSpace>& nodes() const { return nodes_; }

 private:
  Candidate new_cores(const Candidate& from, std::size_t k, RandomStream& rng, std::string& move) const;
  Candidate swap_core(const Candidate& from, std::size_t k, RandomStream& rng, std::string& move) const;
  Candidate resplit(const Candidate& from, std::size_t k, RandomStream& rng, std::string& move) const;
  Candidate copy_neighbour(const Candidate& from, std::size_t k, RandomStream& rng, std::string& move) const;
  Candidate toggle_cut(const Candidate& from, RandomStream& rng, std::string& move) const;

  std::vector<NodeSpace> nodes_;  ///< compute nodes in dataflow order
  std::vector<std::string> cuttable_;
};

}  // namespace stream::optimize
