// The empirical law's entry (laws.hpp): the samples read once per process,
// shared by every spec that names the same file and column, and its atoms
// and refusals, which need the sample's file.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/memory_limit.hpp"

namespace lbmc::dist {
namespace {

// Empirical samples by file and column, read once per process.
std::mutex g_samples_mutex;
std::map<std::string, std::shared_ptr<const EmpiricalSample>> g_samples;

}  // namespace

Empirical LawEntry<Empirical>::parse(std::string_view spec, std::string_view params) {
  SpecRules(spec).require(!params.empty(), "expected empirical:FILE or empirical:FILE:COLUMN");
  const auto [path, column] = split_file_column(params);
  const std::string key = path + '\n' + column;
  const std::lock_guard lock(g_samples_mutex);
  auto& held = g_samples[key];
  if (!held) {
    // The reader refuses values past 1e100, the table's magnitude limit.
    try {
      held = std::make_shared<const EmpiricalSample>(read_empirical_sample(path, column, engine::available_memory()));
    } catch (const engine::InputError& e) {
      g_samples.erase(key);
      throw engine::InputError(fmt::format("empirical:{}", e.what()));
    } catch (...) {
      g_samples.erase(key);
      throw;
    }
  }
  return Empirical{held, std::string(params)};
}

std::optional<engine::InputFile> input_file(const LoadLaw& law) {
  if (const auto* e = std::get_if<Empirical>(&law)) return e->sample->file;
  return std::nullopt;
}

Atoms LawEntry<Empirical>::atoms(const Empirical& l) {
  Atoms a;
  for (const double v : l.sample->sorted) {
    if (a.values.empty() || a.values.back() != v) {
      a.values.push_back(v);
      a.counts.push_back(0.0);
    }
    a.counts.back() += 1.0;
  }
  a.total = size(l);
  return a;
}

std::string LawEntry<Empirical>::negative_value(const Empirical& l, std::string_view what) {
  return fmt::format("empirical:{}: line {}: the value {} is negative, and {}", l.source,
                     l.sample->first_negative_line, l.sample->first_negative, what);
}

}  // namespace lbmc::dist
