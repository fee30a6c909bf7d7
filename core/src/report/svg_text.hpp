// Text in the SVG pictures: XML escaping of names from the models, and whether a label fits the
// width it is given (so a bar shows its name only when the name fits, else just its <title>).
#pragma once

#include <cstddef>
#include <string>

#include "stream/io/utf8.hpp"

namespace stream::report::detail {

/// Text for an XML 1.0 element or attribute. Names are raw bytes from the models: ill-formed
/// UTF-8 and the C0 control characters other than tab, LF and CR (which XML 1.0 forbids even as
/// character references) become U+FFFD, so the file always parses.
inline std::string xml_text(const std::string& s) {
  std::string o;
  for (char c : io::to_valid_utf8(s)) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') o += "\xEF\xBF\xBD";
    else o += c;
  }
  return o;
}

/// Code points of valid UTF-8 text (continuation bytes not counted).
inline std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

/// Width estimate of `text` at `font_px`: 0.62 em per code point, above the average advance of
/// sans-serif fonts (about 0.5 to 0.55 em for mixed text), so an estimate that fits does fit.
inline double text_width(const std::string& text, double font_px) {
  return 0.62 * font_px * static_cast<double>(code_points(io::to_valid_utf8(text)));
}

inline bool text_fits(const std::string& text, double font_px, double width) { return text_width(text, font_px) <= width; }

}  // namespace stream::report::detail
