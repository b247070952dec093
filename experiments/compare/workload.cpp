// The workloads of `lbmc compare` (compare_workload.hpp has the model).
#include <cmath>

#include <fmt/format.h>

#include "lbmc/dist/empirical_sample.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/writers.hpp"
#include "compare_workload.hpp"

namespace lbmc::exp {

std::string Field::label() const {
  switch (kind) {
    case Kind::iid: return "iid";
    case Kind::ar1: return "ar1:" + engine::format_number(rho);
    case Kind::measured: return "measured";
  }
  return "";
}

Field parse_field(std::string_view text) {
  if (text == "iid") return {};
  if (text.substr(0, 4) == "ar1:") {
    double rho = 0.0;
    try {
      rho = engine::parse_real(text.substr(4));
    } catch (const engine::InputError&) {
      throw engine::InputError(fmt::format("'{}': RHO must be a number in (-1, 1)", text));
    }
    if (!(rho > -1.0 && rho < 1.0)) throw engine::InputError(fmt::format("'{}': RHO must lie in (-1, 1)", text));
    return {Field::Kind::ar1, rho};
  }
  throw engine::InputError(fmt::format("'{}' is not a field (iid, ar1:RHO)", text));
}

std::string Workload::label() const {
  return field.kind == Field::Kind::measured ? "times:" + source : dist::to_spec(law);
}

double Workload::expected_total() const {
  if (field.kind != Field::Kind::measured) return static_cast<double>(tasks) * dist::mean(law);
  double total = 0.0;
  for (const double t : *measured) total += t;
  return total;
}

Workload drawn_workload(const dist::LoadLaw& law, std::int64_t tasks, Field field) {
  Workload w;
  w.law = law;
  w.field = field;
  w.tasks = tasks;
  w.file = dist::input_file(law);
  return w;
}

Workload measured_workload(std::string_view spec, double memory_budget) {
  const auto [path, column] = dist::split_file_column(spec);
  dist::MeasuredValues read;
  try {
    read = dist::read_measured_values(path, column, memory_budget);
  } catch (const engine::InputError& e) {
    throw engine::InputError(fmt::format("times:{}", e.what()));
  }
  if (read.first_negative_line != 0) {
    throw engine::InputError(fmt::format("times:{}: line {}: the time {} is negative, and task times must be >= 0",
                                         spec, read.first_negative_line, read.first_negative));
  }
  bool any_work = false;
  for (const double t : read.values) any_work = any_work || t > 0.0;
  if (!any_work) throw engine::InputError(fmt::format("times:{}: every time is 0 (no work to balance)", spec));
  Workload w;
  w.field = {Field::Kind::measured, 0.0};
  w.tasks = static_cast<std::int64_t>(read.values.size());
  w.measured = std::make_shared<const std::vector<double>>(std::move(read.values));
  w.source = std::string(spec);
  w.file = read.file;
  return w;
}

CorrelatedTimes::CorrelatedTimes(const Workload& workload)
    : law_(workload.law), rho_(workload.field.rho), innovation_(std::sqrt((1.0 - rho_) * (1.0 + rho_))) {
  if (const auto* l = std::get_if<dist::Lognormal>(&law_)) {
    lognormal_ = true;
    mu_ = l->mu;
    sigma_ = l->sigma;
  }
}

void CorrelatedTimes::fill(engine::Generator& gen, std::span<double> times) const {
  const dist::LoadLaw standard = dist::Normal{0.0, 1.0};
  double z = 0.0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const double e = normal_(gen);
    z = i == 0 ? e : rho_ * z + innovation_ * e;
    if (lognormal_) {
      times[i] = std::exp(mu_ + sigma_ * z);
    } else if (z > 0.0) {
      times[i] = dist::quantile_upper(law_, dist::cdf(standard, -z));
    } else {
      times[i] = dist::quantile(law_, dist::cdf(standard, z));
    }
  }
}

}  // namespace lbmc::exp
