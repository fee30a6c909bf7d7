// The precedence rule shared by the four registries.
//
// Every registration carries its provenance: the plugin that made it, that plugin's priority, and
// the order in which the host discovered the plugin. For a key registered more than once, the
// highest priority wins and a tie goes to the later-discovered plugin (the reference's "sorted by
// priority, last registration wins"). All registrations are kept so the host can warn about
// conflicts, naming the winner and the losers. Keys iterate in first-registration order, which
// is deterministic because plugins load in discovery order.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace stream {

struct Provenance {
  std::string plugin_id;       ///< "" for registrations made by the host or a test
  std::int64_t priority = 0;
  std::int64_t discovery = 0;  ///< position of the plugin in discovery order

  [[nodiscard]] bool beats(const Provenance& other) const {
    return std::tie(priority, discovery) >= std::tie(other.priority, other.discovery);
  }
};

struct Conflict {
  std::string key;
  Provenance winner;
  std::vector<Provenance> losers;
};

template <typename T>
class KeyedRegistry {
 public:
  struct Entry {
    T value;
    Provenance provenance;
  };

  void add(const std::string& key, T value, Provenance provenance) {
    auto [it, inserted] = index_.try_emplace(key, keys_.size());
    if (inserted) {
      keys_.push_back(key);
      entries_.emplace_back();
    }
    entries_[it->second].push_back(Entry{std::move(value), std::move(provenance)});
  }

  /// The winning registration for `key`, or nullptr.
  [[nodiscard]] const Entry* find(const std::string& key) const {
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    const auto& all = entries_[it->second];
    const Entry* best = nullptr;
    for (const auto& e : all)
      if (best == nullptr || e.provenance.beats(best->provenance)) best = &e;
    return best;
  }

  /// Removes every registration of `key` made by `plugin_id` (a plugin unregistering itself).
  void remove(const std::string& key, const std::string& plugin_id) {
    auto it = index_.find(key);
    if (it == index_.end()) return;
    std::erase_if(entries_[it->second], [&](const Entry& e) { return e.provenance.plugin_id == plugin_id; });
  }

  /// Keys in first-registration order (keys whose registrations were all removed are skipped).
  [[nodiscard]] std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < keys_.size(); ++i)
      if (!entries_[i].empty()) out.push_back(keys_[i]);
    return out;
  }

  [[nodiscard]] std::vector<Conflict> conflicts() const {
    std::vector<Conflict> out;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      if (entries_[i].size() < 2) continue;
      const Entry* win = find(keys_[i]);
      Conflict c{keys_[i], win->provenance, {}};
      for (const auto& e : entries_[i])
        if (&e != win) c.losers.push_back(e.provenance);
      out.push_back(std::move(c));
    }
    return out;
  }

 private:
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::string> keys_;
  std::vector<std::vector<Entry>> entries_;
};

}  // namespace stream
