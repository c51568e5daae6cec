// libFuzzer target for the stored-data decoders and the replay of decoded moves: any bytes
// are a game record (db::RecordView::parse: valid, or db::CorruptRecord) and a signature
// (sig::decode: valid, or sig::CorruptSignature). A record that parses is replayed with
// the queries' replay rule (main line and variations), by a query's game matcher (which
// must never crash on a damaged record: it matches or throws db::CorruptRecord), and, when
// every move plays, by the signature builder, whose signature must encode, decode and
// encode again to the same bytes. The bytes are also a block of games (db/game_blocks.h:
// parsed or refused; every entry of a parsed block lies inside it, and the entries encode
// to a block that gives them back). Built with -DCQLDB_FUZZ=ON; run by .ci/fuzz.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cql/parser.h"
#include "db/errors.h"
#include "db/game_blocks.h"
#include "db/record_view.h"
#include "eval/game_matcher.h"
#include "eval/program.h"
#include "fuzz_check.h"
#include "index/signature.h"
#include "index/signature_builder.h"

namespace {

/// A query whose evaluation replays the main line and every variation of a game.
const eval::Program& replaying_program() {
  static const eval::Program program =
      eval::Program::compile(cql::parse_or_throw("(match (position :variations :check))", "fuzz.cql"));
  return program;
}

void fuzz_signature(std::string_view bytes) {
  try {
    const sig::Signature s = sig::decode(bytes);
    std::string again;
    sig::encode(s, again);
    FUZZ_CHECK(sig::decode(again) == s);
  } catch (const sig::CorruptSignature&) {
  }
}

/// The bytes also read as a move record and an annotation record (record_format.h): the
/// first byte says where the second begins. A pair that parses iterates its merged tokens
/// (typed comments spelled back) and its per-ply annotations without error.
void fuzz_annotations(std::string_view bytes) {
  if (bytes.size() < 3) return;
  const size_t split = 1 + uint8_t(bytes[0]) % (bytes.size() - 1);
  try {
    const db::RecordView view = db::RecordView::parse(bytes.substr(1, split - 1), bytes.substr(split));
    size_t text = 0;
    for (const db::Token& t : view.tokens()) text += t.comment.size();
    std::vector<db::PlyAnnotation> plies;
    view.ply_annotations(plies);
    FUZZ_CHECK(plies.size() == view.main_line_size());
    (void)text;
  } catch (const db::CorruptRecord&) {
  }
}

/// The bytes as a block of games stored under a key from their first byte.
void fuzz_block(std::string_view bytes) {
  if (bytes.empty()) return;
  const uint32_t last_id = 1 + uint8_t(bytes[0]) * 257u;
  const std::string_view value = bytes.substr(1);
  db::blocks::BlockView block;
  if (!db::blocks::BlockView::parse(last_id, value, block)) return;
  FUZZ_CHECK(block.count() >= 1 && block.first_id() >= 1 && block.last_id() == last_id);
  std::vector<std::string_view> entries;
  for (uint32_t id = block.first_id(); id <= block.last_id(); ++id) {
    std::string_view entry;
    if (!block.entry(id, entry)) return;  // offsets out of order: refused per entry
    FUZZ_CHECK(entry.data() >= value.data() && entry.data() + entry.size() <= value.data() + value.size());
    entries.push_back(entry);
  }
  std::string again;
  db::blocks::encode_block(entries, again);
  db::blocks::BlockView reread;
  FUZZ_CHECK(db::blocks::BlockView::parse(last_id, again, reread));
  for (uint32_t id = block.first_id(); id <= block.last_id(); ++id) {
    std::string_view entry;
    FUZZ_CHECK(reread.entry(id, entry) && entry == entries[id - block.first_id()]);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  fuzz_signature(bytes);
  fuzz_annotations(bytes);
  fuzz_block(bytes);
  db::RecordView view;
  try {
    view = db::RecordView::parse(bytes);
  } catch (const db::CorruptRecord&) {
    return 0;
  }
  size_t tokens = 0;
  for (const db::Token& t : view.tokens()) {
    FUZZ_CHECK(t.kind != db::TokenKind::kMove || db::is_move_word(t.move.raw()));
    ++tokens;
  }
  FUZZ_CHECK(tokens >= view.main_line_size());
  {  // both ways of reading the main line agree (a packed main line: record format 4)
    db::MainLineCursor cursor(view);
    for (uint32_t i = 0; i < view.main_line_size(); ++i) {
      const chess::Move m = cursor.next();
      FUZZ_CHECK(m == view.main_move(i));
      FUZZ_CHECK(db::is_move_word(m.raw()));
    }
  }

  bool playable = false;
  try {
    playable = fuzz::replay_all(view);
  } catch (const db::CorruptRecord&) {  // an invalid start FEN
  }

  static eval::GameMatcher matcher(replaying_program());
  std::vector<uint32_t> plies;
  uint64_t positions = 0;
  try {
    matcher.match(view, 1, nullptr, plies, positions);
    FUZZ_CHECK(positions >= 1);
  } catch (const db::CorruptRecord&) {
    FUZZ_CHECK(!playable);  // the matcher refuses only what the replay rule refuses
  }

  if (!playable) return 0;
  static sig::SignatureBuilder builder;
  try {
    sig::compute_signature(view, builder);
  } catch (const db::CorruptRecord&) {
    return 0;  // a well-formed but illegal move the signature builder refuses
  }
  std::string encoded;
  sig::encode(builder.signature(), encoded);
  FUZZ_CHECK(sig::decode(encoded) == builder.signature());
  return 0;
}
