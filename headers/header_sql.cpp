#include "headers/header_sql.h"

#include <sqlite3.h>

#include <string>
#include <string_view>

#include "db/sqlite_db.h"
#include "headers/header_pattern.h"
#include "headers/match_keywords.h"
#include "headers/player_name.h"
#include "chess/start_position.h"

namespace headers {

namespace {

std::string_view text_arg(sqlite3_value* v) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
  return p ? std::string_view(p, size_t(sqlite3_value_bytes(v))) : std::string_view();
}

void contains_function(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[1]) == SQLITE_NULL) {
    sqlite3_result_int(ctx, 0);
    return;
  }
  sqlite3_result_int(ctx, contains_ignoring_case(text_arg(argv[1]), text_arg(argv[0])) ? 1 : 0);
}

void pattern_function(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[1]) == SQLITE_NULL) {
    sqlite3_result_int(ctx, 0);
    return;
  }
  auto* pattern = static_cast<NamePattern*>(sqlite3_get_auxdata(ctx, 0));
  if (!pattern) {
    pattern = new NamePattern(text_arg(argv[0]));
    // SQLite owns the pattern from here on (it may delete it at once).
    sqlite3_set_auxdata(ctx, 0, pattern, [](void* p) { delete static_cast<NamePattern*>(p); });
    pattern = static_cast<NamePattern*>(sqlite3_get_auxdata(ctx, 0));
  }
  bool match = pattern ? pattern->matches(text_arg(argv[1]))
                       : NamePattern(text_arg(argv[0])).matches(text_arg(argv[1]));
  sqlite3_result_int(ctx, match ? 1 : 0);
}

void player_pattern_function(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[1]) == SQLITE_NULL) {
    sqlite3_result_int(ctx, 0);
    return;
  }
  auto* matcher = static_cast<PlayerMatcher*>(sqlite3_get_auxdata(ctx, 0));
  if (!matcher) {
    sqlite3_set_auxdata(ctx, 0, new PlayerMatcher(text_arg(argv[0]), true),
                        [](void* p) { delete static_cast<PlayerMatcher*>(p); });
    matcher = static_cast<PlayerMatcher*>(sqlite3_get_auxdata(ctx, 0));
  }
  bool match = matcher ? matcher->matches(text_arg(argv[1]))
                       : PlayerMatcher(text_arg(argv[0]), true).matches(text_arg(argv[1]));
  sqlite3_result_int(ctx, match ? 1 : 0);
}

void start_position_function(sqlite3_context* ctx, int, sqlite3_value** argv) {
  sqlite3_result_int(ctx, chess::shuffle_chess_number(text_arg(argv[0])));
}

void create(sqlite3* db, const char* name, void (*fn)(sqlite3_context*, int, sqlite3_value**),
            int arguments = 2) {
  int rc = sqlite3_create_function_v2(db, name, arguments, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr, fn,
                                      nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) throw db::sqlite::make_error(db, "sqlite3_create_function_v2", rc);
}

}  // namespace

void register_header_functions(sqlite3* db) {
  create(db, kSqlContains, contains_function);
  create(db, kSqlPattern, pattern_function);
  create(db, kSqlPlayerPattern, player_pattern_function);
  create(db, kSqlStartPosition, start_position_function, 1);
  register_match_functions(db);
}

}  // namespace headers
