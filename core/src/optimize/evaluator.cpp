#include "evaluator.hpp"

#include <exception>
#include <limits>
#include <thread>

#include "stream/out_of_memory.hpp"
#include "stream/pipeline/fusion_groups.hpp"

namespace stream::optimize {

namespace {

// A group's identity: its nodes (edge names carry where it was cut) and its compute nodes' choices.
std::string group_key(const Workload& group, const mapping::NodeChoices& choices) {
  std::string key;
  for (std::size_t i = 0; i < group.size(); ++i) {
    const Node& n = group.node(i);
    key += n.name;
    if (auto it = choices.find(n.name); n.has_iteration_space() && it != choices.end()) key += '@' + choice_key(it->second);
    key += ';';
  }
  return key;
}

std::vector<std::string> ordered_cuts(const Workload& w, const std::set<std::string>& cuts) {
  std::vector<std::string> out;
  for (std::size_t i : w.dataflow_order())
    if (cuts.count(w.node(i).name)) out.push_back(w.node(i).name);
  return out;
}

}  // namespace

std::string choice_key(const mapping::NodeChoice& choice) {
  std::string key;
  for (int c : choice.cores) key += std::to_string(c) + ',';
  for (const auto& s : choice.splits) key += 'D' + std::to_string(s.dim) + '/' + std::to_string(s.split);
  return key;
}

std::string unsolved_reason(const pipeline::RunResult& r) {
  for (const auto& g : r.groups)
    if (!g.allocation.solved())
      return "the allocation of group " + std::to_string(g.index) + " has no solution" +
             (g.allocation.infeasibility.empty() ? "" : ": " + g.allocation.infeasibility);
  return "no group";
}

Evaluator::Evaluator(const Workload& workload, const hardware::Accelerator& acc, pipeline::RunSpec base,
                     const pipeline::RunEnv& env, int jobs, bool latency_only)
    : workload_(workload), acc_(acc), base_(std::move(base)), latency_only_(latency_only), env_(env) {
  auto routes = std::make_shared<pipeline::RouteMemos>();
  caches_.push_back(env.cache ? env.cache : std::make_shared<pipeline::RunCache>(routes));
  for (int j = 1; j < jobs; ++j) caches_.push_back(std::make_shared<pipeline::RunCache>(routes));
  env_.progress = {};
  env_.timings = nullptr;
}

pipeline::RunSpec Evaluator::spec_of(const Candidate& c) const {
  pipeline::RunSpec s = base_;
  s.node_choices = std::make_shared<const mapping::NodeChoices>(c.choices);
  s.cut_mode = pipeline::CutMode::Explicit;
  s.cut_points = ordered_cuts(workload_, c.cuts);
  return s;
}

Evaluator::GroupFigures Evaluator::group(const Workload& g, const std::shared_ptr<const mapping::NodeChoices>& choices,
                                         pipeline::RunCache& cache) {
  const std::string key = group_key(g, *choices);
  {
    std::lock_guard lock(mutex_);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  }
  pipeline::RunSpec s = base_;
  s.node_choices = choices;
  s.cut_mode = pipeline::CutMode::None;
  s.latency_level_only = latency_only_;
  pipeline::RunEnv env = env_;
  env.cache = std::shared_ptr<pipeline::RunCache>(std::shared_ptr<void>(), &cache);  // borrowed: the evaluator owns it
  GroupFigures f;
  try {
    const auto r = pipeline::run(g, acc_, s, env);
    f.solved = r.solved();
    f.latency = r.total_latency;
    f.energy = latency_only_ ? std::numeric_limits<double>::quiet_NaN() : r.total_energy;
    if (!f.solved) f.reason = unsolved_reason(r);
  } catch (const OutOfMemory&) {
    throw;
  } catch (const Error& e) {
    f.reason = e.what();
  }
  std::lock_guard lock(mutex_);
  // Counted once per distinct group (two threads may run one at once): the count is the seed's.
  const auto [it, fresh] = memo_.emplace(key, f);
  if (fresh) ++group_runs_;
  return it->second;
}

Outcome Evaluator::one(const Candidate& c, pipeline::RunCache& cache) {
  const auto choices = std::make_shared<const mapping::NodeChoices>(c.choices);
  std::vector<Workload> groups;
  try {
    groups = pipeline::split_fusion_groups(workload_, ordered_cuts(workload_, c.cuts));
  } catch (const Error& e) {
    return {std::nullopt, e.what()};
  }
  Figures total;
  for (const auto& g : groups) {
    const GroupFigures f = group(g, choices, cache);
    if (!f.solved) return {std::nullopt, f.reason};
    total.latency += f.latency;
    total.energy += f.energy;
  }
  return {total, ""};
}

std::vector<Outcome> Evaluator::evaluate(const std::vector<Candidate>& batch) {
  std::vector<Outcome> out(batch.size());
  std::vector<std::exception_ptr> failed(batch.size());
  std::atomic<std::size_t> next{0};
  auto work = [&](std::size_t job) {
    for (std::size_t k = next++; k < batch.size(); k = next++) {
      try {
        out[k] = one(batch[k], *caches_[job]);
      } catch (...) {
        failed[k] = std::current_exception();
      }
    }
  };
  const std::size_t jobs = std::min(caches_.size(), batch.size());
  std::vector<std::thread> threads;
  for (std::size_t j = 1; j < jobs; ++j) threads.emplace_back(work, j);
  work(0);
  for (auto& t : threads) t.join();
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);
  return out;
}

}  // namespace stream::optimize
