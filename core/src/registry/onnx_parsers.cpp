#include "stream/registry/onnx_parsers.hpp"

#include "stream/error.hpp"

namespace stream {

std::int64_t OnnxNodeView::attr_int(const std::string& key, std::int64_t fallback) const {
  auto it = attributes.find(key);
  if (it == attributes.end()) return fallback;
  if (it->second.kind == OnnxAttribute::Kind::Int) return it->second.i;
  if (it->second.kind == OnnxAttribute::Kind::Ints && it->second.ints.size() == 1) return it->second.ints[0];
  fail("attribute '" + key + "' should be an integer");
}

double OnnxNodeView::attr_float(const std::string& key, double fallback) const {
  auto it = attributes.find(key);
  if (it == attributes.end()) return fallback;
  if (it->second.kind == OnnxAttribute::Kind::Float) return it->second.f;
  if (it->second.kind == OnnxAttribute::Kind::Int) return static_cast<double>(it->second.i);
  fail("attribute '" + key + "' should be a float");
}

std::string OnnxNodeView::attr_string(const std::string& key, const std::string& fallback) const {
  auto it = attributes.find(key);
  if (it == attributes.end()) return fallback;
  if (it->second.kind == OnnxAttribute::Kind::String) return it->second.s;
  fail("attribute '" + key + "' should be a string");
}

std::vector<std::int64_t> OnnxNodeView::attr_ints(const std::string& key, const std::vector<std::int64_t>& fallback) const {
  auto it = attributes.find(key);
  if (it == attributes.end()) return fallback;
  if (it->second.kind == OnnxAttribute::Kind::Ints) return it->second.ints;
  if (it->second.kind == OnnxAttribute::Kind::Int) return {it->second.i};  // scalar axis attributes (spec §9)
  fail("attribute '" + key + "' should be a list of integers");
}

void OnnxNodeView::fail(const std::string& message, const std::string& tensor) const {
  throw Error(op_type + ": " + message, Location{.file = file, .node = name, .operand = tensor});
}

}  // namespace stream

namespace stream {

void OnnxParseContext::set_transpose_perm(const std::string& fusion_edge, std::vector<std::int64_t> /*perm*/) {
  throw Error("this frontend cannot record the permutation of the transpose '" + fusion_edge +
                  "' a parser lowered its operator to",
              Location{.node = fusion_edge}, ErrorKind::Internal);
}

}  // namespace stream
