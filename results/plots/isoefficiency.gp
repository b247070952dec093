# Isoefficiency of the exponential model (η₀ = 0.8, λ = 1): the smallest t1
# reaching η₀ against p, for one and two levels, with the least-squares fit
# ln t1 = c + α ln p + β ln ln p and the theory's exponents α_ℓ = (ℓ+1)/ℓ,
# β_ℓ = (ℓ+1)/2 drawn through the same centre (data/isoefficiency.csv).
load "common.gp"
set output "isoefficiency.svg"
data = "data/isoefficiency.csv"
at_level(l) = column("levels") == l
set table $iso1
plot data using (column("p")):(column("estimate")) with table if (at_level(1) && strcol("statistic") eq "t1_iso")
set table $iso2
plot data using (column("p")):(column("estimate")) with table if (at_level(2) && strcol("statistic") eq "t1_iso")
unset table
stats data using (at_level(1) && strcol("statistic") eq "alpha" ? column("estimate") : NaN) nooutput
alpha1 = STATS_mean
stats data using (at_level(1) && strcol("statistic") eq "beta" ? column("estimate") : NaN) nooutput
beta1 = STATS_mean
stats data using (at_level(2) && strcol("statistic") eq "alpha" ? column("estimate") : NaN) nooutput
alpha2 = STATS_mean
stats data using (at_level(2) && strcol("statistic") eq "beta" ? column("estimate") : NaN) nooutput
beta2 = STATS_mean
load "tables_done.gp"
# Least-squares intercepts: the mean residual of each line through the points.
stats $iso1 using (log($2) - alpha1 * log($1) - beta1 * log(log($1))) nooutput
c1 = STATS_mean
stats $iso1 using (log($2) - 2.0 * log($1) - 1.0 * log(log($1))) nooutput
c1_theory = STATS_mean
stats $iso2 using (log($2) - alpha2 * log($1) - beta2 * log(log($1))) nooutput
c2 = STATS_mean
stats $iso2 using (log($2) - 1.5 * log($1) - 1.5 * log(log($1))) nooutput
c2_theory = STATS_mean
shape(p, c, a, b) = exp(c + a * log(p) + b * log(log(p)))
set title "Isoefficiency at η₀ = 0.8 (Kimura–Ichiyoshi, exponential model)"
set xlabel "processors p"
set ylabel "smallest t1 with η_{max} ≥ 0.8"
set logscale xy
set format y "10^{%L}"
set xrange [3.5:300]
set samples 200
set key top left
plot $iso1 using 1:2 with points pt 7 ps 0.8 lc rgb "#1f77b4" title "one level", \
     shape(x, c1, alpha1, beta1) with lines lw 2 lc rgb "#1f77b4" \
          title sprintf("fit: α = %.2f, β = %.2f", alpha1, beta1), \
     shape(x, c1_theory, 2.0, 1.0) with lines dt 2 lc rgb "#1f77b4" title "theory: p² log p", \
     $iso2 using 1:2 with points pt 5 ps 0.8 lc rgb "#d62728" title "two levels", \
     shape(x, c2, alpha2, beta2) with lines lw 2 lc rgb "#d62728" \
          title sprintf("fit: α = %.2f, β = %.2f", alpha2, beta2), \
     shape(x, c2_theory, 1.5, 1.5) with lines dt 2 lc rgb "#d62728" title "theory: p^{3/2} (log p)^{3/2}"
