// The search: simulated annealing from the automatic mapping, in batches of kBatch neighbours.
//
// Why annealing and not a genetic algorithm (the original Stream paper's, over layer-core
// allocations): the space here also holds splits and fusion cuts, whose crossovers between two
// parents rarely keep what made either good (a cut moves which nodes share a tiling), while a
// move of one node or one cut leaves every other group as it was, and the evaluator remembers
// those: most of a neighbour's groups cost nothing. Starting from the automatic mapping, the
// search only has to find improvements, and the annealing's early acceptance of slightly worse
// neighbours gets it past the automatic mapping's local optimum (a node moved off a core helps
// only once its neighbours move too). Each batch's neighbours are drawn from the current
// candidate with random streams keyed by (seed, batch, slot), evaluated in parallel, and the
// batch's best is offered to the Metropolis test: the search is the seed's whatever the threads.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <thread>

#include "evaluator.hpp"
#include "front.hpp"
#include "search_space.hpp"
#include "stream/ir/name_order.hpp"
#include "stream/mapping/group_mapping.hpp"
#include "stream/optimize/optimizer.hpp"

namespace stream::optimize {

namespace {

constexpr double kStartTemperature = 0.02;   // a 2 % worse neighbour is taken with probability 1/e at first
constexpr double kEndTemperature = 0.0005;
constexpr std::size_t kStaleBatches = 25;    // batches without a better best: go back to the best
constexpr std::size_t kDrawAttempts = 12;    // redraws of a neighbour already evaluated

using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

// The annealing's energy: the log of the objective (so a temperature is a relative change); for
// pareto a weighted sum of the logs, the weight rotating with the batch.
double score(Objective o, const Figures& f, double latency_weight) {
  const double l = std::log(static_cast<double>(std::max<std::int64_t>(f.latency, 1)));
  const double e = std::log(std::max(f.energy, 1e-300));
  switch (o) {
    case Objective::Latency: return l;
    case Objective::Energy: return e;
    case Objective::Edp: return l + e;
    case Objective::Pareto: return latency_weight * l + (1 - latency_weight) * e;
  }
  return l;
}

// The automatic mapping as a candidate: each node's final cores and splits, and a cut after the
// last compute node of each group but the last.
Candidate automatic_candidate(const pipeline::RunResult& r) {
  Candidate c;
  for (std::size_t k = 0; k < r.groups.size(); ++k) {
    const auto& g = r.groups[k];
    std::string last;
    for (std::size_t i : g.workload.dataflow_order()) {
      if (!g.workload.node(i).has_iteration_space()) continue;
      c.choices[g.workload.node(i).name] = {g.mapping.nodes[i].cores, g.mapping.nodes[i].inter_core_tiling};
      last = g.workload.node(i).name;
    }
    if (k + 1 < r.groups.size() && g.converts.empty()) c.cuts.insert(last);
  }
  return c;
}

// FNV-1a of the candidate's text: the set of candidates seen stays small on large workloads.
std::uint64_t candidate_key(const Candidate& c) {
  std::ostringstream key;
  for (const auto& [name, choice] : c.choices) key << name << '@' << choice_key(choice) << ';';
  for (const auto& cut : c.cuts) key << '|' << cut;
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : key.str()) h = (h ^ ch) * 0x100000001b3ull;
  return h;
}

class Search {
 public:
  Search(const Workload& w, const hardware::Accelerator& acc, const OptimizeSpec& spec, pipeline::RunSpec base,
         const pipeline::RunEnv& env)
      : spec_(spec), env_(env), space_(w, acc), evaluator_(w, acc, std::move(base), env, jobs(spec), spec.objective == Objective::Latency) {}

  void start(const pipeline::RunResult& automatic, OptimizeResult& r) {
    const auto auto_figures = automatic.solved() ? std::optional(Figures{automatic.total_latency, automatic.total_energy}) : std::nullopt;
    r.evaluations.push_back({0, "automatic", auto_figures, automatic.solved() ? "" : unsolved_reason(automatic), 0, true});
    r.evaluations.back().objective = objective_of(spec_.objective, auto_figures);
    r.best_curve.push_back({0, r.evaluations.back().objective});
    best_objective_ = r.evaluations.back().objective;
    current_ = automatic_candidate(automatic);
    seen_.insert(candidate_key(current_));
    try {
      current_figures_ = evaluator_.evaluate({current_}).front().figures;
    } catch (const pipeline::Cancelled&) {  // run() sees the flag next and stops with the automatic mapping
    }
    if (auto_figures && spec_.objective == Objective::Pareto) front_.offer(*auto_figures, 0, std::nullopt);
  }

  void run(OptimizeResult& r) {
    const auto t0 = clock_type::now();
    auto last_say = t0;
    for (std::size_t batch = 0; r.spent() < spec_.evaluations; ++batch) {
      if (env_.cancel != nullptr && env_.cancel->load()) {
        r.cancelled = true;
        break;
      }
      try {
        step(batch, r);
      } catch (const pipeline::Cancelled&) {
        r.cancelled = true;
        break;
      }
      if (since(last_say) >= 1.0 || r.spent() == spec_.evaluations) {
        say(r, since(t0));
        last_say = clock_type::now();
      }
    }
    r.group_runs = evaluator_.group_runs();
  }

  [[nodiscard]] const std::optional<Candidate>& best() const { return best_; }
  [[nodiscard]] const Front& front() const { return front_; }
  [[nodiscard]] const Evaluator& evaluator() const { return evaluator_; }

 private:
  static int jobs(const OptimizeSpec& s) {
    return s.jobs > 0 ? s.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }

  std::vector<Candidate> draw(std::size_t batch, std::size_t count, std::vector<std::string>& moves) {
    std::vector<Candidate> out;
    for (std::size_t slot = 0; slot < count; ++slot) {
      RandomStream rng(spec_.seed, batch, slot);
      std::string move;
      Candidate c = space_.neighbour(current_, rng, move);
      for (std::size_t again = 0; again < kDrawAttempts && seen_.count(candidate_key(c)); ++again)
        c = space_.neighbour(current_, rng, move);
      seen_.insert(candidate_key(c));
      out.push_back(std::move(c));
      moves.push_back(std::move(move));
    }
    return out;
  }

  void step(std::size_t batch, OptimizeResult& r) {
    const std::size_t count = std::min(kBatch, spec_.evaluations - r.spent());
    std::vector<std::string> moves;
    std::vector<Candidate> batch_candidates = draw(batch, count, moves);
    const std::vector<Outcome> outcomes = evaluator_.evaluate(batch_candidates);
    const double progress = static_cast<double>(r.spent()) / static_cast<double>(spec_.evaluations);
    const double temperature = kStartTemperature * std::pow(kEndTemperature / kStartTemperature, progress);
    const double weight = static_cast<double>(batch % 5) / 4.0;
    std::optional<std::size_t> pick;
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t index = r.evaluations.size();
      r.evaluations.push_back({index, moves[k], outcomes[k].figures, outcomes[k].reason,
                               objective_of(spec_.objective, outcomes[k].figures), false});
      if (!outcomes[k].figures) continue;
      if (spec_.objective == Objective::Pareto) front_.offer(*outcomes[k].figures, index, batch_candidates[k]);
      if (r.evaluations.back().objective < best_objective_) {
        best_objective_ = r.evaluations.back().objective;
        best_ = batch_candidates[k];
        best_figures_ = outcomes[k].figures;
        r.best_evaluation = index;
        r.best_curve.push_back({r.spent(), best_objective_});
        stale_ = 0;
      }
      if (!pick || score(spec_.objective, *outcomes[k].figures, weight) < score(spec_.objective, *outcomes[*pick].figures, weight))
        pick = k;
    }
    RandomStream rng(spec_.seed, batch, kBatch);  // the batch's acceptance draw
    const double u = rng.unit();
    if (pick && accept(score(spec_.objective, *outcomes[*pick].figures, weight), weight, temperature, u)) {
      current_ = batch_candidates[*pick];
      current_figures_ = outcomes[*pick].figures;
      r.evaluations[r.evaluations.size() - count + *pick].accepted = true;
    }
    if (++stale_ >= kStaleBatches && best_) {  // intensify: back to the best found
      current_ = *best_;
      current_figures_ = best_figures_;
      stale_ = 0;
    }
  }

  bool accept(double candidate_score, double weight, double temperature, double u) const {
    if (!current_figures_) return true;
    const double delta = candidate_score - score(spec_.objective, *current_figures_, weight);
    return delta <= 0 || u < std::exp(-delta / temperature);
  }

  void say(const OptimizeResult& r, double elapsed) const {
    if (!env_.progress) return;
    std::ostringstream line;
    line << "optimize: " << r.spent() << "/" << spec_.evaluations << " evaluations, best ";
    if (std::isfinite(best_objective_) && spec_.objective == Objective::Latency) line << std::llround(best_objective_) << " " << unit();
    else if (std::isfinite(best_objective_)) line << best_objective_ << " " << unit();
    else line << "none feasible yet";
    if (std::isfinite(r.evaluations.front().objective) && std::isfinite(best_objective_))
      line << " (" << std::lround(100.0 * (best_objective_ / r.evaluations.front().objective - 1.0)) << " % vs automatic)";
    const double per = elapsed / static_cast<double>(std::max<std::size_t>(1, r.spent()));
    line << ", " << std::lround(elapsed) << " s, ETA " << std::lround(per * static_cast<double>(spec_.evaluations - r.spent())) << " s";
    env_.progress(line.str());
  }

  const char* unit() const {
    switch (spec_.objective) {
      case Objective::Energy: return "pJ";
      case Objective::Edp: return "pJ x cycles";
      default: return "cycles";
    }
  }

  const OptimizeSpec& spec_;
  const pipeline::RunEnv& env_;
  SearchSpace space_;
  Evaluator evaluator_;
  Candidate current_;
  std::optional<Figures> current_figures_;
  std::optional<Candidate> best_;
  std::optional<Figures> best_figures_;
  double best_objective_ = std::numeric_limits<double>::infinity();
  std::set<std::uint64_t> seen_;
  std::size_t stale_ = 0;
  Front front_;
};

}  // namespace

double objective_of(Objective objective, const std::optional<Figures>& f) {
  if (!f) return std::numeric_limits<double>::infinity();
  switch (objective) {
    case Objective::Energy: return f->energy;
    case Objective::Edp: return f->energy * static_cast<double>(f->latency);
    default: return static_cast<double>(f->latency);
  }
}

bool OptimizeResult::still_improving() const {
  if (best_curve.size() < 2) return false;
  return static_cast<double>(spent() - best_curve.back().first) < 0.1 * static_cast<double>(spec.evaluations);
}

namespace {

// The run's mapping as one file: a fused group per fusion group, naming the workload it maps.
mapping::Mapping mapping_of(const pipeline::RunResult& run) {
  mapping::Mapping m;
  for (const auto& g : run.groups) {
    auto part = mapping::as_mapping(g.workload, g.mapping, "group_" + std::to_string(g.index));
    for (auto& l : part.layers) m.layers.push_back(std::move(l));
    m.fused_groups.push_back(std::move(part.fused_groups.front()));
  }
  m.workload = mapping::MappedWorkload::AutomaticPath;  // in name order, expanded or not as the run's workload was
  return m;
}

// The candidate's whole run, when it is solved and better than `bar` (its objective).
std::optional<pipeline::RunResult> whole_run(const Workload& w, const hardware::Accelerator& acc, const pipeline::RunSpec& spec,
                                             const pipeline::RunEnv& env, Objective objective, double bar,
                                             pipeline::RunTimings* timings) {
  pipeline::RunEnv quiet = env;
  quiet.cancel = nullptr;  // the best is run even after Ctrl-C: it is what the user keeps
  quiet.progress = {};
  quiet.timings = timings;
  auto r = pipeline::run(w, acc, spec, quiet);
  if (!r.solved() || objective_of(objective, Figures{r.total_latency, r.total_energy}) >= bar) return std::nullopt;
  return r;
}

pipeline::RunResult whole_automatic(const Workload& w, const hardware::Accelerator& acc, const pipeline::RunSpec& base,
                                    const pipeline::RunEnv& env, pipeline::RunTimings& timings) {
  if (env.progress) env.progress("optimize: running the automatic mapping first");
  pipeline::RunEnv e = env;
  e.progress = {};
  e.timings = &timings;
  e.cancel = nullptr;  // short, and what an interrupted search keeps
  return pipeline::run(w, acc, base, e);
}

// Objective pareto: each front point's whole run and mapping; the best is the point of least
// energy-delay product.
void finish_front(OptimizeResult& r, const Search& search, const Workload& w, const hardware::Accelerator& acc,
                  const pipeline::RunEnv& env, const pipeline::RunResult& automatic) {
  double best_edp = std::numeric_limits<double>::infinity();
  for (const auto& p : search.front().points()) {
    pipeline::RunTimings timings;
    auto run = p.candidate ? whole_run(w, acc, search.evaluator().spec_of(*p.candidate), env, Objective::Latency,
                                       std::numeric_limits<double>::infinity(), &timings)
                           : std::optional(automatic);
    if (!run) continue;
    const Figures f{run->total_latency, run->total_energy};
    r.front.push_back({p.evaluation, f, mapping_of(*run)});
    if (p.candidate && objective_of(Objective::Edp, f) < best_edp &&
        objective_of(Objective::Edp, f) < objective_of(Objective::Edp, r.automatic())) {
      best_edp = objective_of(Objective::Edp, f);
      r.best_evaluation = p.evaluation;
      r.best_run = std::move(*run);
      r.best_timings = std::move(timings);
    }
  }
}

void finish(OptimizeResult& r, const Search& search, const Workload& w, const hardware::Accelerator& acc,
            const pipeline::RunEnv& env, pipeline::RunResult automatic, pipeline::RunTimings automatic_timings) {
  const std::optional<std::size_t> found = r.best_evaluation;
  r.best_evaluation.reset();
  if (r.spec.objective == Objective::Pareto) {
    finish_front(r, search, w, acc, env, automatic);
  } else if (search.best()) {
    pipeline::RunTimings timings;
    const double bar = r.evaluations.front().objective;
    if (auto run = whole_run(w, acc, search.evaluator().spec_of(*search.best()), env, r.spec.objective, bar, &timings)) {
      r.best_evaluation = found;
      r.best_run = std::move(*run);
      r.best_timings = std::move(timings);
    }
  }
  if (!r.best_evaluation) {  // the automatic run, solved or with its diagnosis when nothing is
    r.best_run = std::move(automatic);
    r.best_timings = std::move(automatic_timings);
  }
  r.best_mapping = mapping_of(r.best_run);
}

}  // namespace

OptimizeResult optimize_mapping(const Workload& workload, const hardware::Accelerator& acc, const OptimizeSpec& spec,
                                pipeline::RunSpec base, const pipeline::RunEnv& env) {
  const auto t0 = clock_type::now();
  if (base.layout == layout::LayoutMode::Choose)
    throw Error("mapping optimize: --layout choose is not supported (the optimizer compares mappings under fixed layouts)");
  const Workload ordered = base.order == pipeline::WorkloadOrder::AsPrepared ? workload : in_name_order(workload);
  base.order = pipeline::WorkloadOrder::AsPrepared;
  base.mapping.reset();
  base.mapping_data.reset();
  base.node_choices.reset();
  base.per_layer_check = false;
  pipeline::RunEnv shared = env;
  if (!shared.cache) shared.cache = std::make_shared<pipeline::RunCache>();
  OptimizeResult r;
  r.spec = spec;
  pipeline::RunTimings automatic_timings;
  pipeline::RunResult automatic = whole_automatic(ordered, acc, base, shared, automatic_timings);
  Search search(ordered, acc, spec, base, shared);
  search.start(automatic, r);
  search.run(r);
  finish(r, search, ordered, acc, shared, std::move(automatic), std::move(automatic_timings));
  r.wall_s = since(t0);
  return r;
}

}  // namespace stream::optimize
