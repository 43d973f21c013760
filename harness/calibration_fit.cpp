#include "harness/calibration_fit.h"

#include <cmath>

#include <spdlog/fmt/fmt.h>

namespace mlusim::calibration {
namespace {

// Bisection steps: a thousandth of the search range is finer than any
// published figure's precision.
constexpr int kBisections = 10;

bool holds_on(const FitConstant &k, int bang_arch) {
  return bang_arch >= k.min_arch && bang_arch <= k.max_arch;
}

// The mean error of constant k's cases with it at `value` (to the middle of a
// published range: a fit aims at the figure, not at its nearest edge), or
// nullopt with `note` saying why a case gave no figure.
class CasesOf {
 public:
  CasesOf(const std::vector<Case> &all, const FitConstant &k, const Evaluate &evaluate,
          const std::vector<Fitted> &before)
      : all_(all), evaluate_(evaluate) {
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].fits == k.label) {
        indices_.push_back(i);
        std::vector<Setting> s = settings_for(bang_arch_of(all[i].board), before);
        s.push_back({k.setting, 0});
        settings_.push_back(std::move(s));
      }
  }

  bool empty() const { return indices_.empty(); }
  const Case &first() const { return all_[indices_.front()]; }

  std::optional<double> mean_error(double value, std::string &note) {
    for (std::vector<Setting> &s : settings_) s.back().value = value;
    const std::vector<Outcome> outcomes = evaluate_(indices_, settings_);
    double sum = 0;
    for (size_t i = 0; i < indices_.size(); ++i) {
      const Case &c = all_[indices_[i]];
      if (!outcomes[i].figure) {
        note = fmt::format("{}: {}", c.name, outcomes[i].note);
        return std::nullopt;
      }
      sum += *outcomes[i].figure / ((c.published_low + c.published_high) / 2) - 1;
    }
    return sum / static_cast<double>(indices_.size());
  }

 private:
  const std::vector<Case> &all_;
  const Evaluate &evaluate_;
  std::vector<size_t> indices_;
  std::vector<std::vector<Setting>> settings_;
};

// Where the mean error of `cases` changes sign in [k.low, k.high], by
// bisection (every fitted constant moves its cases one way); then, for a
// constant the device rounds, the nearer of the two steps around it.
void bisect(CasesOf &cases, Fitted &f) {
  const FitConstant &k = f.constant;
  std::optional<double> at_low = cases.mean_error(k.low, f.note);
  std::optional<double> at_high = at_low ? cases.mean_error(k.high, f.note) : std::nullopt;
  if (!at_low || !at_high) return;
  if ((*at_low > 0) == (*at_high > 0)) {
    f.note = fmt::format("no value from {} to {} fits its cases: {:+.1f}% at {}, {:+.1f}% at {}",
                         k.low, k.high, 100 * *at_low, k.low, 100 * *at_high, k.high);
    return;
  }
  double low = k.low, high = k.high, error_low = *at_low;
  for (int i = 0; i < kBisections; ++i) {
    const double middle = (low + high) / 2;
    const std::optional<double> e = cases.mean_error(middle, f.note);
    if (!e) return;
    if ((*e > 0) == (error_low > 0)) low = middle, error_low = *e;
    else high = middle;
  }
  double best = (low + high) / 2;
  if (k.step > 0) {
    const double below = std::floor(best / k.step) * k.step, above = below + k.step;
    const std::optional<double> e_below = cases.mean_error(below, f.note);
    const std::optional<double> e_above = cases.mean_error(above, f.note);
    if (!e_below || !e_above) return;
    best = std::fabs(*e_below) <= std::fabs(*e_above) ? below : above;
  }
  const std::optional<double> e = cases.mean_error(best, f.note);
  if (!e) return;
  f.found = best;
  f.error_at_found = *e;
}

}  // namespace

std::vector<Setting> settings_for(int bang_arch, const std::vector<Fitted> &fitted) {
  std::vector<Setting> settings;
  for (const Fitted &f : fitted)
    if (f.found && holds_on(f.constant, bang_arch)) settings.push_back({f.constant.setting, *f.found});
  return settings;
}

std::vector<Fitted> fit(const std::vector<Case> &all, const std::vector<FitConstant> &constants,
                        const Evaluate &evaluate) {
  std::vector<Fitted> fitted;
  for (const FitConstant &k : constants) {
    Fitted f{k};
    CasesOf cases(all, k, evaluate, fitted);
    if (cases.empty()) {
      f.note = "no case is marked to fit it";
    } else {
      f.in_use = constant_on(cases.first().board, k.setting);
      bisect(cases, f);
    }
    fitted.push_back(std::move(f));
  }
  return fitted;
}

}  // namespace mlusim::calibration
