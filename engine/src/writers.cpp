// CSV, JSON and text renderings of result tables.
#include "lbmc/engine/writers.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lbmc/engine/build_info.hpp"

namespace lbmc::engine {
namespace {

constexpr const char* kFixedColumns[] = {"statistic", "estimate", "se", "ci_low", "ci_high", "reps",
                                          "reference", "reference_kind", "reference_value", "z",
                                          "rel_diff", "verdict"};

std::string optional_number(const std::optional<double>& x) {
  return x ? format_number(*x) : std::string();
}

nlohmann::json json_number(double x) {
  if (std::isfinite(x)) return unsigned_zero(x);
  return format_number(x);  // JSON has no inf/nan: spelled as strings
}

nlohmann::json json_optional(const std::optional<double>& x) {
  return x ? json_number(*x) : nlohmann::json(nullptr);
}

std::string short_number(double x) {
  if (std::isnan(x)) return "nan";
  return fmt::format("{:.6g}", unsigned_zero(x));
}

}  // namespace

std::string format_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return fmt::format("{}", unsigned_zero(x));
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

std::string to_csv(const ResultTable& table) {
  std::string out = "experiment";
  for (const auto& name : table.param_names) {
    out += ',';
    out += csv_field(name);
  }
  for (const char* column : kFixedColumns) {
    out += ',';
    out += column;
  }
  out += '\n';
  for (const Row& row : table.rows) {
    out += csv_field(table.experiment);
    for (const auto& value : row.params) {
      out += ',';
      out += csv_field(value);
    }
    const Estimate& e = row.estimate;
    out += fmt::format(",{},{},{},{},{},{}", csv_field(row.statistic), format_number(e.value),
                       format_number(e.se), format_number(e.ci_low), format_number(e.ci_high), e.reps);
    if (row.reference) {
      out += fmt::format(",{},{},{}", csv_field(row.reference->name), to_string(row.reference->kind),
                         format_number(row.reference->value));
    } else {
      out += ",,,";
    }
    out += fmt::format(",{},{},{}\n", optional_number(row.z), optional_number(row.rel_diff),
                       to_string(row.verdict));
  }
  return out;
}

nlohmann::json to_json(const ResultTable& table, const RunMeta& meta) {
  nlohmann::json m = build_info();
  m.update(nlohmann::json(meta));
  m["experiment"] = table.experiment;
  m["z_tol"] = table.z_tol;
  m["notes"] = table.notes;
  nlohmann::json rows = nlohmann::json::array();
  for (const Row& row : table.rows) {
    nlohmann::json r;
    r["experiment"] = table.experiment;
    for (std::size_t i = 0; i < table.param_names.size(); ++i) r[table.param_names[i]] = row.params[i];
    r["statistic"] = row.statistic;
    r["estimate"] = json_number(row.estimate.value);
    r["se"] = json_number(row.estimate.se);
    r["ci_low"] = json_number(row.estimate.ci_low);
    r["ci_high"] = json_number(row.estimate.ci_high);
    r["reps"] = row.estimate.reps;
    r["reference"] = row.reference ? nlohmann::json(row.reference->name) : nlohmann::json(nullptr);
    r["reference_kind"] =
        row.reference ? nlohmann::json(to_string(row.reference->kind)) : nlohmann::json(nullptr);
    r["reference_value"] = row.reference ? json_number(row.reference->value) : nlohmann::json(nullptr);
    r["z"] = json_optional(row.z);
    r["rel_diff"] = json_optional(row.rel_diff);
    r["verdict"] = row.verdict == Verdict::none ? nlohmann::json(nullptr) : nlohmann::json(to_string(row.verdict));
    rows.push_back(std::move(r));
  }
  return {{"meta", m}, {"rows", rows}};
}

std::string to_text(const ResultTable& table) {
  std::string out;
  const std::vector<std::string>* current = nullptr;
  for (const Row& row : table.rows) {
    if (current == nullptr || *current != row.params) {
      current = &row.params;
      std::string head = table.experiment;
      for (std::size_t i = 0; i < table.param_names.size(); ++i) {
        head += fmt::format("  {}={}", table.param_names[i], row.params[i]);
      }
      out += fmt::format("\n{}\n  {:<16} {:>12} {:>11} {:>27}  {:<26} {:<10} {:>12} {:>8}  {}\n", head,
                         "statistic", "estimate", "se", "interval", "reference", "kind", "value", "z",
                         "verdict");
    }
    const Estimate& e = row.estimate;
    const std::string interval = fmt::format("[{}, {}]", short_number(e.ci_low), short_number(e.ci_high));
    std::string ref_name, kind, value, z;
    if (row.reference) {
      ref_name = row.reference->name;
      kind = to_string(row.reference->kind);
      value = short_number(row.reference->value);
    }
    if (row.z) z = fmt::format("{:.2f}", *row.z);
    out += fmt::format("  {:<16} {:>12} {:>11} {:>27}  {:<26} {:<10} {:>12} {:>8}  {}\n", row.statistic,
                       short_number(e.value), short_number(e.se), interval, ref_name, kind, value, z,
                       to_string(row.verdict));
  }
  return out;
}

}  // namespace lbmc::engine
