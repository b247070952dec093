# The 0.95 percentile of the maximum of n standard normal loads: simulation
# with its interval, the exact value F^{-1}(0.95^{1/n}), the paper's Gumbel
# form and the Gumbel form with the quantile norming (data/maxload.csv).
load "common.gp"
set output "maxload_percentile.svg"
data = "data/maxload.csv"
set table $exact
plot data using (column("n")):(column("reference_value")) with table if (is("q0.95", "exact"))
set table $paper
plot data using (column("n")):(column("reference_value")) with table if (is("q0.95", "gumbel-paper"))
set table $norming
plot data using (column("n")):(column("reference_value")) with table if (is("q0.95", "gumbel-quantile-norming"))
set table $mc
plot data using (column("n")):(column("estimate")):(column("ci_low")):(column("ci_high")) with table if (is("q0.95", "exact"))
unset table
load "tables_done.gp"
set title "Maximum load of n iid N(0,1) loads: 0.95 percentile"
set xlabel "processors n"
set ylabel "0.95 percentile of (Z − μ)/σ"
set logscale x 2
set format x "2^{%L}"
plot $paper using 1:2 with lines lw 2 dt 2 lc rgb "#d62728" title "Gumbel, a_n = b_n = √(2 ln n) (paper)", \
     $norming using 1:2 with lines lw 2 dt 4 lc rgb "#ff7f0e" title "Gumbel, quantile norming", \
     $exact using 1:2 with lines lw 2 lc rgb "#1f77b4" title "exact F^{-1}(0.95^{1/n})", \
     $mc using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb "black" title "Monte Carlo, 95% interval"
