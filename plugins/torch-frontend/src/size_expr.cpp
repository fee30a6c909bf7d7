#include "size_expr.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <vector>

#include <stream/error.hpp>
#include <stream/ir/checked.hpp>

namespace stream::torch_frontend::detail {

namespace {

class ExprParser {
 public:
  ExprParser(const std::string& text, const std::function<std::int64_t(const std::string&)>& lookup)
      : s_(text), lookup_(lookup) {}
  std::int64_t parse() {
    const auto v = expr();
    skip();
    if (i_ != s_.size()) throw BadExpr{};
    return v;
  }
  // The symbol named by an expression that is exactly one symbol, or "".
  static std::string lone_symbol(const std::string& text) {
    std::string t;
    for (char c : text)
      if (!std::isspace(static_cast<unsigned char>(c))) t += c;
    auto ident = [](const std::string& x) {
      if (x.empty() || !(std::isalpha(static_cast<unsigned char>(x[0])) || x[0] == '_')) return false;
      return std::all_of(x.begin(), x.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    };
    if (ident(t)) return t;
    const std::string head = "Symbol('";
    if (t.rfind(head, 0) == 0 && t.back() == ')') {
      const auto end = t.find('\'', head.size());
      if (end != std::string::npos) return t.substr(head.size(), end - head.size());
    }
    return "";
  }

 private:
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(const std::string& tok) {
    skip();
    if (s_.compare(i_, tok.size(), tok) == 0) {
      i_ += tok.size();
      return true;
    }
    return false;
  }
  std::int64_t expr() {
    auto v = term();
    for (;;) {
      if (eat("+")) v = add(v, term());
      else if (eat("-")) v = add(v, neg(term()));
      else return v;
    }
  }
  // Checked (stream/ir/checked.hpp): a size expression that overflows int64 cannot be evaluated
  // (BadExpr), and a power is computed by squaring, so `s0**1000000000000` costs 40 steps.
  template <typename Op>
  static std::int64_t checked(Op op) {
    try {
      return op();
    } catch (const Error&) {
      throw BadExpr{};
    }
  }
  static std::int64_t add(std::int64_t a, std::int64_t b) { return checked([&] { return checked_add(a, b, "size"); }); }
  static std::int64_t mul(std::int64_t a, std::int64_t b) { return checked([&] { return checked_mul(a, b, "size"); }); }
  static std::int64_t neg(std::int64_t a) { return mul(a, -1); }
  static std::int64_t power(std::int64_t base, std::int64_t e) {
    if (e < 0) throw BadExpr{};
    std::int64_t r = 1;
    for (; e > 0; e >>= 1) {
      if (e & 1) r = mul(r, base);
      if (e > 1) base = mul(base, base);
    }
    return r;
  }
  static std::int64_t floordiv(std::int64_t a, std::int64_t b) {
    if (b == 0 || (a == std::numeric_limits<std::int64_t>::min() && b == -1)) throw BadExpr{};
    auto q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
  }
  std::int64_t term() {
    auto v = factor();
    for (;;) {
      if (eat("**")) {
        v = power(v, factor());
      } else if (eat("*")) v = mul(v, factor());
      else if (eat("//")) v = floordiv(v, factor());
      else if (eat("/")) v = floordiv(v, factor());
      else if (eat("%")) {
        const auto b = factor();
        if (b == 0) throw BadExpr{};
        v = add(v, neg(mul(floordiv(v, b), b)));
      } else return v;
    }
  }
  std::string ident() {
    skip();
    const auto start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    return s_.substr(start, i_ - start);
  }
  std::int64_t factor() {
    skip();
    if (i_ >= s_.size()) throw BadExpr{};
    if (eat("-")) return neg(factor());
    if (eat("(")) {
      const auto v = expr();
      if (!eat(")")) throw BadExpr{};
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(s_[i_]))) {
      std::int64_t v = 0;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) v = add(mul(v, 10), s_[i_++] - '0');
      return v;
    }
    const auto id = ident();
    if (id.empty()) throw BadExpr{};
    if (!eat("(")) return lookup_(id);
    // srepr call: Symbol('s0', integer=True), Integer(2), Mul(a, b), Add(a, b), FloorDiv(a, b), ...
    if (id == "Symbol") {
      skip();
      if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) throw BadExpr{};
      const char q = s_[i_++];
      const auto end = s_.find(q, i_);
      if (end == std::string::npos) throw BadExpr{};
      const auto name = s_.substr(i_, end - i_);
      i_ = end + 1;
      skip_rest_of_call();
      return lookup_(name);
    }
    std::vector<std::int64_t> args;
    skip();
    if (!eat(")")) {
      for (;;) {
        // keyword arguments (integer=True) carry no value
        const auto save = i_;
        const auto kw = ident();
        if (!kw.empty() && eat("=")) {
          ident();
        } else {
          i_ = save;
          args.push_back(expr());
        }
        if (eat(")")) break;
        if (!eat(",")) throw BadExpr{};
      }
    }
    if (args.empty()) throw BadExpr{};
    if (id == "Integer") return args[0];
    if (id == "Add") {
      std::int64_t v = 0;
      for (auto a : args) v = add(v, a);
      return v;
    }
    if (id == "Mul") {
      std::int64_t v = 1;
      for (auto a : args) v = mul(v, a);
      return v;
    }
    if (id == "FloorDiv" && args.size() == 2) return floordiv(args[0], args[1]);
    if ((id == "Mod" || id == "PythonMod") && args.size() == 2 && args[1] != 0)
      return add(args[0], neg(mul(floordiv(args[0], args[1]), args[1])));
    if (id == "Max") return *std::max_element(args.begin(), args.end());
    if (id == "Min") return *std::min_element(args.begin(), args.end());
    if (id == "Pow" && args.size() == 2) return power(args[0], args[1]);
    throw BadExpr{};
  }
  void skip_rest_of_call() {
    int depth = 1;
    while (i_ < s_.size() && depth > 0) {
      if (s_[i_] == '(') ++depth;
      else if (s_[i_] == ')') --depth;
      ++i_;
    }
    if (depth != 0) throw BadExpr{};
  }

  const std::string& s_;
  const std::function<std::int64_t(const std::string&)>& lookup_;
  std::size_t i_ = 0;
};

}  // namespace

std::int64_t evaluate_size(const std::string& text, const std::function<std::int64_t(const std::string&)>& lookup) {
  return ExprParser(text, lookup).parse();
}

std::string lone_symbol(const std::string& text) { return ExprParser::lone_symbol(text); }

}  // namespace stream::torch_frontend::detail
