# Settings shared by the plots: SVG output and tidy lbmc CSV read by column name.
set terminal svg size 860,540 dynamic enhanced font "sans,13" background "white"
set datafile separator comma
set datafile columnheaders
set key top left box opaque
set grid lc rgb "#dddddd"
# True on the CSV row of statistic `s` checked against reference `r`.
is(s, r) = strcol("statistic") eq s && strcol("reference") eq r
