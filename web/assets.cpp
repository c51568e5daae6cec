#include "web/assets.h"

namespace web {

const Asset* find_asset(std::string_view name) {
  for (const Asset& a : all_assets())
    if (a.name == name) return &a;
  return nullptr;
}

const char* content_type_of(std::string_view name) {
  auto ends = [&](std::string_view ext) { return name.size() >= ext.size() && name.substr(name.size() - ext.size()) == ext; };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".json")) return "application/json";
  return "text/plain; charset=utf-8";
}

}  // namespace web
