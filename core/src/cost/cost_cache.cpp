#include "stream/cost/cost_cache.hpp"

namespace stream::cost {

int CostCache::performance_class(const hardware::Core& core, const std::string& backend) {
  for (std::size_t i = 0; i < classes_.size(); ++i)
    if (classes_[i].first == backend && classes_[i].second.same_performance(core)) return static_cast<int>(i);
  classes_.emplace_back(backend, core);
  return static_cast<int>(classes_.size()) - 1;
}

const CostEntry* CostCache::find(const std::pair<std::string, int>& key) const {
  const auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

void CostCache::add(std::pair<std::string, int> key, const CostEntry& entry) {
  entries_.emplace(std::move(key), entry);
}

void CostCache::trim() {
  if (entries_.size() <= kMaxEntries && classes_.size() <= kMaxClasses) return;
  entries_.clear();  // the entries' class ids go with the classes
  classes_.clear();
}

}  // namespace stream::cost
