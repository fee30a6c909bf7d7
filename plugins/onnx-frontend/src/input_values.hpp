// Graph inputs given a value on the command line (--input NAME=VALUE, passed to the frontend as
// the option "input:NAME"). Such an input becomes an initializer holding the value, so that what
// it decides (the branch an If takes, a Loop's trip count, a shape computed from it) is known at
// load time and the model is costed for that value. Only scalars (or one-element tensors) of
// integer, bool or float type can be given: a value that selects, not data that flows.
#pragma once

#include <onnx/onnx_pb.h>

#include <functional>
#include <string>
#include <vector>

#include <stream/registry/frontends.hpp>

namespace stream::onnx_frontend {

/// The frontend option prefix of a graph-input value.
inline constexpr const char* kInputOptionPrefix = "input:";

/// Turns each graph input named by an "input:NAME" option into an initializer holding its value,
/// and returns their names. `fail(message, value)` reports an unknown input, a non-scalar input or
/// an unreadable value.
std::vector<std::string> bind_input_values(onnx::GraphProto& graph, const FrontendOptions& options,
                       const std::function<void(const std::string& message, const std::string& value)>& fail);

}  // namespace stream::onnx_frontend
