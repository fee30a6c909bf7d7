#include "host_context.hpp"

#include "plugin_host.hpp"

namespace stream::host {

HostContext::HostContext() = default;
HostContext::~HostContext() = default;

PluginHost& HostContext::plugins() {
  if (!host_) host_ = std::make_unique<PluginHost>(PluginHostOptions::from_environment(plugin_dirs));
  return *host_;
}

}  // namespace stream::host
