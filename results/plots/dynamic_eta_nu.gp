# Efficiency of the exponential single-level model at p = 16 (κ = 4, λ = 1)
# against the granularity ν: simulation with intervals, the exact value
# (death-chain recursion, ν <= 300), Theorem 1 with ln p and with H_p, and
# the optimum found by the ν search with the interval of ν the noise cannot
# tell from it (data/dynamic_nu.csv, data/dynamic_opt.csv).
load "common.gp"
set output "dynamic_eta_nu.svg"
sweep = "data/dynamic_nu.csv"
opt = "data/dynamic_opt.csv"
# Theorem 1 has a form for ρ > 1 and one for ρ <= 1 under different names.
theorem(kind) = strcol("statistic") eq "eta" && \
  (strcol("reference") eq "theorem1-".kind || strcol("reference") eq "theorem1-ii-".kind)
set table $exact
plot sweep using (column("nu")):(column("reference_value")) with table if (is("eta", "exact"))
set table $log_p
plot sweep using (column("nu")):(column("reference_value")) with table if (theorem("log-p"))
set table $harmonic
plot sweep using (column("nu")):(column("reference_value")) with table if (theorem("harmonic"))
set table $mc
plot sweep using (column("nu")):(column("estimate")):(column("ci_low")):(column("ci_high")) \
     with table if (strcol("statistic") eq "eta" && strcol("reference") eq "theorem1-harmonic" || \
                    strcol("statistic") eq "eta" && strcol("reference") eq "theorem1-ii-harmonic")
set table $best
plot opt using (column("nu")):(column("estimate")):(column("ci_low")):(column("ci_high")) \
     with table if (is("eta_max", "exact"))
set table $nu_range
plot opt using (column("estimate")):(column("ci_low")):(column("ci_high")) with table if (is("nu_opt", "rho-1"))
unset table
load "tables_done.gp"
stats $nu_range using 2 nooutput
nu_low = STATS_min
stats $nu_range using 3 nooutput
nu_high = STATS_max
set object 1 rectangle from nu_low, graph 0 to nu_high, graph 1 fillcolor rgb "#ffe9a8" fillstyle solid 0.6 noborder behind
set title "Kimura–Ichiyoshi, exponential model, p = 16, t1 = 4p² ln p/λ, λ = 1"
set xlabel "mean number of subtasks ν"
set ylabel "efficiency η = t1/(p E T_p)"
set logscale x 10
set xrange [15:2500]
set yrange [0:1.25]
set ytics 0, 0.2, 1
set key top right
plot $exact using 1:2 with lines lw 2 lc rgb "#1f77b4" title "exact (ν ≤ 300)", \
     $log_p using 1:2 with lines lw 2 dt 2 lc rgb "#d62728" title "Theorem 1, log p (paper)", \
     $harmonic using 1:2 with lines lw 2 dt 4 lc rgb "#ff7f0e" title "Theorem 1, H_p for log p", \
     $mc using 1:2:3:4 with yerrorbars pt 7 ps 0.5 lc rgb "black" title "Monte Carlo, 95% interval", \
     $best using 1:2:3:4 with yerrorbars pt 9 ps 1.6 lc rgb "#2ca02c" title "optimum η_{max} at ν_{opt} (shaded: ν within noise)"
