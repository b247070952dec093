# Efficiency W/(P·C) of every strategy of `lbmc compare` against P, for
# N = 4096 exponential tasks of mean 1 (../compare/efficiency_vs_p.csv):
# each point the mean over replications with its 95% interval, every
# strategy on the same task times.
load "common.gp"
set output "../compare/efficiency_vs_p.svg"
data = "../compare/efficiency_vs_p.csv"
strategies = "block cyclic random choice:2 self guided balanced-block lpt"
colours = "#1f77b4 #ff7f0e #d62728 #9467bd #2ca02c #8c564b #e377c2 #17becf"
set title "Which decomposition: N = 4096 exponential tasks (lbmc compare)"
set xlabel "processors P"
set ylabel "efficiency E[W / (P C)]"
set logscale x 2
set yrange [0:1.02]
set key bottom left box opaque
# One table per strategy (P, estimate, ci_low, ci_high), so that its points
# are joined by a line.
table(i) = sprintf("compare_efficiency_%d.tmp", i)
do for [i = 1:words(strategies)] {
  set table table(i)
  plot data using (column("P")):(column("estimate")):(column("ci_low")):(column("ci_high")) with table \
       if (strcol("strategy") eq word(strategies, i) && strcol("statistic") eq "efficiency.mean")
  unset table
}
load "tables_done.gp"
plot for [i = 1:words(strategies)] table(i) using 1:2:3:4 with yerrorlines pt 7 ps 0.5 lw 2 \
       lc rgb word(colours, i) title word(strategies, i)
system("rm -f compare_efficiency_*.tmp")
