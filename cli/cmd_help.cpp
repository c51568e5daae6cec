// `cqldb help [TOPIC]` and `cqldb --version`: the overview, one command, one CQL keyword
// (from the keyword table and cql/keyword_help.h) or the keywords by family.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/conventions.h"
#include "cli/keyword_help_text.h"
#include "cql/keyword_help.h"
#include "db/record_format.h"
#include "db/schema.h"
#include "index/postings.h"

#ifndef CQLDB_VERSION
#define CQLDB_VERSION "unknown"
#endif

namespace cli {

void print_version() {
  std::printf("cqldb %s (database format %u, game records %u, signatures %u, postings %u)\n",
              CQLDB_VERSION, db::schema::kFormatVersion, unsigned(db::kRecordFormatVersion),
              db::schema::kSignatureFormatVersion, unsigned(sig::kPostingsFormatVersion));
}

int run_help(const std::vector<std::string>& topics) {
  if (topics.empty()) {
    print_help();
    return 0;
  }
  int code = 0;
  for (const std::string& topic : topics) {
    if (const Command* c = find_command(topic)) {
      std::fputs(wrap_text("Usage: cqldb " + std::string(c->name) + " " + std::string(c->usage), 0, 80).c_str(), stdout);
      std::fputs(wrap_text(c->help, 2, 80).c_str(), stdout);
      continue;
    }
    if (topic == "keywords") {
      std::fputs(keyword_list_text(80).c_str(), stdout);
      continue;
    }
    std::string text, error;
    if (keyword_help_text(topic, 80, true, text, error)) {
      std::fputs(text.c_str(), stdout);
      continue;
    }
    if (topic.empty() || (topic[0] != ':' && topic[0] != '!' && topic.find(':') == std::string::npos))
      error = "no command or keyword '" + topic + "'" + cql::did_you_mean(topic) +
              " (`cqldb help` lists the commands, `cqldb help keywords` the CQL keywords)";
    std::fprintf(stderr, "cqldb help: %s\n", error.c_str());
    code = 2;
  }
  return code;
}

}  // namespace cli
