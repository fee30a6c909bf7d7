#include "stream/compat.hpp"

#include "stream/error.hpp"

namespace stream {

const char* name(Compat compat) { return compat == Compat::Stream113 ? "stream-1.13" : "none"; }

Compat parse_compat(const std::string& text, const std::string& where) {
  if (text == "none") return Compat::None;
  if (text == "stream-1.13") return Compat::Stream113;
  throw Error(where + ": unknown compatibility mode '" + text + "' (expected none or stream-1.13)");
}

}  // namespace stream
