// `lbmc reproduce PAPER|all`: recomputes every printed number of a paper and
// writes results/<paper>/claims.csv and claims.md (DESIGN §4, claims schema).
// Seeds are fixed by default so the files regenerate byte-identically. Under
// an embedding (engine/embedding.hpp) the claims go to its output instead of
// stdout, the files being written as always.
#include <cstdio>
#include <filesystem>

#include <unistd.h>

#include <fmt/format.h>
#include <omp.h>

#include "lbmc/engine/cluster.hpp"
#include "lbmc/engine/embedding.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/output_file.hpp"
#include "lbmc/exp/command.hpp"
#include "reproduce.hpp"
#include "lbmc/exp/run_options.hpp"

namespace lbmc::exp {
namespace {

constexpr std::uint64_t kDefaultSeed = 19920401;

// The nearest folder of `folder`, itself included, that exists.
std::filesystem::path nearest_existing(std::filesystem::path folder) {
  std::error_code ec;
  folder = std::filesystem::absolute(folder, ec);
  while (!std::filesystem::exists(folder, ec) && folder.has_parent_path() && folder != folder.parent_path()) {
    folder = folder.parent_path();
  }
  return folder;
}

// A bad --out fails before any simulation: the folder, or the nearest one
// that exists (where it will be created), must be a writable folder.
void require_writable_folder(const std::string& folder) {
  const std::filesystem::path existing = nearest_existing(folder);
  std::error_code ec;
  if (!std::filesystem::is_directory(existing, ec) || ::access(existing.c_str(), W_OK) != 0) {
    throw engine::InputError(fmt::format("--out '{}': not a writable folder", folder));
  }
}

// Creates the results folder (rank 0 alone writes).
void create_folder(const std::string& folder) {
  if (!engine::cluster::is_root()) return;
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw engine::RuntimeFailure(fmt::format("--out '{}': cannot create the folder: {}", folder, ec.message()));
}

class ReproduceCommand final : public Command {
 public:
  ReproduceCommand() : Command("reproduce", "PAPER|all: every printed number of a paper, recomputed") {}

  void attach(OptionSet& options) override {
    std::string ids;
    for (const Paper& p : papers()) ids += " " + p.id;
    options.text("paper", paper_, "paper id or all:" + ids).required();
    options.flag("--quick", quick_, "a tenth of the replications");
    options.footer(
        "Writes OUT/<paper>/claims.csv and claims.md; with `all` also OUT/SUMMARY.md (verdict counts and one\n"
        "line per claim) and OUT/ERRATA.md (the printed numbers that are not reproduced, with the reason).");
    options.text("--out", out_, "results folder").show_default();
    options.text("--seed", seed_text_, "master seed").show_default();
    options.text("--threads", threads_text_, "OpenMP threads (default: all)");
    options.text("--progress", progress_, "progress on stderr: auto|always|never").show_default();
    options.flag("--quiet", quiet_, "no progress or summary lines on stderr");
    options.text("--checkpoint", checkpoint_, "write the runs' state to FILE (lbmc resume FILE continues them)");
    options.text("--checkpoint-every", checkpoint_every_, "seconds between checkpoints").show_default();
  }

  std::unique_ptr<CheckedCommand> check(const std::string& /*command_line*/) override {
    RunOptionsText text;
    text.seed = seed_text_;
    text.threads = threads_text_;
    text.progress = progress_;
    text.quiet = quiet_;
    text.checkpoint = checkpoint_;
    text.checkpoint_every = checkpoint_every_;
    RunOptions settings = check_run_options(text);
    std::vector<Paper> selected;
    for (Paper& p : papers()) {
      if (paper_ == "all" || paper_ == p.id) selected.push_back(std::move(p));
    }
    if (selected.empty()) {
      std::string ids;
      for (const Paper& p : papers()) ids += " " + p.id;
      throw engine::InputError(fmt::format("paper: unknown id '{}' (all{})", paper_, ids));
    }
    require_writable_folder(out_);
    return std::make_unique<CheckedExperiment>(std::move(settings), std::vector<engine::InputFile>{},
                                           [this, selected](const AppliedRun& applied) {
      create_folder(out_);
      reproduce(selected, applied.options());
      return 0;
    });
  }

  // Every claim of the selected papers, their files and, for all, the summary and errata.
  void reproduce(const std::vector<Paper>& selected, const RunOptions& settings) const {
    ReproduceContext ctx;
    ctx.seed = settings.plan.seed;
    ctx.threads = settings.plan.threads;
    ctx.quick = quick_;
    ctx.progress = settings.plan.progress;
    std::vector<PaperClaims> reproduced;
    engine::Embedding* const embedding = engine::current_embedding();
    for (const Paper& paper : selected) {
      std::vector<Claim> claims;
      for (ClaimPart part : paper.parts) {
        for (Claim& c : part(ctx)) {
          c.paper = paper.id;
          claims.push_back(std::move(c));
        }
      }
      const std::string dir = out_ + "/" + paper.id;
      engine::write_file_atomically(dir + "/claims.csv", claims_csv(claims));
      const std::string markdown = claims_markdown(paper.title, claims);
      engine::write_file_atomically(dir + "/claims.md", markdown);
      if (embedding == nullptr) {
        std::fputs(markdown.c_str(), stdout);
        std::fputs("\n", stdout);
      }
      if (!quiet_) std::fprintf(stderr, "lbmc reproduce: %zu claims written to %s/\n", claims.size(), dir.c_str());
      reproduced.push_back({paper.id, paper.title, std::move(claims)});
    }
    if (embedding != nullptr) {
      std::vector<Claim> all;
      for (const PaperClaims& paper : reproduced) all.insert(all.end(), paper.claims.begin(), paper.claims.end());
      embedding->output.claims_csv = claims_csv(all);
    }
    if (paper_ == "all") {
      engine::write_file_atomically(out_ + "/SUMMARY.md", summary_markdown(reproduced));
      engine::write_file_atomically(out_ + "/ERRATA.md", errata_markdown(reproduced));
      if (!quiet_) std::fprintf(stderr, "lbmc reproduce: %s/SUMMARY.md and %s/ERRATA.md written\n", out_.c_str(), out_.c_str());
    }
  }

 private:
  std::string paper_;
  bool quick_ = false;
  std::string out_ = "results";
  std::string seed_text_ = std::to_string(kDefaultSeed);
  std::string threads_text_;
  std::string progress_ = "auto";
  bool quiet_ = false;
  std::string checkpoint_;
  std::string checkpoint_every_ = "60";
};

}  // namespace

engine::RunPlan ReproduceContext::plan(const std::string& claim_id, std::int64_t reps) const {
  engine::RunPlan p = engine::RunPlan::fixed(engine::derived_seed(seed, claim_id),
                                             quick ? std::max<std::int64_t>(1, reps / 10) : reps, threads);
  p.progress = progress;
  p.label = "reproduce " + claim_id;
  return p;
}

std::unique_ptr<Command> make_reproduce_command() { return std::make_unique<ReproduceCommand>(); }

}  // namespace lbmc::exp
