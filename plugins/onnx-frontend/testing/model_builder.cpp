#include "model_builder.hpp"

#include <fstream>
#include <stdexcept>

#include <unistd.h>

namespace stream::onnx_testing {
namespace {

void set_type(onnx::ValueInfoProto* vi, int elem, const Shape& shape, bool with_shape) {
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  if (!with_shape) return;
  auto* s = tt->mutable_shape();
  for (auto d : shape) s->add_dim()->set_dim_value(d);
}

}  // namespace

NodeRef& NodeRef::attr(const std::string& name, std::int64_t v) {
  auto* a = n_->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_INT);
  a->set_i(v);
  return *this;
}

NodeRef& NodeRef::attr(const std::string& name, const std::vector<std::int64_t>& v) {
  auto* a = n_->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_INTS);
  for (auto x : v) a->add_ints(x);
  return *this;
}

NodeRef& NodeRef::attr(const std::string& name, float v) {
  auto* a = n_->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_FLOAT);
  a->set_f(v);
  return *this;
}

NodeRef& NodeRef::attr(const std::string& name, const std::string& v) {
  auto* a = n_->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_STRING);
  a->set_s(v);
  return *this;
}

ModelBuilder::ModelBuilder(const std::string& graph_name, std::int64_t opset) {
  model_.set_ir_version(8);
  model_.set_producer_name("stream-gen-workloads");
  auto* op = model_.add_opset_import();
  op->set_domain("");
  op->set_version(opset);
  model_.mutable_graph()->set_name(graph_name);
}

ModelBuilder& ModelBuilder::opset(const std::string& domain, std::int64_t version) {
  auto* op = model_.add_opset_import();
  op->set_domain(domain);
  op->set_version(version);
  return *this;
}

ModelBuilder& ModelBuilder::input(const std::string& name, int elem, const Shape& shape) {
  auto* vi = model_.mutable_graph()->add_input();
  vi->set_name(name);
  set_type(vi, elem, shape, true);
  return *this;
}

ModelBuilder& ModelBuilder::output(const std::string& name, int elem, const Shape& shape, bool known_shape) {
  auto* vi = model_.mutable_graph()->add_output();
  vi->set_name(name);
  set_type(vi, elem, shape, known_shape || !shape.empty());
  return *this;
}

ModelBuilder& ModelBuilder::value_info(const std::string& name, int elem, const Shape& shape) {
  auto* vi = model_.mutable_graph()->add_value_info();
  vi->set_name(name);
  set_type(vi, elem, shape, true);
  return *this;
}

ModelBuilder& ModelBuilder::initializer(const std::string& name, int elem, const Shape& shape) {
  auto* t = model_.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(elem);
  for (auto d : shape) t->add_dims(d);
  return *this;
}

ModelBuilder& ModelBuilder::int_initializer(const std::string& name, const std::vector<std::int64_t>& values, bool as_1d) {
  auto* t = model_.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto_DataType_INT64);
  if (as_1d) t->add_dims(static_cast<std::int64_t>(values.size()));
  for (auto v : values) t->add_int64_data(v);
  return *this;
}

NodeRef ModelBuilder::node(const std::string& op_type, const std::vector<std::string>& inputs,
                           const std::vector<std::string>& outputs, const std::string& name, const std::string& domain) {
  auto* n = model_.mutable_graph()->add_node();
  n->set_op_type(op_type);
  if (!name.empty()) n->set_name(name);
  if (!domain.empty()) n->set_domain(domain);
  for (const auto& i : inputs) n->add_input(i);
  for (const auto& o : outputs) n->add_output(o);
  return NodeRef(n);
}

ModelBuilder& ModelBuilder::silu_function(const std::string& domain) {
  auto* f = model_.add_functions();
  f->set_name("Silu");
  f->set_domain(domain);
  f->add_input("X");
  f->add_output("Y");
  auto* op = f->add_opset_import();
  op->set_domain("");
  op->set_version(17);
  auto* s = f->add_node();
  s->set_op_type("Sigmoid");
  s->add_input("X");
  s->add_output("S");
  auto* m = f->add_node();
  m->set_op_type("Mul");
  m->add_input("X");
  m->add_input("S");
  m->add_output("Y");
  return *this;
}

void ModelBuilder::save(const std::filesystem::path& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out || !model_.SerializeToOstream(&out)) throw std::runtime_error("cannot write " + path.string());
}

std::filesystem::path ModelBuilder::save_temp(const std::string& file_name) const {
  auto dir = std::filesystem::temp_directory_path() / ("stream-onnx-tests-" + std::to_string(::getuid()));
  std::filesystem::create_directories(dir);
  auto path = dir / file_name;
  save(path);
  return path;
}

}  // namespace stream::onnx_testing
