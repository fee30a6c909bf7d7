#include "pt2_writer.hpp"

#include <array>
#include <fstream>
#include <stdexcept>

#include <zip.h>
#include <zlib.h>

namespace stream::torch_testing {

json T(const std::string& name) { return {{"as_tensor", {{"name", name}}}}; }
json I(std::int64_t v) { return {{"as_int", v}}; }
json Is(const std::vector<std::int64_t>& v) { return {{"as_ints", v}}; }
json F(double v) { return {{"as_float", v}}; }
json B(bool v) { return {{"as_bool", v}}; }
json S(const std::string& v) { return {{"as_string", v}}; }
json None() { return {{"as_none", true}}; }
json sym(const std::string& expr, std::int64_t hint, bool srepr) {
  const auto e = srepr ? "Symbol('" + expr + "', integer=True, positive=True)" : expr;
  return {{"as_expr", {{"expr_str", e}, {"hint", {{"as_int", hint}}}}}};
}

json ProgramBuilder::tensor_meta(int dtype, const Sizes& sizes) const {
  json s = json::array(), st = json::array();
  std::vector<std::int64_t> ints;
  for (const auto& x : sizes) {
    if (x.is_number_integer()) {
      s.push_back({{"as_int", x}});
      ints.push_back(x.get<std::int64_t>());
    } else {
      s.push_back(x);
      ints.push_back(x["as_expr"]["hint"]["as_int"].get<std::int64_t>());
    }
  }
  std::vector<std::int64_t> strides(ints.size(), 1);
  for (std::size_t i = ints.size(); i-- > 1;) strides[i - 1] = strides[i] * ints[i];
  for (auto v : strides) st.push_back({{"as_int", v}});
  return {{"dtype", dtype},          {"sizes", s},
          {"requires_grad", false},  {"device", {{"type", "cpu"}, {"index", nullptr}}},
          {"strides", st},           {"storage_offset", {{"as_int", 0}}},
          {"layout", 7}};
}

ProgramBuilder& ProgramBuilder::parameter(const std::string& ph, const std::string& fqn, int dtype, const Sizes& sizes) {
  inputs_.push_back(T(ph));
  specs_.push_back({{"parameter", {{"arg", {{"name", ph}}}, {"parameter_name", fqn}}}});
  values_[ph] = tensor_meta(dtype, sizes);
  return *this;
}

ProgramBuilder& ProgramBuilder::buffer(const std::string& ph, const std::string& fqn, int dtype, const Sizes& sizes) {
  inputs_.push_back(T(ph));
  specs_.push_back({{"buffer", {{"arg", {{"name", ph}}}, {"buffer_name", fqn}, {"persistent", true}}}});
  values_[ph] = tensor_meta(dtype, sizes);
  return *this;
}

ProgramBuilder& ProgramBuilder::input(const std::string& name, int dtype, const Sizes& sizes) {
  inputs_.push_back(T(name));
  specs_.push_back({{"user_input", {{"arg", T(name)}}}});
  values_[name] = tensor_meta(dtype, sizes);
  return *this;
}

ProgramBuilder& ProgramBuilder::call(const std::string& target, const std::vector<std::pair<std::string, json>>& args,
                                     const std::string& out, int dtype, const Sizes& sizes) {
  return call_multi(target, args, {{out, {dtype, sizes}}});
}

ProgramBuilder& ProgramBuilder::call_multi(const std::string& target, const std::vector<std::pair<std::string, json>>& args,
                                           const std::vector<std::pair<std::string, std::pair<int, Sizes>>>& outs) {
  json ins = json::array();
  for (const auto& [k, v] : args) ins.push_back({{"name", k}, {"arg", v}, {"kind", 1}});
  json os = json::array();
  for (const auto& [name, meta] : outs) {
    os.push_back(T(name));
    values_[name] = tensor_meta(meta.first, meta.second);
  }
  nodes_.push_back({{"target", target}, {"inputs", ins}, {"outputs", os}, {"metadata", json::object()},
                    {"is_hop_single_tensor_return", nullptr}});
  return *this;
}

ProgramBuilder& ProgramBuilder::value(const std::string& name, int dtype, const Sizes& sizes) {
  values_[name] = tensor_meta(dtype, sizes);
  return *this;
}

ProgramBuilder& ProgramBuilder::output(const std::string& name) {
  outputs_.push_back(T(name));
  out_specs_.push_back({{"user_output", {{"arg", T(name)}}}});
  return *this;
}

ProgramBuilder& ProgramBuilder::range(const std::string& symbol, std::int64_t min, std::int64_t max) {
  ranges_[symbol] = {{"min_val", min}, {"max_val", max}};
  return *this;
}

ProgramBuilder& ProgramBuilder::torch_version(const std::string& v) {
  torch_version_ = v;
  return *this;
}

json ProgramBuilder::build(Style style) const {
  json nodes = nodes_;
  if (style == Style::Old)
    for (auto& n : nodes) {
      n.erase("is_hop_single_tensor_return");
      for (auto& a : n["inputs"]) a.erase("kind");
    }
  json user_inputs = json::array();
  for (const auto& s : specs_)
    if (s.contains("user_input")) user_inputs.push_back(s["user_input"]["arg"]);
  std::vector<std::string> arg_names;
  for (const auto& a : user_inputs) arg_names.push_back(a["as_tensor"]["name"].get<std::string>());
  json graph = {{"inputs", inputs_},          {"outputs", outputs_},      {"nodes", nodes},
                {"tensor_values", values_},   {"sym_int_values", json::object()}, {"sym_bool_values", json::object()},
                {"is_single_tensor_return", false}, {"custom_obj_values", json::object()}, {"sym_float_values", json::object()}};
  json gm = {{"graph", graph},
             {"signature", {{"input_specs", specs_}, {"output_specs", out_specs_}}},
             {"module_call_graph",
              json::array({{{"fqn", ""},
                            {"signature",
                             {{"inputs", user_inputs},
                              {"outputs", outputs_},
                              {"in_spec", "[1, {\"type\": \"builtins.tuple\", \"context\": \"null\", \"children_spec\": []}]"},
                              {"out_spec", "[1, {\"type\": null, \"context\": null, \"children_spec\": []}]"},
                              {"forward_arg_names", arg_names}}}}})},
             {"metadata", json::object()}};
  json doc = {{"graph_module", gm}, {"opset_version", {{"aten", 10}}}, {"range_constraints", ranges_}};
  if (style == Style::Old) {
    doc["schema_version"] = {{"major", 5}, {"minor", 3}};
    doc["dialect"] = "ATEN";
  } else {
    gm["treespec_namedtuple_fields"] = json::object();
    doc["graph_module"] = gm;
    doc["schema_version"] = {{"major", 8}, {"minor", 17}};
    doc["verifiers"] = json::array({"TRAINING"});
    doc["torch_version"] = torch_version_;
    doc["guards_code"] = json::array();
  }
  return doc;
}

std::vector<std::pair<std::string, std::string>> archive_entries(const json& program, ArchiveLayout layout, const std::string& stem) {
  // Python's json.dumps separators: one line with ", " and ": ".
  const auto text = program.dump();
  std::vector<std::pair<std::string, std::string>> e;
  if (layout == ArchiveLayout::Legacy) {
    e = {{"serialized_exported_program.json", text},
         {"serialized_state_dict.pt", ""},
         {"serialized_constants.pt", ""},
         {"serialized_example_inputs.pt", ""},
         {"version", "8.17"}};
    return e;
  }
  const auto P = stem + "/";
  if (layout == ArchiveLayout::Pt2) {
    json config = json::object();
    int i = 0;
    const auto& specs = program["graph_module"]["signature"]["input_specs"];
    const auto& values = program["graph_module"]["graph"]["tensor_values"];
    for (const auto& s : specs) {
      if (!s.contains("parameter") && !s.contains("buffer")) continue;
      const bool param = s.contains("parameter");
      const auto& body = param ? s["parameter"] : s["buffer"];
      const auto ph = body["arg"]["name"].get<std::string>();
      const auto fqn = body[param ? "parameter_name" : "buffer_name"].get<std::string>();
      const auto path = "weight_" + std::to_string(i++);
      e.emplace_back(P + "data/weights/" + path, "");  // a 0-byte payload is legal ("fake/empty")
      config[fqn] = {{"path_name", path}, {"is_param", param}, {"use_pickle", false}, {"tensor_meta", values[ph]}};
    }
    e.emplace_back(P + "data/weights/model_weights_config.json", json{{"config", config}}.dump());
    e.emplace_back(P + "data/constants/model_constants_config.json", json{{"config", json::object()}}.dump());
    e.emplace_back(P + "models/model.json", text);
    e.emplace_back(P + "data/sample_inputs/model.pt", "");
  } else {
    e.emplace_back(P + "models/model.json", text);
    e.emplace_back(P + "data/weights/model.pt", "opaque torch.save blob");
    e.emplace_back(P + "data/constants/model.pt", "opaque torch.save blob");
    e.emplace_back(P + "data/sample_inputs/model.pt", "");
  }
  e.emplace_back(P + "archive_format", "pt2");
  e.emplace_back(P + "archive_version", "0");
  e.emplace_back(P + ".data/version", "6\n");
  e.emplace_back(P + "byteorder", "little");
  e.emplace_back(P + ".data/serialization_id", std::string(40, '0'));
  return e;
}

namespace {

std::uint32_t crc32(const std::string& data) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char ch : data) c = table[(c ^ ch) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void put16(std::string& out, std::uint32_t v) {
  out += static_cast<char>(v & 0xFF);
  out += static_cast<char>((v >> 8) & 0xFF);
}
void put32(std::string& out, std::uint32_t v) {
  put16(out, v & 0xFFFF);
  put16(out, v >> 16);
}
void put64(std::string& out, std::uint64_t v) {
  put32(out, static_cast<std::uint32_t>(v & 0xFFFFFFFFu));
  put32(out, static_cast<std::uint32_t>(v >> 32));
}

void write_with_libzip(const std::filesystem::path& path, const std::vector<std::pair<std::string, std::string>>& entries,
                       const ZipOptions& options) {
  std::filesystem::remove(path);
  int err = 0;
  zip_t* z = zip_open(path.string().c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  if (!z) throw std::runtime_error("cannot create " + path.string());
  for (const auto& [name, data] : entries) {
    zip_source_t* src = zip_source_buffer(z, data.data(), data.size(), 0);
    const auto idx = zip_file_add(z, name.c_str(), src, ZIP_FL_ENC_UTF_8);
    if (idx < 0) throw std::runtime_error("cannot add " + name);
    zip_set_file_compression(z, static_cast<zip_uint64_t>(idx), options.deflate.count(name) ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
    zip_file_set_mtime(z, static_cast<zip_uint64_t>(idx), 315576000, 0);
  }
  if (zip_close(z) != 0) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

void write_zip(const std::filesystem::path& path, const std::vector<std::pair<std::string, std::string>>& entries,
               const ZipOptions& options) {
  if (!options.deflate.empty()) return write_with_libzip(path, entries, options);
  const bool q = options.pytorch_quirks;
  std::string out, central;
  constexpr std::uint32_t dos_time = 0, dos_date = (0 << 9) | (1 << 5) | 1;  // 1980-01-01
  for (const auto& [name, data] : entries) {
    const auto offset = out.size();
    const auto crc = crc32(data);
    const bool descriptor = q && !data.empty();
    const std::uint32_t flags = (descriptor ? 0x8u : 0u) | (q ? 0x800u : 0u);
    std::uint32_t pad = 0;
    if (q) {  // 'FB' extra field padding the data to a 64-byte boundary
      const auto base = offset + 30 + name.size() + 4;
      pad = static_cast<std::uint32_t>((64 - base % 64) % 64);
    }
    put32(out, 0x04034b50u);
    put16(out, q ? 45 : 20);
    put16(out, flags);
    put16(out, 0);  // stored
    put16(out, dos_time);
    put16(out, dos_date);
    put32(out, descriptor ? 0 : crc);
    put32(out, descriptor ? 0 : static_cast<std::uint32_t>(data.size()));
    put32(out, descriptor ? 0 : static_cast<std::uint32_t>(data.size()));
    put16(out, static_cast<std::uint32_t>(name.size()));
    put16(out, q ? pad + 4 : 0);
    out += name;
    if (q) {
      out += "FB";
      put16(out, pad);
      out += std::string(pad, 'Z');
    }
    out += data;
    if (descriptor) {
      put32(out, 0x08074b50u);
      put32(out, crc);
      put32(out, static_cast<std::uint32_t>(data.size()));
      put32(out, static_cast<std::uint32_t>(data.size()));
    }
    put32(central, 0x02014b50u);
    put16(central, q ? 45 : 20);
    put16(central, q ? 45 : 20);
    put16(central, flags);
    put16(central, 0);
    put16(central, dos_time);
    put16(central, dos_date);
    put32(central, crc);
    put32(central, static_cast<std::uint32_t>(data.size()));
    put32(central, static_cast<std::uint32_t>(data.size()));
    put16(central, static_cast<std::uint32_t>(name.size()));
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put32(central, 0);
    put32(central, static_cast<std::uint32_t>(offset));
    central += name;
  }
  const auto cd_offset = out.size();
  out += central;
  if (q) {  // ZIP64 end of central directory record and locator
    const auto z64 = out.size();
    put32(out, 0x06064b50u);
    put64(out, 44);
    put16(out, 45);
    put16(out, 45);
    put32(out, 0);
    put32(out, 0);
    put64(out, entries.size());
    put64(out, entries.size());
    put64(out, central.size());
    put64(out, cd_offset);
    put32(out, 0x07064b50u);
    put32(out, 0);
    put64(out, z64);
    put32(out, 1);
  }
  put32(out, 0x06054b50u);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<std::uint32_t>(entries.size()));
  put16(out, static_cast<std::uint32_t>(entries.size()));
  put32(out, static_cast<std::uint32_t>(central.size()));
  put32(out, static_cast<std::uint32_t>(cd_offset));
  put16(out, 0);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error("cannot create " + path.string());
  f.write(out.data(), static_cast<std::streamsize>(out.size()));
}

void write_deflate_bomb(const std::filesystem::path& path, const std::string& name, std::uint64_t inflated,
                        std::optional<std::uint32_t> declared) {
  // A full flush ends a deflate block on a byte boundary and forgets the history, so every 1 MiB
  // chunk of spaces compresses to the same bytes: the stream is that block repeated, then the
  // final empty block. The CRC of the whole is combined from the chunk's.
  constexpr std::size_t chunk = std::size_t{1} << 20;
  const std::string spaces(chunk, ' ');
  z_stream z{};
  if (deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK) throw std::runtime_error("deflateInit2");
  auto run = [&](const std::string& in, int flush) {
    std::string out(chunk, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, flush);
    out.resize(out.size() - z.avail_out);
    return out;
  };
  const std::string block = run(spaces, Z_FULL_FLUSH);
  const std::string tail = run("", Z_FINISH);
  deflateEnd(&z);
  const std::uint64_t chunks = inflated / chunk;
  const auto chunk_crc = static_cast<std::uint32_t>(::crc32(0, reinterpret_cast<const Bytef*>(spaces.data()), chunk));
  uLong crc = 0;
  for (std::uint64_t i = 0; i < chunks; ++i) crc = crc32_combine(crc, chunk_crc, static_cast<z_off_t>(chunk));
  const auto size = static_cast<std::uint32_t>(declared.value_or(static_cast<std::uint32_t>(chunks * chunk)));
  const auto compressed = static_cast<std::uint32_t>(block.size() * chunks + tail.size());
  std::string head, central;
  auto header = [&](std::string& out, bool local) {
    put32(out, local ? 0x04034b50u : 0x02014b50u);
    if (!local) put16(out, 20);
    put16(out, 20);
    put16(out, 0);  // flags
    put16(out, 8);  // deflated
    put16(out, 0);
    put16(out, (1 << 5) | 1);
    put32(out, static_cast<std::uint32_t>(crc));
    put32(out, compressed);
    put32(out, size);
    put16(out, static_cast<std::uint32_t>(name.size()));
    put16(out, 0);
    if (!local) {
      for (int i = 0; i < 4; ++i) put16(out, 0);  // comment, disk, internal attributes, (high half of) external
      put16(out, 0);
      put32(out, 0);  // local header offset
    }
    out += name;
  };
  header(head, true);
  header(central, false);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error("cannot create " + path.string());
  f.write(head.data(), static_cast<std::streamsize>(head.size()));
  for (std::uint64_t i = 0; i < chunks; ++i) f.write(block.data(), static_cast<std::streamsize>(block.size()));
  f.write(tail.data(), static_cast<std::streamsize>(tail.size()));
  const auto cd_offset = static_cast<std::uint32_t>(head.size() + compressed);
  f.write(central.data(), static_cast<std::streamsize>(central.size()));
  std::string end;
  put32(end, 0x06054b50u);
  put16(end, 0);
  put16(end, 0);
  put16(end, 1);
  put16(end, 1);
  put32(end, static_cast<std::uint32_t>(central.size()));
  put32(end, cd_offset);
  put16(end, 0);
  f.write(end.data(), static_cast<std::streamsize>(end.size()));
}

void write_pt2(const std::filesystem::path& path, const json& program, ArchiveLayout layout, const ZipOptions& options) {
  write_zip(path, archive_entries(program, layout, path.stem().string()), options);
}

}  // namespace stream::torch_testing
