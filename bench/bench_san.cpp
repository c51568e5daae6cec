// Micro-benchmark of chess::parse_san: replays a few hard-coded master games (from the
// players corpus, SAN tokens only) many times and prints SAN parses per second.
//
//   bench_san [repetitions]     (default 20000 replays of every game)
//
// Figures: parse_san alone (on positions stored beforehand, so nothing else is timed),
// parse_san + do_move per ply as the importer does it, and do_move alone on the pre-parsed
// moves, for comparison.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

#include "chess/position.h"
#include "chess/san.h"

namespace {

// Movetext of the games, SAN tokens separated by single spaces.
const char* const GAMES[] = {
    "e4 e5 f4 Bc5 Nf3 d6 c3 Bg4 Be2 Bxf3 Bxf3 Nc6 b4 Bb6 b5 Nce7 d4 exd4 cxd4 Nf6 O-O O-O Bb2 "
    "d5 e5 Nd7 Nc3 c6 Qd3 Ng6 g3 f5 Kh1 Qe7 Nxd5 cxd5 Bxd5+ Kh8 Ba3 Qd8 Bxb7 Rb8 Bxf8 Ndxf8 Bc6 "
    "Qxd4 Qxf5 Ne7 Qc2 Rc8 Rad1 Qb4 Rb1 Qa5 Rf3 Nxc6 Rc3 Rd8 bxc6 Qd5+ Qg2 Qd1+ Qf1 Qd5+ Qf3 "
    "Qxa2 Rd1 Rxd1+ Qxd1 Ne6 Qf3 Qb1+ Kg2 g6 Qd3 Qg1+ Kh3 h5 Qc4 Qd1 Rc1 Qg4+ Kg2 h4 Qf1 g5 Qd1 "
    "Nxf4+ Kh1",
    "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6 Nc3 Bb4 Nxc6 bxc6 Qd4 Qe7 f3 d5 Bg5 O-O O-O-O Bc5 Bxf6 gxf6 "
    "Qa4 Be3+ Kb1 d4 Ne2 c5 Nc1 Be6 Bc4 Rfb8 Nd3 Rb6",
    "e4 e5 f4 exf4 Bc4 d5 Bxd5 Qh4+ Kf1 Nf6 Nf3 Qh6 Nc3 Nbd7 e5 Nh5 Kf2 c6 Bb3 Nc5 d4 Nxb3 axb3 "
    "g5 Ne4 Be7 h4 g4 Nfg5 Bf5 Qe2 Bxe4 Nxe4 Qg6 g3 f3 Qd3 O-O Bg5 Rfe8 Bxe7 Rxe7 Rhe1 Rd8 Nd6 "
    "Rxd6 exd6 Qxd6 Re5 Rxe5 dxe5 Qc5+ Qe3 Qxc2+ Ke1 Nxg3 e6 Kf8 exf7 Kxf7 Rd1 Qe4 Kd2 Qxe3+ "
    "Kxe3 Nf5+",
    "Nf3 d5 d4 Nf6 c4 c6 Nc3 dxc4 a4 Bf5 Ne5 Nbd7 Nxc4 Nb6 Ne5 a5 e3 g6 Bd3 Bxd3 Nxd3 Bg7 Qb3 "
    "O-O O-O Nfd7 f4 Rb8 Bd2 Nc8 f5 Nd6 fxg6 hxg6 Nf4 c5 Kh1 c4 Qc2 e5 Nfd5 Re8 Nb5 Nxb5 axb5 "
    "exd4 exd4 Ne5 Nf6+ Bxf6 dxe5 Bxe5 Qxc4 Qc7 Qb3 b6 Rac1 Qd7 Rc6 Re6 Be3 a4 Qxa4 Qd3 Rf3 Rd8 "
    "Bg1 Qd7 Rf1 Bxb2 Bxb6 Rb8 Bg1 Re5 b6 Re6 Qa7 Qxc6 Qxb8+ Re8 Qa7 Qd5 b7 Be5 Rc1 Bb8 Qa4 Rf8 "
    "Qa6 Qb3 Rc8 Be5 Qa8",
    "c4 c5 Nc3 Nf6 g3 d5 cxd5 Nxd5 Bg2 Nb6 Nf3 Nc6 O-O Bg4 Ne1 Rc8 h3 Bh5 b3 e5 Bb2 Be7 Nc2 O-O "
    "Ne3 Re8 d3 Bf8 Qd2 f6 h4 Bf7 Rac1 Qd7 Kh2 Be6 Ne4 Nb4 Ba3 a5 Nc4 N6d5 Nc3 Nxc3 Rxc3 Qc7 "
    "Ne3 Rcd8 Rfc1 f5 Bh3 g6 Bxb4 axb4 R3c2 Rd4 Ng2 b6 e3 Rd6 Qxb4 Rxd3 Qb5 Qd8 e4 Rd4 exf5 "
    "gxf5 Re1 Bd7 Qe2 Qf6 Rc3 Bd6 Qh5 Qg6 Qxg6+ hxg6 Ne3 Kf7 h5 b5 Rcc1 Rh8 hxg6+ Kxg6 Kg2 Bc6+ "
    "Kh2 Bf3 Nxf5 Rxh3+ Kxh3 Kxf5 Re3 e4 Rec3 Rd5 Rxf3+ exf3 Rc3 Ke4 Re3+ Kd4 Rxf3 c4",
    "e4 c5 Nf3 d6 c3 Nf6 Bd3 e6 Bc2 Be7 d4 O-O O-O a6 dxc5 dxc5 Qe2 Nc6 e5 Nd7 Nbd2 Qc7 Re1 Rd8 "
    "Nf1 b5 Ng3 Bb7 Bf4 Nf8 Ne4 Ng6 Bg3 Ncxe5 Nxe5 Nxe5 Qh5 f5 Ng5 Bxg5 Qxg5 Nf7 Bxc7 Nxg5 Bxd8 "
    "Rxd8 Rad1 Rc8 f3 Bxf3 gxf3 Nxf3+ Kf2 Nxe1 Kxe1 Rc6 Rd7 h6 a4 Kh7 a5 Kg6 Rb7 e5 Rb6 Rf6 c4 "
    "b4 Ba4 Kg5 Rxf6 Kxf6 Bb5 Ke7 Bxa6 Kd8 Bb5 Kc7 Kf2 g5 Be8 Kb7 Bg6 f4 Kf3 Ka6 Ke4 g4 Bh5",
    "c4 e6 g3 d5 Bg2 c6 Qc2 Nf6 b3 e5 Bb2 Bd6 d3 O-O Nf3 Re8 O-O Nbd7 e3 Nf8 Nc3 Ng6 cxd5 cxd5 "
    "Nb5 Bf5 Nxd6 Qxd6 Qd2 Qd7 Rfc1 Bh3 Rc2 Bxg2 Kxg2 h5 Rac1 h4 h3 hxg3 fxg3 e4 dxe4 Nxe4 Qd4 "
    "f6 Ba3 Rad8 Rc7 Qb5 R1c2 Rd7 Rxd7 Qxd7 Qxa7 Qf5 g4 Qd7 Qd4 Ne5 Nxe5 Rxe5 Qb6 Kh7 Rc7 Qe8 "
    "Bb2 Re6 Qxb7 Qg6 Qxd5 Rd6 Qh5+ Qxh5 gxh5 Rd2+ Kf3 Ng5+ Kg4 Rxb2 Ra7 Re2 a4 Rxe3 Rb7 Re4+ "
    "Kf5 Re5+ Kg4 Ne6 b4 f5+ Kf3 Re4 a5 Nd4+ Kf2 f4 a6 Re2+ Kf1 f3 a7 Nf5 Rf7 Ng3+",
    "d4 g6 c4 Bg7 Nc3 f5 g3 Nf6 Bg2 O-O e3 d6 Nge2 Nc6 O-O e5 b3 e4 f3 exf3 Bxf3 Re8 Nd5 Ne4 "
    "Nec3 Nxc3 Nxc3 Be6 Bd2 Bf7 Bd5 Bxd5 cxd5 Ne7 Qf3 c6 Rac1 Qd7 Rc2 Rac8 dxc6 bxc6 Rfc1 Kh8 "
    "Kg2 Rf8 d5 c5 h4 Qb7 Be1 Rfe8 Rd1 Ng8 Ne2 Nf6 Nf4 Ng4 Bf2 Re4 h5 Ne5 Qe2 g5 Nd3 Ng4 Rc4 "
    "Rce8 Rxe4 Rxe4 Nb2 Qf7 Nc4 Qxh5 Rh1 Qg6 Qf3 Be5 Be1 Kg7 Bf2 Qf7 Nd2 Nxf2 Kxf2 Rg4 Rh3 h5 "
    "Ke2 Kg6 Nc4 Qf6 Qh1 Bxg3 Qc1 h4 Rh1 Re4 Qc2 Qf7 Qd3 Kh6 Rf1 Qh5+ Kd2 Qg4 Kc2 Kg6 Nd2 Re7 "
    "Qa6 Rxe3 Qc8 Re7 Qg8+ Rg7 Qe6+ Kh7 Rxf5 Bf4 Qe4 Kg8 Qe6+ Kh7 Qe4",
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  long reps = argc > 1 ? std::atol(argv[1]) : 20000;
  if (reps <= 0) reps = 1;

  // Tokenise once; check every game replays cleanly and keep its moves.
  std::vector<std::vector<std::string_view>> tokens;
  std::vector<std::vector<chess::Move>> moves;
  std::vector<std::pair<chess::Position, std::string_view>> stored;  // position before each ply
  size_t plies = 0;
  for (const char* text : GAMES) {
    std::string_view s(text);
    std::vector<std::string_view> game;
    while (!s.empty()) {
      size_t sp = s.find(' ');
      game.push_back(s.substr(0, sp));
      s = sp == std::string_view::npos ? std::string_view() : s.substr(sp + 1);
    }
    chess::Position pos;
    std::vector<chess::Move> line;
    for (std::string_view tok : game) {
      chess::SanError err;
      chess::Move m = chess::parse_san(pos, tok, &err);
      if (m == chess::Move::none()) {
        std::fprintf(stderr, "bench_san: bad game data: %s\n", err.message.c_str());
        return 1;
      }
      stored.emplace_back(pos, tok);
      chess::UndoInfo u;
      pos.do_move(m, u);
      line.push_back(m);
    }
    plies += game.size();
    tokens.push_back(std::move(game));
    moves.push_back(std::move(line));
  }

  chess::Position pos;
  chess::UndoInfo u;
  uint64_t check = 0;  // keeps the work observable

  auto t0 = std::chrono::steady_clock::now();
  for (long r = 0; r < reps; ++r)
    for (const auto& [p, tok] : stored) check += chess::parse_san(p, tok, nullptr).raw();
  double parse_only = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  for (long r = 0; r < reps; ++r) {
    for (const auto& game : tokens) {
      pos.set_start();
      for (std::string_view tok : game) {
        chess::Move m = chess::parse_san(pos, tok, nullptr);
        check += m.raw();
        pos.do_move(m, u);
      }
    }
  }
  double with_parse = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  for (long r = 0; r < reps; ++r) {
    for (const auto& game : moves) {
      pos.set_start();
      for (chess::Move m : game) {
        check += m.raw();
        pos.do_move(m, u);
      }
    }
  }
  double replay_only = seconds_since(t0);

  double total = double(plies) * double(reps);
  double games = double(tokens.size()) * double(reps);
  std::printf("games %zu, plies %zu, repetitions %ld (checksum %llu)\n", tokens.size(), plies, reps,
              (unsigned long long)check);
  std::printf("parse_san alone     : %7.2f M SAN parses/s  (%.1f ns per parse)\n",
              total / parse_only / 1e6, parse_only / total * 1e9);
  std::printf("parse_san + do_move : %7.2f M plies/s  (%.0f games/s, one thread)\n",
              total / with_parse / 1e6, games / with_parse);
  std::printf("do_move only        : %7.2f M plies/s\n", total / replay_only / 1e6);
  return 0;
}
