// A MilpSolver that forwards to another and keeps every solve's time and status, so that the
// run's timings list each MILP solve, the diagnosis solves of an infeasible model included
// (allocate::solve reports only the lexicographic levels).
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "stream/allocate/solver.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::pipeline {

class TimedSolver : public allocate::MilpSolver {
 public:
  explicit TimedSolver(const allocate::MilpSolver& inner) : inner_(inner) {}
  [[nodiscard]] std::string name() const override { return inner_.name(); }
  [[nodiscard]] allocate::SolveResult solve(const allocate::LinearModel& model, const allocate::LinExpr& objective,
                                            const allocate::SolveOptions& options) const override {
    auto r = inner_.solve(model, objective, options);
    log_.push_back({"", r.solve_time_s, allocate::name(r.status)});
    return r;
  }
  void write_mps(const allocate::LinearModel& model, const allocate::LinExpr& objective,
                 const std::string& path) const override {
    inner_.write_mps(model, objective, path);
  }
  // The inner solver's session (CBC keeps its model loaded across levels), each level logged.
  [[nodiscard]] std::unique_ptr<allocate::LevelSession> open_session(allocate::LinearModel model,
                                                                     const allocate::SolveOptions& options) const override {
    return std::make_unique<Session>(inner_.open_session(std::move(model), options), log_);
  }
  /// The solves since the last call; the first `levels` are named after `level_names`, the rest
  /// are diagnosis solves.
  std::vector<MilpSolveTime> take(const std::vector<std::string>& level_names, std::size_t levels) const {
    auto out = std::exchange(log_, {});
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i].what = i < levels && i < level_names.size() ? level_names[i] : "diagnosis";
    return out;
  }

 private:
  class Session : public allocate::LevelSession {
   public:
    Session(std::unique_ptr<allocate::LevelSession> inner, std::vector<MilpSolveTime>& log)
        : inner_(std::move(inner)), log_(log) {}
    [[nodiscard]] allocate::SolveResult solve(const allocate::LinExpr& objective) override {
      auto r = inner_->solve(objective);
      log_.push_back({"", r.solve_time_s, allocate::name(r.status)});
      return r;
    }
    void lock(const allocate::LinExpr& expr, double bound, const std::string& name) override {
      inner_->lock(expr, bound, name);
    }

   private:
    std::unique_ptr<allocate::LevelSession> inner_;
    std::vector<MilpSolveTime>& log_;
  };

  const allocate::MilpSolver& inner_;
  mutable std::vector<MilpSolveTime> log_;
};

}  // namespace stream::pipeline
