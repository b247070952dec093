// The embedding in scope on each thread, and the progress feed.
#include "lbmc/engine/embedding.hpp"

namespace lbmc::engine {
namespace {

thread_local Embedding* t_embedding = nullptr;

}  // namespace

void ProgressFeed::start(const std::string& label) {
  const std::lock_guard lock(mutex_);
  label_ = label;
  ++run_;
  done_.store(0, std::memory_order_relaxed);
  planned_.store(0, std::memory_order_relaxed);
}

void ProgressFeed::update(std::int64_t done, std::int64_t planned) noexcept {
  planned_.store(planned, std::memory_order_relaxed);
  done_.store(done, std::memory_order_relaxed);
}

ProgressSnapshot ProgressFeed::read() const {
  const std::lock_guard lock(mutex_);
  return {label_, done_.load(std::memory_order_relaxed), planned_.load(std::memory_order_relaxed), run_};
}

Embedding* current_embedding() noexcept { return t_embedding; }

EmbeddingScope::EmbeddingScope(Embedding* embedding) noexcept : previous_(t_embedding) { t_embedding = embedding; }

EmbeddingScope::~EmbeddingScope() { t_embedding = previous_; }

}  // namespace lbmc::engine
