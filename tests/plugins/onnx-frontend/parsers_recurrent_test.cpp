// LSTM, GRU and RNN lowered per direction into x_gates (X·W^T), h_gates (h(t-1)·R^T) and cell
// nodes with a SEQUENTIAL time loop, against hand-derived maps, loop sizes and iterator kinds.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// seq 5, batch 2, input 3, hidden 4 (LSTM: 4 gates -> 16 rows of W and R).
ModelBuilder lstm_model(const std::string& direction = "forward") {
  const std::int64_t dirs = direction == "bidirectional" ? 2 : 1;
  ModelBuilder m("g");
  m.input("X", F32, {5, 2, 3}).initializer("W", F32, {dirs, 16, 3}).initializer("R", F32, {dirs, 16, 4});
  m.output("Y", F32).output("Y_h", F32).output("Y_c", F32);
  m.node("LSTM", {"X", "W", "R"}, {"Y", "Y_h", "Y_c"}, "lstm").attr("hidden_size", 4).attr("direction", direction);
  return m;
}

TEST(Recurrent, LstmForwardLowersToGateProductsAndASequentialCell) {
  auto w = parse(lstm_model());
  // x_gates, dims (dir, t, b, g, i): X[t, b, i] · W[dir, g, i]; t is parallel (no recurrence).
  const auto& xg = node(w, "lstm_x_gates");
  EXPECT_EQ(xg.type, "MatMul");
  EXPECT_EQ(map_of(xg, 0), "(d1, d2, d4)");
  EXPECT_EQ(map_of(xg, 1), "(d0, d3, d4)");
  EXPECT_EQ(map_of(xg, 2), "(d0, d1, d2, d3)");
  EXPECT_EQ(sizes(xg), (std::vector<std::int64_t>{1, 5, 2, 16, 3}));
  EXPECT_EQ(kinds(xg), "PPPPR");
  // h_gates, dims (dir, t, b, g, j): h(t-1)[dir, t-1, b, j] · R[dir, g, j]; t is sequential.
  const auto& hg = node(w, "lstm_h_gates");
  EXPECT_EQ(hg.type, "MatMul");
  EXPECT_EQ(map_of(hg, 0), "(d0, (d1 + -1), d2, d4)");
  EXPECT_EQ(map_of(hg, 1), "(d0, d3, d4)");
  EXPECT_EQ(sizes(hg), (std::vector<std::int64_t>{1, 5, 2, 16, 4}));
  EXPECT_EQ(kinds(hg), "PSPPR");
  // cell, dims (dir, t, b, q, h): gate q of unit h at row q*4 + h; c(t-1) carried.
  const auto& cell = node(w, "lstm_cell");
  EXPECT_EQ(cell.type, "LSTMCell");
  ASSERT_EQ(cell.inputs.size(), 3u);
  EXPECT_EQ(map_of(cell, 0), "(d0, d1, d2, ((d3 * 4) + d4))");
  EXPECT_EQ(map_of(cell, 1), "(d0, d1, d2, ((d3 * 4) + d4))");
  EXPECT_EQ(map_of(cell, 2), "(d0, (d1 + -1), d2, d4)");
  EXPECT_EQ(cell.outputs[0]->name, "lstm_h");
  EXPECT_EQ(map_of(cell, 3), "(d0, d1, d2, d4)");
  EXPECT_EQ(sizes(cell), (std::vector<std::int64_t>{1, 5, 2, 4, 4}));
  EXPECT_EQ(kinds(cell), "PSPRP");
  // Y [seq, dir, b, h] copies h: dims (t, dir, b, h) read h[dir, t, b, h].
  EXPECT_EQ(map_of(node(w, "lstm_y"), 0), "(d1, d0, d2, d3)");
  // Y_h and Y_c: the last step t = 4, dims (dir, b, h).
  EXPECT_EQ(map_of(node(w, "lstm_y_h"), 0), "(d0, 4, d1, d2)");
  EXPECT_EQ(map_of(node(w, "lstm_y_c"), 0), "(d0, 4, d1, d2)");
  // The carried states enter through InEdges.
  EXPECT_TRUE(has_in_edge(w, "lstm_h_prev"));
  EXPECT_TRUE(has_in_edge(w, "lstm_c_prev"));
}

TEST(Recurrent, LstmWithOnlyYHasTheCellWriteY) {
  ModelBuilder m("g");
  m.input("X", F32, {5, 2, 3}).initializer("W", F32, {1, 16, 3}).initializer("R", F32, {1, 16, 4}).output("Y", F32);
  m.node("LSTM", {"X", "W", "R"}, {"Y"}, "lstm").attr("hidden_size", 4);
  auto w = parse(m);
  const auto& cell = node(w, "lstm_cell");
  // Y [seq 5, dir 1, b 2, h 4] at (t, dir, b, h) of the cell's (dir, t, b, q, h).
  EXPECT_EQ(cell.outputs[0]->name, "Y");
  EXPECT_EQ(map_of(cell, 3), "(d1, d0, d2, d4)");
  EXPECT_EQ(computations(w).size(), 3u);
}

TEST(Recurrent, GruBidirectionalBatchFirstHasOneChainPerDirection) {
  // layout 1: X [batch 2, seq 5, input 3]; hidden 4, 3 gates -> 12 rows; 2 directions.
  ModelBuilder m("g");
  m.input("X", F32, {2, 5, 3}).initializer("W", F32, {2, 12, 3}).initializer("R", F32, {2, 12, 4});
  m.output("Y", F32).output("Y_h", F32);
  m.node("GRU", {"X", "W", "R"}, {"Y", "Y_h"}, "gru").attr("hidden_size", 4).attr("direction", "bidirectional").attr("layout", 1);
  auto w = parse(m);
  EXPECT_EQ(map_of(node(w, "gru_x_gates_forward"), 0), "(d2, d1, d4)");
  // The reverse direction reads W's second slice and its state at t + 1.
  EXPECT_EQ(map_of(node(w, "gru_x_gates_reverse"), 1), "((d0 + 1), d3, d4)");
  const auto& hr = node(w, "gru_h_gates_reverse");
  EXPECT_EQ(map_of(hr, 0), "(d0, (d1 + 1), d2, d4)");
  EXPECT_EQ(map_of(hr, 1), "((d0 + 1), d3, d4)");
  EXPECT_EQ(kinds(hr), "PSPPR");
  // GRU's cell reads h(t-1) too (h = (1-z) n + z h(t-1)); gate rows q*4 + h, q < 3.
  const auto& cell = node(w, "gru_cell_forward");
  ASSERT_EQ(cell.inputs.size(), 3u);
  EXPECT_EQ(map_of(cell, 2), "(d0, (d1 + -1), d2, d4)");
  EXPECT_EQ(sizes(cell), (std::vector<std::int64_t>{1, 5, 2, 3, 4}));
  EXPECT_EQ(kinds(cell), "PSPRP");
  // Y [batch, seq, dir, h]: dims (b, t, dir, h); direction d covers dir = d.
  const auto& y = node(w, "gru_y");
  EXPECT_EQ(y.type, "Concat");
  EXPECT_EQ(map_of(y, 0), "(d2, d1, d0, d3)");
  EXPECT_EQ(map_of(y, 1), "((d2 + -1), d1, d0, d3)");
  EXPECT_EQ(sizes(y), (std::vector<std::int64_t>{2, 5, 2, 4}));
  // Y_h [batch, dir, h]: the forward direction's last step is t = 4, the reverse's t = 0.
  const auto& yh = node(w, "gru_y_h");
  EXPECT_EQ(map_of(yh, 0), "(d1, 4, d0, d2)");
  EXPECT_EQ(map_of(yh, 1), "((d1 + -1), 0, d0, d2)");
}

TEST(Recurrent, RnnReverseCarriesOnlyTheHiddenProduct) {
  ModelBuilder m("g");
  m.input("X", F32, {4, 1, 2}).initializer("W", F32, {1, 3, 2}).initializer("R", F32, {1, 3, 3}).output("Y_h", F32);
  m.node("RNN", {"X", "W", "R"}, {"", "Y_h"}, "rnn").attr("hidden_size", 3).attr("direction", "reverse");
  auto w = parse(m);
  EXPECT_EQ(map_of(node(w, "rnn_h_gates"), 0), "(d0, (d1 + 1), d2, d4)");
  EXPECT_EQ(kinds(node(w, "rnn_h_gates")), "PSPPR");
  // One gate: the cell is element-wise over (dir, t, b, q=1, h), no state of its own.
  const auto& cell = node(w, "rnn_cell");
  EXPECT_EQ(cell.inputs.size(), 2u);
  EXPECT_EQ(kinds(cell), "PPPRP");
  // Y unused: the cell writes its own h; Y_h is its t = 0 (reverse).
  EXPECT_EQ(map_of(node(w, "rnn_y_h"), 0), "(d0, 0, d1, d2)");
}

TEST(Recurrent, SequenceLensAndBadWeightsAreErrors) {
  ModelBuilder m("g");
  m.input("X", F32, {5, 2, 3}).initializer("W", F32, {1, 16, 3}).initializer("R", F32, {1, 16, 4});
  m.input("lens", I32, {2}).output("Y", F32);
  m.node("LSTM", {"X", "W", "R", "", "lens"}, {"Y"}, "lstm").attr("hidden_size", 4);
  expect_error([&] { (void)parse(m); }, {"lstm", "sequence_lens is not supported"});
  ModelBuilder m2("g");
  m2.input("X", F32, {5, 2, 3}).initializer("W", F32, {1, 12, 3}).initializer("R", F32, {1, 16, 4}).output("Y", F32);
  m2.node("LSTM", {"X", "W", "R"}, {"Y"}, "lstm").attr("hidden_size", 4);
  expect_error([&] { (void)parse(m2); }, {"lstm", "W must have shape [1, 16, 3]"});
}

}  // namespace
