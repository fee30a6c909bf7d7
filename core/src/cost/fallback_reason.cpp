#include "stream/cost/fallback_reason.hpp"

#include <algorithm>
#include <optional>
#include <regex>

namespace stream::cost {

// The helpers' own namespace: the sources compile in batches (CMakeLists.txt), and names such as
// `operand` or `widths` are common.
namespace {
namespace fallback_words {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The tile's operand of role `role` ("O", "A", "B"), or null.
const TileOperand* operand(const Tile& tile, const std::string& role) {
  const auto it = std::find_if(tile.operands.begin(), tile.operands.end(), [&](const TileOperand& o) { return o.role == role; });
  return it == tile.operands.end() ? nullptr : &*it;
}

std::size_t input_count(const Tile& tile) {
  return static_cast<std::size_t>(std::count_if(tile.operands.begin(), tile.operands.end(),
                                                [](const TileOperand& o) { return o.role != "O"; }));
}

// "one-input", "two-input", "three-input", ...: how users name operator and array arities.
std::string arity(std::size_t n) {
  static const char* const words[] = {"no-input", "one-input", "two-input", "three-input", "four-input"};
  return n < std::size(words) ? words[n] : std::to_string(n) + "-input";
}

std::size_t array_inputs(const CoreModel& m) { return (m.has_memop(kI1) ? 1u : 0u) + (m.has_memop(kI2) ? 1u : 0u); }

// The model's operand role (O, A, B) as the memory operand a core file allocates (O, I1, I2).
int memop_of_role(const std::string& role) { return role == "O" ? kO : role == "A" ? kI1 : kI2; }
const char* memop_name(int m) { return m == kI1 ? "I1" : m == kI2 ? "I2" : "O"; }
const char* operand_words(int m) { return m == kI1 ? "first input" : m == kI2 ? "second input" : "output"; }

// The element width the model stores operand `role` at: partial sums at the accumulator's.
int stored_bits(const Tile& tile, const std::string& role, const CoreModel& model) {
  const TileOperand* o = operand(tile, role);
  if (o == nullptr) return 0;
  return role == "O" && model.accumulator_bits > 0 ? model.accumulator_bits : o->precision_bits;
}

// A memory smaller than one element of an operand it holds: the usual reason no ordering fits.
std::optional<std::string> too_small_memory(const Tile& tile, const CoreModel& model) {
  for (const auto& o : tile.operands) {
    const int m = memop_of_role(o.role);
    const int bits = stored_bits(tile, o.role, model);
    for (int mem : model.levels[static_cast<std::size_t>(m)]) {
      const CoreMemory& cm = model.mems[static_cast<std::size_t>(mem)];
      if (bits > 0 && cm.size < bits)
        return "no loop ordering fits: memory '" + cm.name + "' holds " + std::to_string(static_cast<long long>(cm.size)) +
               " bits, less than one " + std::to_string(bits) + "-bit element of the " + operand_words(m) +
               " (the hardware is sized for narrower types: try --cast)";
    }
  }
  return std::nullopt;
}

std::string widths(const Tile& tile) {
  std::string s;
  for (const auto& o : tile.operands) s += (s.empty() ? "" : ", ") + o.role + " " + std::to_string(o.precision_bits);
  return s;
}

std::string no_ordering(const Tile& tile, const CoreModel* model) {
  if (model != nullptr)
    if (auto small = too_small_memory(tile, *model)) return *small;
  return "no loop ordering keeps the operands (" + widths(tile) +
         " bits) within the core's memories (try --cast, or a finer --intra-core-tiling)";
}

// An unlinked memory operand (ZigZag's KeyError): the array reads more inputs than the node has.
std::string unlinked(const Tile& tile, const CoreModel* model) {
  const std::size_t n = input_count(tile);
  const std::size_t a = model != nullptr ? array_inputs(*model) : n + 1;
  return arity(n) + " operator on a " + arity(a) +
         " array: the per-core model needs a tensor for every operand the core's memories serve";
}

std::string too_many_operands(const Tile& tile, const CoreModel* model) {
  if (model != nullptr && (!model->has_memop(kI1) || !model->has_memop(kI2) || !model->has_memop(kO)))
    return "the core's memories do not serve all of I1, I2 and O, which the per-core model needs";
  return arity(input_count(tile)) + " operator: the per-core model costs at most two inputs and one output";
}

// "no port for DIR of operand R at memory level L": the memory and the allocation tag missing,
// in the words `stream validate`'s probe uses (cost/core_probe.cpp).
std::optional<std::string> missing_port(const std::string& text, const CoreModel* model) {
  static const std::regex form("no port for (\\w+) of operand (\\w+) at memory level (\\d+)");
  std::smatch m;
  if (!std::regex_search(text, m, form)) return std::nullopt;
  struct Direction {
    const char* name;
    const char* tag;
    const char* words;
  };
  static const Direction dirs[] = {{"RD_OUT_TO_LOW", "tl", "reads towards lower levels"},
                                   {"WR_IN_BY_LOW", "fl", "writes from lower levels"},
                                   {"RD_OUT_TO_HIGH", "th", "reads towards the higher level"},
                                   {"WR_IN_BY_HIGH", "fh", "writes from the higher level"}};
  const auto* d = std::find_if(std::begin(dirs), std::end(dirs), [&](const Direction& x) { return m[1] == x.name; });
  if (d == std::end(dirs)) return std::nullopt;
  const int memop = memop_of_role(m[2].str());
  const auto level = static_cast<std::size_t>(std::stoul(m[3].str()));
  std::string memory;
  if (model != nullptr)
    if (const auto& levels = model->levels[static_cast<std::size_t>(memop)]; level < levels.size())
      memory = " (" + model->mems[static_cast<std::size_t>(levels[level])].name + ")";
  return "memory level " + m[3].str() + " of operand " + memop_name(memop) + memory + " has no port allocated for " +
         d->words + " ('" + memop_name(memop) + ", " + d->tag + "'); add the tag to the `allocation` of its ports";
}

// The spatial mapping's failures. No candidate for an array dimension means every layer dim's
// unrolling along it was capped to 0: a port of an inner memory there is narrower than one element.
std::string spatial(const std::string& text) {
  if (starts_with(text, "ZeroDivisionError")) return "a dimension of the node has size 0 on this core";
  static const std::string no_candidate = "no spatial unrolling candidate for ";
  if (starts_with(text, no_candidate.c_str()))
    return "no spatial mapping fits array dimension " + text.substr(no_candidate.size()) +
           ": a port of the innermost memories along it is narrower than one element of an operand (the hardware is "
           "sized for narrower types: try --cast)";
  return "no spatial mapping of the node fits the core's array";
}

std::string words(const std::string& r, const Tile& tile, const CoreModel* model) {
  if (starts_with(r, "NoValidLoopOrdering")) return no_ordering(tile, model);
  if (starts_with(r, "KeyError: I") || starts_with(r, "KeyError: O")) return unlinked(tile, model);
  if (starts_with(r, "AssertionError")) return too_many_operands(tile, model);
  if (starts_with(r, "NotImplementedError")) return "an operand is indexed in a form the per-core model does not describe";
  if (auto port = missing_port(r, model)) return *port;
  if (starts_with(r, "no spatial") || starts_with(r, "no valid spatial") || starts_with(r, "ZeroDivisionError"))
    return spatial(r);
  if (starts_with(r, "time budget exhausted")) return "the loop-ordering search ran out of time before it found one that fits";
  return "";  // already a sentence (a core type without a model, several outputs), or unknown
}

}  // namespace fallback_words
}  // namespace

FallbackReason explain_fallback(const std::string& model_reason, const Tile& tile, const CoreModel* model) {
  namespace fw = fallback_words;
  std::string detail = model_reason;
  if (fw::starts_with(model_reason, "NoValidLoopOrdering")) detail += " (operand widths in bits: " + fw::widths(tile) + ")";
  std::string reason = fw::words(model_reason, tile, model);
  if (reason.empty()) reason = model_reason;
  return {reason, detail};
}

}  // namespace stream::cost
