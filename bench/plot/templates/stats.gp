# stats.gp — across seeds: a panel per configuration, a point per planner
# at its mean arena / lower bound with the bootstrap 95 % confidence
# interval as error bars (results/stats.h), over the graphs on which every
# planner of the panel has a valid result (paired); planners whose mean is
# over 3x the panel's best are left out (see the caption above). The legend
# below the panels names the planners; a panel's label ends with n, the
# graphs it covers.
# Data: stats.csv (panel, row, n, mean, lo, hi, ...).
do for [S in SIZES] { do for [F in FORMATS] {
  s = S + 0
  eval setup(s, F)
  ttl = title_of(s, F)
  NPS = s == 1 ? NP1 : NP
  C = s == 1 ? (NPS < 2 ? NPS : 2) : (NPS < 3 ? NPS : 3); R = ceil(NPS * 1.0 / C)
  KC = s == 1 ? 2 : 3; KH = ceil(N * 1.0 / KC) * (s == 1 ? 0.15 : 0.17)
  L = sx(s, s == 1 ? 0.5 : 0.65); Rr = 1 - sx(s, 0.1)
  B = sy(s, 0.3 + KH); T = 1 - sy(s, ttl eq "" ? 0.08 : TOP(s))
  gx = sx(s, s == 1 ? 0.45 : 0.6); gy = sy(s, 0.25)
  pw = (Rr - L - (C - 1) * gx) / C; ph = (T - B - (R - 1) * gy) / R
  set datafile separator comma
  set multiplot title ttl
  set border 3; set key off; set xtics format '' scale 0; set ytics nomirror; set format y '%g×'
  set grid ytics lc rgb '#dddddd' lw 0.5
  set xrange [0.3:N + 0.7]
  do for [p=1:NPS] {
    cx = (p - 1) % C; ry = (p - 1) / C
    set lmargin at screen L + cx * (pw + gx); set rmargin at screen L + cx * (pw + gx) + pw
    set tmargin at screen T - ry * (ph + gy) - sy(s, 0.16); set bmargin at screen T - ry * (ph + gy) - ph
    set label 1 (s == 1 ? PT1[p] : PT[p]) at graph 1, graph 1 right offset 0, 0.7
    set yrange [*:*]
    plot for [i=1:N] 'stats.csv' skip 1 using ($1 == p && $2 == i ? $2 : NaN):4:5:6 with yerrorbars lc rgb col[i] pt pt[i] ps 0.6 lw 1.2
  }
  unset label; unset title; unset xlabel; unset ylabel; unset border; unset tics; unset grid
  set xrange [0:1]; set yrange [0:1]
  set lmargin at screen sx(s, 0.1); set rmargin at screen 1 - sx(s, 0.1)
  set bmargin at screen sy(s, 0.1); set tmargin at screen sy(s, 0.12 + KH)
  set key inside center center vertical Left reverse maxrows ceil(N * 1.0 / KC) samplen 1 width (s == 1 ? -2 : 0)
  plot for [i=1:N] NaN with points lc rgb col[i] pt pt[i] ps 0.6 title name[i]
  unset multiplot; set output
}}
