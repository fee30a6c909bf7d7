#include "command.hpp"

#include <map>

namespace stream::host {

namespace {
std::map<std::string, CommandSetup>& table() {
  static std::map<std::string, CommandSetup> commands;
  return commands;
}
}  // namespace

bool register_command(const std::string& name, CommandSetup setup) {
  table()[name] = std::move(setup);
  return true;
}

std::vector<std::pair<std::string, CommandSetup>> registered_commands() {
  return {table().begin(), table().end()};
}

}  // namespace stream::host
