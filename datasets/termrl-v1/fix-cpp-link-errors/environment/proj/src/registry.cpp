#include "registry.hpp"

static Registry g_registry;

Registry &registry() { return g_registry; }

bool register_shape(const std::string &name, Factory f) {
    g_registry.emplace_back(name, std::move(f));
    return true;
}
