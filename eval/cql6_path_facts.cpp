// eval/cql6_path_facts.h: what a path search may leave out, and the move-level tests of a
// dash's fit.
#include "eval/cql6_path_facts.h"

#include <memory>

#include "eval/cql6_values.h"

namespace eval::cql6_path_facts {

namespace {

/// Collects into `f` the promote / capture dashes of constituent `con` whose sets are pure.
void collect_dashes(const Node& con, Facts& f) {
  if (con.kind == Kind::kDash) {
    if ((con.flags & (cql6::kDashCapture | cql6::kDashPromote)) && pure(con.kids[0]) && pure(con.kids[1]) &&
        (con.kids.size() < 4 || pure(con.kids[3])))
      f.pure.push_back(&con);
    return;
  }
  if (con.kind == Kind::kPathChain || con.kind == Kind::kPathRepeat)
    for (const Node& k : con.kids) collect_dashes(k, f);
}

}  // namespace

bool starts_with_dash(const Node& con) {
  switch (con.kind) {
    case Kind::kDash: return true;
    case Kind::kPathChain: return !con.kids.empty() && starts_with_dash(con.kids[0]);
    case Kind::kPathRepeat: return con.lo >= 1 && starts_with_dash(con.kids[0]);
    default: return false;
  }
}

const Node* first_dash(const Node& con) {
  switch (con.kind) {
    case Kind::kDash: return &con;
    case Kind::kPathChain: return con.kids.empty() ? nullptr : first_dash(con.kids[0]);
    case Kind::kPathRepeat: return con.lo >= 1 ? first_dash(con.kids[0]) : nullptr;
    default: return nullptr;
  }
}

bool pure(const Node& n) {
  if (n.kind == Kind::kPathFilter || cql6_values::has_side_effect(n)) return false;
  for (const Node& k : n.kids)
    if (!pure(k)) return false;
  return true;
}

bool reads_path_state(const Node& n) {
  switch (n.kind) {
    case Kind::kPathCount: case Kind::kPathStart: case Kind::kPathLastPosition: case Kind::kPathMax: return true;
    default: break;
  }
  for (const Node& k : n.kids)
    if (reads_path_state(k)) return true;
  return false;
}

const Facts& facts_of(const Node& n, uint64_t game) {
  thread_local std::vector<std::unique_ptr<Facts>> known;
  thread_local Facts scratch;
  thread_local const Facts* last = nullptr;  // the last one asked for (most often asked again)
  if (last && last->path == &n && last->game == game && game != 0) return *last;
  Facts* f = nullptr;
  if (game != 0) {
    for (auto& k : known)
      if (k->path == &n) f = k.get();
    if (f && f->game == game) return *(last = f);
    if (!f) {
      if (known.size() > 64) {  // paths of earlier queries
        known.clear();
        last = nullptr;
      }
      known.push_back(std::make_unique<Facts>());
      f = known.back().get();
    }
  } else {
    f = &scratch;
  }
  f->path = &n;
  f->game = game;
  // holders before the first dash (tested at the start, consuming no move) are passed over
  // when they have no side effect: the way still starts with that dash at the start
  size_t j = 2;
  while (j < n.kids.size() && n.kids[j].kind != Kind::kDash && n.kids[j].kind != Kind::kPathChain &&
         n.kids[j].kind != Kind::kPathRepeat && pure(n.kids[j]))
    ++j;
  f->starts_dash = j < n.kids.size() && starts_with_dash(n.kids[j]);
  f->first = j < n.kids.size() ? first_dash(n.kids[j]) : nullptr;
  f->focus_pure = pure(n.kids[0]);
  f->first_pure = f->first && pure(f->first->kids[0]) && pure(f->first->kids[1]) &&
                  (f->first->kids.size() < 4 || pure(f->first->kids[3]));
  f->first_early = f->first_pure && !reads_path_state(f->first->kids[0]) && !reads_path_state(f->first->kids[1]);
  f->pure.clear();
  for (size_t i = 2; i < n.kids.size(); ++i) collect_dashes(n.kids[i], *f);
  if (game != 0) last = f;
  return *f;
}

bool flags_may_fit(const Node& d, const Position& pos, Move m) {
  return flags_may_fit(d, m, [&]() -> const Position& { return pos; });
}

bool bare(const Node& d) {
  return d.kids[0].kind == Kind::kNone && d.kids[1].kind == Kind::kNone && d.kids[2].kind == Kind::kNone &&
         !(d.flags & (cql6::kDashCapture | cql6::kDashPromote | cql6::kDashPromoteText));
}

bool null_unfit(const Position& pos, Move m) {
  return m == Move::null() && !pos.pieces(pos.side_to_move(), chess::KING);
}

int captured_square(const Position& pos, Move m) {
  if (m == Move::null() || m == Move::none() || m.kind() == Move::CASTLING) return 64;
  if (m.kind() == Move::EN_PASSANT) return m.to_sq() ^ 8;
  return pos.piece_on(m.to_sq()) != chess::NO_PIECE ? m.to_sq() : 64;
}

Bitboard origins(const Position& pos, Move m) {
  if (m == Move::null()) return pos.pieces(pos.side_to_move(), chess::KING);
  if (m.kind() == Move::CASTLING) return chess::square_bb(m.from_sq()) | chess::square_bb(m.to_sq());
  return chess::square_bb(m.from_sq());
}

Bitboard destinations(const Position& pos, Move m, bool capture) {
  if (m == Move::null()) return pos.pieces(pos.side_to_move(), chess::KING);
  if (capture) {
    const int cap = captured_square(pos, m);
    return cap == 64 ? 0 : chess::square_bb(chess::Square(cap));
  }
  if (m.kind() == Move::CASTLING) {
    const chess::CastlingRight cr = chess::castling_right(pos.side_to_move(), m.to_sq() > m.from_sq());
    return chess::square_bb(Position::castling_king_to(cr)) | chess::square_bb(Position::castling_rook_to(cr));
  }
  return chess::square_bb(m.to_sq());
}

}  // namespace eval::cql6_path_facts
