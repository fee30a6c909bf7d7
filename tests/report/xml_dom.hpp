// A small element tree read with expat (a real XML parser), for tests that look inside the SVG
// pictures: each element with its attributes, its text and its children, in document order.
#pragma once

#include <expat.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace stream::test {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::string text;  ///< character data directly inside this element
  std::vector<std::unique_ptr<XmlElement>> children;
  XmlElement* parent = nullptr;

  [[nodiscard]] std::string attr(const std::string& k) const {
    auto it = attrs.find(k);
    return it == attrs.end() ? "" : it->second;
  }
  [[nodiscard]] double num(const std::string& k) const { return std::stod(attr(k)); }
  /// This element and every descendant, in document order.
  void walk(const std::function<void(const XmlElement&)>& f) const {
    f(*this);
    for (const auto& c : children) c->walk(f);
  }
  [[nodiscard]] const XmlElement* child(const std::string& n) const {
    for (const auto& c : children)
      if (c->name == n) return c.get();
    return nullptr;
  }
};

struct XmlDocument {
  std::unique_ptr<XmlElement> root;
  std::string error;  ///< empty when well-formed
};

inline XmlDocument parse_xml(const std::string& text) {
  struct State {
    std::unique_ptr<XmlElement> root;
    XmlElement* current = nullptr;
  } st;
  std::unique_ptr<std::remove_pointer_t<XML_Parser>, decltype(&XML_ParserFree)> p(XML_ParserCreate("UTF-8"), XML_ParserFree);
  XML_SetUserData(p.get(), &st);
  XML_SetElementHandler(
      p.get(),
      [](void* u, const XML_Char* name, const XML_Char** atts) {
        auto* s = static_cast<State*>(u);
        auto e = std::make_unique<XmlElement>();
        e->name = name;
        for (int i = 0; atts[i] != nullptr; i += 2) e->attrs[atts[i]] = atts[i + 1];
        e->parent = s->current;
        XmlElement* raw = e.get();
        if (s->current == nullptr) s->root = std::move(e);
        else s->current->children.push_back(std::move(e));
        s->current = raw;
      },
      [](void* u, const XML_Char*) {
        auto* s = static_cast<State*>(u);
        s->current = s->current->parent;
      });
  XML_SetCharacterDataHandler(p.get(), [](void* u, const XML_Char* t, int n) {
    auto* s = static_cast<State*>(u);
    if (s->current != nullptr) s->current->text.append(t, static_cast<std::size_t>(n));
  });
  XmlDocument d;
  if (XML_Parse(p.get(), text.data(), static_cast<int>(text.size()), 1) != XML_STATUS_OK)
    d.error = std::string(XML_ErrorString(XML_GetErrorCode(p.get()))) + " at line " +
              std::to_string(XML_GetCurrentLineNumber(p.get()));
  d.root = std::move(st.root);
  return d;
}

}  // namespace stream::test
