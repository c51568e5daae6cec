#include "index/reindex.h"

#include "index/postings.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

#include "db/database.h"
#include "db/record_view.h"
#include "index/signature.h"
#include "index/signature_builder.h"

namespace sig {

namespace {

constexpr uint32_t kGamesPerChunk = 2048;  // games a worker replays at a time
constexpr size_t kFirstFailuresShown = 10;
using Clock = std::chrono::steady_clock;

/// The new signatures of a run of consecutive games.
struct Chunk {
  uint32_t first_id = 0;
  std::string bytes;                  // the encoded signatures, one after the other
  std::vector<uint32_t> ends;         // end offset in `bytes` of each game's signature
  std::vector<std::string> failures;  // per game: empty, or why it has no signature
  uint64_t plies = 0;
};

/// Work shared by the threads: chunks are claimed in order, finished ones wait in `done`
/// until the writer takes them in order.
class ChunkQueue {
 public:
  /// Work for `games` games; at most `max_ahead` chunks are finished but not yet written.
  ChunkQueue(uint32_t games, unsigned max_ahead)
      : chunks_((games + kGamesPerChunk - 1) / kGamesPerChunk), max_ahead_(max_ahead) {}

  /// Number of chunks.

  uint32_t chunks() const { return chunks_; }

  /// Claims the next chunk index; false when none is left or the work stopped. Waits while
  /// too many finished chunks are not written yet.
  bool claim(uint32_t& index) {
    std::unique_lock lock(mutex_);
    space_.wait(lock, [&] { return stop_ || next_ < written_ + max_ahead_; });
    if (stop_ || next_ >= chunks_) return false;
    index = next_++;
    return true;
  }
  /// Hands in a finished chunk.
  void finish(uint32_t index, Chunk chunk) {
    {
      std::lock_guard lock(mutex_);
      done_.emplace(index, std::move(chunk));
    }
    ready_.notify_all();
  }
  /// Waits for chunk `index` (the next to write); false if the work stopped first.
  bool take(uint32_t index, Chunk& out) {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return stop_ || done_.count(index); });
    if (stop_) return false;
    out = std::move(done_.at(index));
    done_.erase(index);
    written_ = index + 1;
    space_.notify_all();
    return true;
  }
  /// Ends the work: claim() and take() return false from now on. `error` (if any) is kept
  /// for the writer to rethrow.
  void stop(std::exception_ptr error = nullptr) {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
      if (error && !error_) error_ = error;
    }
    space_.notify_all();
    ready_.notify_all();
  }
  /// The first error passed to stop(), if any.
  std::exception_ptr error() {
    std::lock_guard lock(mutex_);
    return error_;
  }

 private:
  const uint32_t chunks_;
  const unsigned max_ahead_;
  std::mutex mutex_;
  std::condition_variable space_;   // a chunk was written: workers may claim more
  std::condition_variable ready_;   // a chunk was finished
  std::map<uint32_t, Chunk> done_;  // finished, not yet written
  uint32_t next_ = 0;               // next chunk to claim
  uint32_t written_ = 0;            // chunks written
  bool stop_ = false;
  std::exception_ptr error_;
};

/// A worker: replays the games of claimed chunks with its own reader.
void compute_chunks(const db::Database& database, uint32_t games, ChunkQueue& queue) {
  try {
    db::GameReader reader = database.reader();
    SignatureBuilder builder;
    uint32_t index;
    while (queue.claim(index)) {
      reader.refresh();  // a fresh snapshot per chunk: old pages are not pinned for long
      Chunk chunk;
      chunk.first_id = 1 + index * kGamesPerChunk;
      const uint32_t last_id = std::min(games, chunk.first_id + kGamesPerChunk - 1);
      auto scan = reader.scan(chunk.first_id, last_id);
      uint32_t id;
      std::string_view record;
      while (scan.next(id, record)) {
        std::string failure;
        try {
          const db::RecordView view = db::RecordView::parse(record);
          compute_signature(view, builder);
          encode(builder.signature(), chunk.bytes);
          chunk.plies += view.main_line_size();
        } catch (const db::CorruptRecord& e) {
          failure = e.what();
        }
        chunk.ends.push_back(uint32_t(chunk.bytes.size()));
        chunk.failures.push_back(std::move(failure));
      }
      queue.finish(index, std::move(chunk));
    }
  } catch (...) {
    queue.stop(std::current_exception());
  }
}

}  // namespace

ReindexSummary reindex(const std::filesystem::path& dir, const ReindexOptions& options,
                       const ReindexProgressCallback& on_progress) {
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  db::Database database = db::Database::open_for_reindex(dir);
  db::GameWriter writer = database.writer();
  remove_postings(dir);  // derived from the signatures about to be rewritten
  ReindexSummary summary;
  summary.upgraded = database.signatures_outdated();
  summary.games = writer.committed_games();

  unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  threads = std::max(threads, 1u);
  ChunkQueue queue(summary.games, 4 * threads);
  std::vector<std::thread> workers;
  for (unsigned i = 0; i < threads; ++i)
    workers.emplace_back(compute_chunks, std::cref(database), summary.games, std::ref(queue));

  double last_progress = -1;
  uint32_t uncommitted = 0;  // signatures written since the last commit
  try {
    Chunk chunk;
    for (uint32_t index = 0; index < queue.chunks(); ++index) {
      if (options.cancel && options.cancel->load()) {
        summary.interrupted = true;
        break;
      }
      if (!queue.take(index, chunk)) break;  // a worker failed
      uint32_t begin = 0;
      for (size_t i = 0; i < chunk.ends.size(); ++i) {
        const uint32_t id = chunk.first_id + uint32_t(i);
        const std::string_view bytes(chunk.bytes.data() + begin, chunk.ends[i] - begin);
        begin = chunk.ends[i];
        writer.set_signature(id, bytes);  // empty for a failed game: deletes its signature
        if (chunk.failures[i].empty()) {
          ++summary.rewritten;
          summary.bytes += bytes.size();
        } else {
          ++summary.failed;
          if (summary.first_failures.size() < kFirstFailuresShown)
            summary.first_failures.push_back("game " + std::to_string(id) + ": " +
                                             chunk.failures[i]);
        }
      }
      summary.plies += chunk.plies;
      uncommitted += uint32_t(chunk.ends.size());
      if (uncommitted >= options.games_per_commit) {
        writer.commit();
        uncommitted = 0;
      }
      if (on_progress && elapsed() - last_progress >= 0.1) {
        last_progress = elapsed();
        on_progress({summary.rewritten + summary.failed, summary.games, last_progress});
      }
    }
  } catch (...) {
    queue.stop(std::current_exception());
  }
  queue.stop();
  for (std::thread& t : workers) t.join();
  if (std::exception_ptr error = queue.error()) std::rethrow_exception(error);

  writer.commit();
  if (!summary.interrupted) writer.mark_signatures_current();
  writer.finish();
  if (!summary.interrupted) summary.postings = update_postings(database, /*rebuild=*/true);
  // The header bitmaps are read back from headers.sqlite (db/header_bitmaps.h).
  if (!summary.interrupted) summary.header_bitmaps = db::update_header_bitmaps(database, /*rebuild=*/true);
  if (!summary.interrupted)
    summary.positions = posindex::update_position_index(database, /*rebuild=*/true, options.threads);
  summary.seconds = elapsed();
  if (on_progress)
    on_progress({summary.rewritten + summary.failed, summary.games, summary.seconds});
  return summary;
}

}  // namespace sig
