# Efficiency (N/P)/E[max load] of N = 1000 unit tasks assigned at random to
# P processors: simulation of both models with intervals and their exact
# values (multinomial: the assignment described; poisson: the paper's model)
# (data/assign.csv).
load "common.gp"
set output "assign_efficiency.svg"
data = "data/assign.csv"
exact(m) = is("efficiency", "exact") && strcol("model") eq m
set table $multinomial
plot data using (column("P")):(column("reference_value")) with table if (exact("multinomial"))
set table $poisson
plot data using (column("P")):(column("reference_value")) with table if (exact("poisson"))
set table $mc_multinomial
plot data using (column("P")):(column("estimate")):(column("ci_low")):(column("ci_high")) with table if (exact("multinomial"))
set table $mc_poisson
plot data using (column("P")):(column("estimate")):(column("ci_low")):(column("ci_high")) with table if (exact("poisson"))
# The gap between the models: each multinomial point's rows list its exact
# value first, then the Poisson model's, so keep the first and subtract.
set table $gap
plot data using (column("P")):(strcol("model") eq "multinomial" && strcol("statistic") eq "efficiency" ? \
     (strcol("reference") eq "exact" ? (m = column("reference_value"), NaN) : 1e4 * (m - column("reference_value"))) : NaN) \
     with table if (strcol("model") eq "multinomial" && is("efficiency", "poisson-model"))
unset table
load "tables_done.gp"
set multiplot
set title "Random assignment of N = 1000 tasks (Franklin et al. 1994)"
set lmargin 12
set size 1, 0.7
set origin 0, 0.3
set ylabel "efficiency (N/P) / E[max load]"
set logscale x 10
set yrange [0:1]
set key top right
plot $multinomial using 1:2 with lines lw 2 lc rgb "#1f77b4" title "exact, multinomial (balls into bins)", \
     $poisson using 1:2 with lines lw 2 dt 2 lc rgb "#d62728" title "exact, iid Poisson (paper's model)", \
     $mc_multinomial using 1:2:3:4 with yerrorbars pt 7 ps 0.5 lc rgb "#1f77b4" title "Monte Carlo, multinomial", \
     $mc_poisson using 1:2:3:4 with yerrorbars pt 6 ps 0.7 lc rgb "#d62728" title "Monte Carlo, Poisson"
set size 1, 0.3
set origin 0, 0
unset yrange
set xlabel "processors P"
unset title
set ylabel "multinomial − Poisson\n(units of 10^{−4})"
set ytics 0.1
set key off
plot $gap using 1:2 with linespoints pt 7 ps 0.5 lw 2 lc rgb "#555555"
unset multiplot
