#include "stream/allocate/mps.hpp"

#include <cmath>
#include <sstream>
#include <utility>
#include <vector>

namespace stream::allocate {

namespace {

// The ROWS section: N for the objective, then each row's type (a range is an L row with RANGES).
void mps_rows(std::ostream& f, const std::vector<Row>& rows) {
  f << "NAME tetra FREE\nROWS\n N obj\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    const char* type = row.lo == row.hi ? "E" : std::isinf(row.lo) ? "L" : std::isinf(row.hi) ? "G" : "L";
    f << " " << type << " r" << r << "\n";
  }
}

// The COLUMNS section, column by column, integer columns between MARKER lines.
void mps_columns(std::ostream& f, const LinearModel& model, const LinExpr& objective) {
  const auto& rows = model.rows();
  const auto& vars = model.vars();
  std::vector<std::vector<std::pair<std::size_t, double>>> cols(vars.size());
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (const auto& [v, c] : rows[r].terms) cols[static_cast<std::size_t>(v)].emplace_back(r, c);
  std::vector<double> obj(vars.size(), 0.0);
  for (const auto& [v, c] : objective.terms) obj[static_cast<std::size_t>(v)] += c;
  f << "COLUMNS\n";
  bool in_int = false;
  for (std::size_t j = 0; j < vars.size(); ++j) {
    const bool is_int = vars[j].kind != VarKind::Continuous;
    if (is_int != in_int) {
      f << " M" << j << " 'MARKER' " << (is_int ? "'INTORG'" : "'INTEND'") << "\n";
      in_int = is_int;
    }
    f << " c" << j << " obj " << obj[j] << "\n";
    for (const auto& [r, c] : cols[j]) f << " c" << j << " r" << r << " " << c << "\n";
  }
  if (in_int) f << " Mend 'MARKER' 'INTEND'\n";
}

void mps_rhs_and_ranges(std::ostream& f, const std::vector<Row>& rows) {
  f << "RHS\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    const double rhs = std::isinf(row.hi) ? row.lo : row.hi;
    if (rhs != 0) f << " rhs r" << r << " " << rhs << "\n";
  }
  f << "RANGES\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    if (!std::isinf(row.lo) && !std::isinf(row.hi) && row.lo != row.hi) f << " rng r" << r << " " << row.hi - row.lo << "\n";
  }
}

void mps_bounds(std::ostream& f, const std::vector<VarInfo>& vars) {
  f << "BOUNDS\n";
  for (std::size_t j = 0; j < vars.size(); ++j) {
    const auto& v = vars[j];
    if (v.lo != 0) f << (std::isinf(v.lo) ? " MI bnd c" : " LO bnd c") << j << (std::isinf(v.lo) ? "" : " " + std::to_string(v.lo)) << "\n";
    if (!std::isinf(v.hi)) f << " UP bnd c" << j << " " << v.hi << "\n";
    // An integer column without a bound is read as a binary (the MPS convention CoinMpsIO keeps):
    // `total` and `overlap` would then make every model infeasible.
    else if (v.kind != VarKind::Continuous) f << " PL bnd c" << j << "\n";
  }
}

// Names of rows and columns, for reading the file against the model.
void mps_names(std::ostream& f, const LinearModel& model) {
  const auto& rows = model.rows();
  const auto& vars = model.vars();
  f << "* rows:";
  for (std::size_t r = 0; r < rows.size(); ++r) f << "\n*  r" << r << " " << rows[r].family << " " << rows[r].name;
  f << "\n* columns:";
  for (std::size_t j = 0; j < vars.size(); ++j) f << "\n*  c" << j << " " << vars[j].name;
  f << "\n";
}

}  // namespace

std::string mps_text(const LinearModel& model, const LinExpr& objective) {
  // FREE: CoinMpsIO (CBC's reader) guesses the format line by line otherwise and misreads the
  // first BOUNDS line of this file. (CBC's own writer gzips its output; plain text opens everywhere.)
  std::ostringstream f;
  f.precision(17);
  mps_rows(f, model.rows());
  mps_columns(f, model, objective);
  mps_rhs_and_ranges(f, model.rows());
  mps_bounds(f, model.vars());
  f << "ENDATA\n";
  mps_names(f, model);
  return f.str();
}

}  // namespace stream::allocate
