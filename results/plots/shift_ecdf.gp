# The distribution of the normalised maximum shifts W' and D' of n normal
# loads (simulated quantiles at levels 0.02..0.98) against the Brownian-bridge
# limits 1 − e^{−2x²} and the Kolmogorov law, and against the same laws with
# the discrete-monitoring shift β/√n (data/maxshift.csv).
load "common.gp"
set output "shift_ecdf.svg"
data = "data/maxshift.csv"
beta = 0.5825971579390106
W(x) = x <= 0 ? 0 : 1 - exp(-2 * x**2)
# Kolmogorov's law: the theta series below x = 0.6, the alternating one above.
K(x) = x <= 0 ? 0 : x < 0.6 ? sqrt(2 * pi) / x * sum [k = 1:8] exp(-(2 * k - 1)**2 * pi**2 / (8 * x**2)) \
                            : 1 - 2 * sum [i = 1:40] (-1)**(i - 1) * exp(-2 * i**2 * x**2)
# The level α of a quantile statistic "W'.q<α>".
level(s) = real(s[5:*])
quantile_of(v, n) = strcol("statistic")[1:4] eq v.".q" && column("n") == n && strcol("reference_kind") eq "asymptotic"
array sizes[3] = [16, 64, 1024]
array colours[3] = ["#1f77b4", "#2ca02c", "#9467bd"]
set multiplot layout 1,2 title "Maximum shifts of n iid N(0,1) loads: simulation against the limit laws"
set xlabel "x"
set ylabel "P(· ≤ x)"
set xrange [0:2]
set yrange [0:1]
set key bottom right
set samples 400
set title "W' = max_k V_k/(σ√n)"
plot W(x) with lines lw 2 lc rgb "black" title "limit 1 − e^{−2x²}", \
     NaN with lines dt 2 lc rgb "black" title "limit at x + β/√n", \
     for [i = 1:3] W(x + beta / sqrt(sizes[i])) with lines dt 2 lc rgb colours[i] notitle, \
     for [i = 1:3] data using (quantile_of("W'", sizes[i]) ? column("estimate") : NaN):(quantile_of("W'", sizes[i]) ? level(strcol("statistic")) : NaN) \
          with points pt 7 ps 0.5 lc rgb colours[i] title sprintf("n = %d", sizes[i])
set title "D' = max_k |V_k|/(σ√n)"
plot K(x) with lines lw 2 lc rgb "black" title "Kolmogorov limit", \
     NaN with lines dt 2 lc rgb "black" title "limit at x + β/√n", \
     for [i = 1:3] K(x + beta / sqrt(sizes[i])) with lines dt 2 lc rgb colours[i] notitle, \
     for [i = 1:3] data using (quantile_of("D'", sizes[i]) ? column("estimate") : NaN):(quantile_of("D'", sizes[i]) ? level(strcol("statistic")) : NaN) \
          with points pt 7 ps 0.5 lc rgb colours[i] title sprintf("n = %d", sizes[i])
unset multiplot
