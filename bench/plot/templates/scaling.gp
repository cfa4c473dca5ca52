# scaling.gp — median planning time against tensors, log-log: a panel per
# flavour (a family with its parameters other than size and seed), a line
# per planner through a point per size (the value of the size parameters:
# the seeds of one size are one point, at the median of their tensors and
# of the planner's median times, with a bar over their range); the time
# ticks carry their unit; the legend has a strip of its own below the
# panels. A search stopped at its budget is a black cross over its point:
# its time is the budget, not an answer.
# Data: scaling.csv (panel, row, tensors, plan_ns_median, plan_ns_min,
# plan_ns_max, seeds, limit, noisy: the times pooled that bench marks '!',
# ...).
do for [S in SIZES] { do for [F in FORMATS] {
  s = S + 0
  eval setup(s, F)
  ttl = title_of(s, F)
  NPS = s == 1 ? NP1 : NP
  C = s == 1 ? (NPS < 2 ? NPS : 2) : (NPS < 2 ? NPS : 2); R = ceil(NPS * 1.0 / C)
  KC = s == 1 ? KC1 : KC2; KH = ceil((N + (NL > 0 ? 1 : 0)) * 1.0 / KC) * (s == 1 ? 0.15 : 0.17)
  L = sx(s, s == 1 ? 0.62 : 0.85); Rr = 1 - sx(s, 0.15)
  B = sy(s, 0.5 + KH); T = 1 - sy(s, ttl eq "" ? 0.08 : TOP(s))
  gx = sx(s, s == 1 ? 0.3 : 0.6); gy = sy(s, 0.5)
  pw = (Rr - L - (C - 1) * gx) / C; ph = (T - B - (R - 1) * gy) / R
  set datafile separator comma
  set multiplot title ttl
  set logscale xy; set xrange [X0:X1]; set yrange [Y0:Y1]
  eval 'set xtics nomirror ' . (s == 1 ? XTICS1 : XTICS2)
  eval 'set ytics nomirror ' . (s == 1 ? YTICS1 : YTICS2)
  set mxtics 10; set mytics 10
  set border 3; set grid xtics ytics lc rgb '#dddddd' lw 0.5; set key off
  do for [p=1:NPS] {
    cx = (p - 1) % C; ry = (p - 1) / C
    set lmargin at screen L + cx * (pw + gx); set rmargin at screen L + cx * (pw + gx) + pw
    set tmargin at screen T - ry * (ph + gy) - sy(s, 0.16); set bmargin at screen T - ry * (ph + gy) - ph
    set label 1 (s == 1 ? PT1[p] : PT[p]) at graph 0, graph 1 left offset 0, 0.7
    if (p + C > NPS) { set xlabel 'tensors' offset 0, 0.5 } else { unset xlabel }
    if (cx > 0) { set format y '' } else { set format y '%g' ; eval 'set ytics nomirror ' . (s == 1 ? YTICS1 : YTICS2) }
    plot for [i=1:N] 'scaling.csv' skip 1 using ($1 == p && $2 == i ? $3 : NaN):4:5:6 \
         with yerrorlines lc rgb col[i] dt dt[i] pt pt[i] ps 0.75 lw 1.2, \
         'scaling.csv' skip 1 using ($1 == p && $8 > 0 ? $3 : NaN):4 with points pt 2 ps 1 lc rgb '#000000'
  }
  unset label; unset title; unset xlabel; unset ylabel; unset border; unset tics; unset grid; unset logscale
  set xrange [0:1]; set yrange [0:1]
  set lmargin at screen sx(s, 0.1); set rmargin at screen 1 - sx(s, 0.1)
  set bmargin at screen sy(s, 0.1); set tmargin at screen sy(s, 0.12 + KH)
  set key inside center center vertical Left reverse maxrows ceil((N + (NL > 0 ? 1 : 0)) * 1.0 / KC) samplen 3 width (s == 1 ? -3 : 0)
  plot for [i=1:N] NaN with linespoints lc rgb col[i] dt dt[i] pt pt[i] ps 0.75 lw 1.2 title name[i]@LIMITKEY@
  unset multiplot; set output
}}
