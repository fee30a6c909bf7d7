// LSTM, GRU and RNN, lowered per direction into affine nodes over the whole sequence with a
// SEQUENTIAL time loop t (spec §1.8), G gates (4, 3, 1) of hidden size H:
//   <n>_x_gates  MatMul (dir, t, b, g, i): X(t, b, i) · W(dir + d, g, i) -> XG[1, seq, batch, G*H]
//                (no recurrence: t is parallel, the input projection of every step at once);
//   <n>_h_gates  MatMul (dir, t, b, g, j): Hprev(dir, t -/+ 1, b, j) · R(dir + d, g, j) -> HG
//                (the recurrent product; Hprev is the carried state h(t-1), flagged in
//                state_inputs so t is SEQUENTIAL);
//   <n>_cell     <Op>Cell (dir, t, b, q, h): XG and HG at gate q, unit h (q*H + h), LSTM's c(t-1)
//                and GRU's h(t-1) -> h(t) (and LSTM's c(t)); q is the gate combination (a loop of
//                G, given as a window extent).
// The carried states h(t-1)/c(t-1) are state tensors entering through InEdges, as linear
// attention's and Mamba's state_prev do (spec §4.3-4.4): the IR has no cycles. dir is a unit loop
// reading the direction's slice of W and R at dir + d, so every map stays plain for the per-core
// cost model. A reverse direction reads its state at t + 1. Y (a Concat of the directions' h; the
// cell's own output when there is one direction and Y_h is unused), Y_h and Y_c (the last step of
// each direction) are built only when used. Biases, peepholes and initial states are not operands (they do not
// change the loop nest); sequence_lens is not supported.
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

struct Family {
  std::string op;
  std::int64_t gates;
  std::size_t activations_per_direction;
  bool cell_state;  // LSTM's c
};

struct Shape3 {
  std::int64_t seq, batch, input, hidden, dirs;
  int layout;
};

std::int64_t direction_count(const OnnxNodeView& v) {
  const auto dir = v.attr_string("direction", "forward");
  if (dir == "forward" || dir == "reverse") return 1;
  if (dir == "bidirectional") return 2;
  v.fail("unknown direction '" + dir + "' (expected forward, reverse or bidirectional)");
}

void expect_shape(const OnnxNodeView& v, const TensorPtr& t, const std::vector<std::int64_t>& shape, const std::string& what) {
  if (t->shape == shape) return;
  std::string s;
  for (auto e : shape) s += (s.empty() ? "" : ", ") + std::to_string(e);
  v.fail(what + " must have shape [" + s + "]", t->name);
}

void check_attributes(const OnnxNodeView& v, const Family& f, std::int64_t dirs) {
  if (has_input(v, 4)) v.fail("sequence_lens is not supported (every sequence must have the full length)", v.inputs[4].name);
  if (const auto layout = v.attr_int("layout", 0); layout != 0 && layout != 1)
    v.fail("layout must be 0 or 1, got " + std::to_string(layout));
  if (v.has_attribute("activations")) {
    const auto n = v.attributes.at("activations").strings.size();
    if (n != f.activations_per_direction * static_cast<std::size_t>(dirs))
      v.fail("activations lists " + std::to_string(n) + " functions; expected " +
             std::to_string(f.activations_per_direction * static_cast<std::size_t>(dirs)));
  }
  for (const char* flag : {"input_forget", "linear_before_reset"})
    if (const auto x = v.attr_int(flag, 0); x != 0 && x != 1) v.fail(std::string(flag) + " must be 0 or 1");
}

Shape3 check_shapes(const OnnxNodeView& v, const Family& f, const TensorPtr& X, const TensorPtr& W, const TensorPtr& R) {
  Shape3 s{};
  s.dirs = direction_count(v);
  s.layout = static_cast<int>(v.attr_int("layout", 0));
  if (X->rank() != 3) v.fail("X must be 3-D ([seq, batch, input], or [batch, seq, input] with layout=1)", X->name);
  s.seq = X->shape[s.layout == 0 ? 0 : 1];
  s.batch = X->shape[s.layout == 0 ? 1 : 0];
  s.input = X->shape[2];
  if (R->rank() != 3) v.fail("R must be 3-D [num_directions, " + std::to_string(f.gates) + "*hidden, hidden]", R->name);
  s.hidden = v.attr_int("hidden_size", R->shape[2]);
  if (s.hidden < 1) v.fail("hidden_size must be >= 1");
  expect_shape(v, W, {s.dirs, f.gates * s.hidden, s.input}, "W");
  expect_shape(v, R, {s.dirs, f.gates * s.hidden, s.hidden}, "R");
  return s;
}

// The tensors a direction produces and the graph outputs built from them.
struct DirectionResult {
  TensorPtr h, c;       // per-direction [1, seq, batch, H], or Y itself
  bool h_is_y = false;  // the cell wrote Y directly (one direction)
  bool reverse = false;
};

std::vector<Node> lower_direction(const OnnxNodeView& v, OnnxParseContext& ctx, const Family& f, const Shape3& s,
                                  std::int64_t d, const TensorPtr& Y, bool y_h_used, DirectionResult& out) {
  auto X = input_tensor(v, ctx, 0);
  auto W = input_tensor(v, ctx, 1);
  auto R = input_tensor(v, ctx, 2);
  out.reverse = v.attr_string("direction", "forward") == "reverse" || d == 1;
  const std::string sfx = s.dirs == 2 ? (d == 0 ? "_forward" : "_reverse") : "";
  const auto G = f.gates, H = s.hidden;
  const std::vector<std::int64_t> gate_shape{1, s.seq, s.batch, G * H}, state_shape{1, s.seq, s.batch, H};
  const int step = out.reverse ? 1 : -1;
  auto dt = X->dtype;
  std::vector<Node> nodes;

  auto xg = ctx.new_tensor(v.name + "_x_gates" + sfx, dt, gate_shape);
  {  // dims (dir, t, b, g, i)
    const AffineMap xm = s.layout == 0 ? AffineMap(5, {E::dim(1), E::dim(2), E::dim(4)}) : AffineMap(5, {E::dim(2), E::dim(1), E::dim(4)});
    auto n = make_computation(v.name + "_x_gates" + sfx, "MatMul", {X, W}, {xg},
                              {xm, AffineMap(5, {E::dim(0) + d, E::dim(3), E::dim(4)}), AffineMap::of_dims(5, std::vector<int>{0, 1, 2, 3})});
    n.dim_names = {"dir", "t", "b", "g", "i"};
    nodes.push_back(std::move(n));
  }
  auto hprev = ctx.new_state_tensor(v.name + "_h_prev" + sfx, dt, state_shape);
  auto hg = ctx.new_tensor(v.name + "_h_gates" + sfx, dt, gate_shape);
  {  // dims (dir, t, b, g, j)
    auto n = make_computation(v.name + "_h_gates" + sfx, "MatMul", {hprev, R}, {hg},
                              {AffineMap(5, {E::dim(0), E::dim(1) + step, E::dim(2), E::dim(4)}),
                               AffineMap(5, {E::dim(0) + d, E::dim(3), E::dim(4)}), AffineMap::of_dims(5, std::vector<int>{0, 1, 2, 3})});
    n.dim_names = {"dir", "t", "b", "g", "j"};
    n.state_inputs = {0};
    nodes.push_back(std::move(n));
  }
  // Cell: dims (dir, t, b, q, h).
  const AffineMap gate_map(5, {E::dim(0), E::dim(1), E::dim(2), E::dim(3) * H + E::dim(4)});
  const AffineMap state_prev_map(5, {E::dim(0), E::dim(1) + step, E::dim(2), E::dim(4)});
  const AffineMap state_map = AffineMap::of_dims(5, std::vector<int>{0, 1, 2, 4});
  std::vector<TensorPtr> ins{xg, hg};
  std::vector<AffineMap> maps{gate_map, gate_map};
  if (f.cell_state) ins.push_back(ctx.new_state_tensor(v.name + "_c_prev" + sfx, dt, state_shape));
  else if (f.op == "GRU") ins.push_back(hprev);  // h(t) = (1 - z) n + z h(t-1)
  if (ins.size() == 3) maps.push_back(state_prev_map);
  // A graph output that other nodes read is not supported downstream, so the cell writes Y itself
  // only when Y_h does not read it.
  out.h_is_y = s.dirs == 1 && Y && !y_h_used;
  out.h = out.h_is_y ? Y : ctx.new_tensor(v.name + "_h" + sfx, dt, state_shape);
  std::vector<TensorPtr> outs{out.h};
  if (out.h_is_y)  // Y: [seq, 1, batch, H] or [batch, seq, 1, H]
    maps.push_back(s.layout == 0 ? AffineMap::of_dims(5, std::vector<int>{1, 0, 2, 4}) : AffineMap::of_dims(5, std::vector<int>{2, 1, 0, 4}));
  else
    maps.push_back(state_map);
  if (f.cell_state) {
    out.c = ctx.new_tensor(v.name + "_c" + sfx, dt, state_shape);
    outs.push_back(out.c);
    maps.push_back(state_map);
  }
  auto cell = make_computation(v.name + "_cell" + sfx, f.op + "Cell", ins, outs, maps);
  cell.dim_names = {"dir", "t", "b", "q", "h"};
  cell.window_extents = {{3, G}};
  if (ins.size() == 3) cell.state_inputs = {2};
  validate(cell);
  nodes.push_back(std::move(cell));
  return nodes;
}

// Y from the directions' h: dims are Y's axes, (t, dir, b, h) or (b, t, dir, h).
Node assemble_y(const OnnxNodeView& v, const Shape3& s, const std::vector<DirectionResult>& dirs, const TensorPtr& Y) {
  std::vector<TensorPtr> ins;
  std::vector<AffineMap> maps;
  for (std::int64_t d = 0; d < s.dirs; ++d) {
    ins.push_back(dirs[static_cast<std::size_t>(d)].h);
    maps.push_back(s.layout == 0 ? AffineMap(4, {E::dim(1) - d, E::dim(0), E::dim(2), E::dim(3)})
                                 : AffineMap(4, {E::dim(2) - d, E::dim(1), E::dim(0), E::dim(3)}));
  }
  maps.push_back(AffineMap::identity(4));
  auto n = make_computation(v.name + "_y", "Concat", ins, {Y}, maps);  // one input: a copy
  if (s.dirs == 2) {
    for (std::size_t i = 0; i < ins.size(); ++i) n.access_overrides.push_back(masked(n.operand_mapping[i]));
    n.access_overrides.emplace_back(std::nullopt);
  }
  return n;
}

// Y_h / Y_c: the last step of every direction (t = seq-1 forward, 0 reverse); dims are the
// output's axes, (dir, b, h) or (b, dir, h).
Node last_step(const OnnxNodeView& v, const Shape3& s, const std::vector<DirectionResult>& dirs, bool cell, const TensorPtr& out,
               const std::string& suffix) {
  std::vector<TensorPtr> ins;
  std::vector<AffineMap> maps;
  const int dir = s.layout == 0 ? 0 : 1, b = s.layout == 0 ? 1 : 0;
  for (std::int64_t d = 0; d < s.dirs; ++d) {
    const auto& r = dirs[static_cast<std::size_t>(d)];
    const E last = E::constant(r.reverse ? 0 : s.seq - 1);
    ins.push_back(cell ? r.c : r.h);
    if (!cell && r.h_is_y)
      maps.push_back(s.layout == 0 ? AffineMap(3, {last, E::dim(dir), E::dim(b), E::dim(2)})
                                   : AffineMap(3, {E::dim(b), last, E::dim(dir), E::dim(2)}));
    else
      maps.push_back(AffineMap(3, {E::dim(dir) - d, last, E::dim(b), E::dim(2)}));
  }
  maps.push_back(AffineMap::identity(3));
  auto n = make_computation(v.name + suffix, s.dirs == 1 ? "Slice" : "Concat", ins, {out}, maps);
  if (s.dirs == 2) {
    for (std::size_t i = 0; i < ins.size(); ++i) n.access_overrides.push_back(masked(n.operand_mapping[i]));
    n.access_overrides.emplace_back(std::nullopt);
  }
  return n;
}

TensorPtr optional_output(const OnnxNodeView& v, OnnxParseContext& ctx, std::size_t i, const std::vector<std::int64_t>& shape,
                          const std::string& what) {
  if (i >= v.outputs.size() || !v.outputs[i].present()) return nullptr;
  auto t = ctx.tensor(v.outputs[i].name);
  expect_shape(v, t, shape, what);
  return t;
}

OnnxParser recurrent_parser(Family f) {
  return [f](const OnnxNodeView& v, OnnxParseContext& ctx) -> std::vector<Node> {
    require_inputs(v, 3);
    const auto dirs = direction_count(v);
    check_attributes(v, f, dirs);
    const auto s = check_shapes(v, f, input_tensor(v, ctx, 0), input_tensor(v, ctx, 1), input_tensor(v, ctx, 2));
    const auto l0 = s.layout == 0;
    auto Y = optional_output(v, ctx, 0, l0 ? std::vector<std::int64_t>{s.seq, s.dirs, s.batch, s.hidden}
                                           : std::vector<std::int64_t>{s.batch, s.seq, s.dirs, s.hidden}, "Y");
    const std::vector<std::int64_t> last_shape =
        l0 ? std::vector<std::int64_t>{s.dirs, s.batch, s.hidden} : std::vector<std::int64_t>{s.batch, s.dirs, s.hidden};
    auto Yh = optional_output(v, ctx, 1, last_shape, "Y_h");
    auto Yc = f.cell_state ? optional_output(v, ctx, 2, last_shape, "Y_c") : nullptr;
    if (!f.cell_state && v.outputs.size() > 2) v.fail(f.op + " has at most two outputs (Y, Y_h)");
    if (!Y && !Yh && !Yc) v.fail("none of its outputs is used");
    std::vector<Node> out;
    std::vector<DirectionResult> results(static_cast<std::size_t>(s.dirs));
    for (std::int64_t d = 0; d < s.dirs; ++d)
      for (auto& n : lower_direction(v, ctx, f, s, d, Y, Yh != nullptr, results[static_cast<std::size_t>(d)]))
        out.push_back(std::move(n));
    if (Y && !results.front().h_is_y) out.push_back(assemble_y(v, s, results, Y));
    if (Yh) out.push_back(last_step(v, s, results, false, Yh, "_y_h"));
    if (Yc) out.push_back(last_step(v, s, results, true, Yc, "_y_c"));
    for (const auto& n : out) validate(n);
    return out;
  };
}

}  // namespace

void add_recurrent_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("LSTM", recurrent_parser({"LSTM", 4, 3, true}));
  out.emplace_back("GRU", recurrent_parser({"GRU", 3, 2, false}));
  out.emplace_back("RNN", recurrent_parser({"RNN", 1, 1, false}));
}

}  // namespace stream::onnx_frontend
