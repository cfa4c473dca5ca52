# stats.gp — across seeds: a panel per configuration, a point per row (a
# planner with its options) at its mean arena / lower bound with the
# bootstrap 95 % confidence interval as error bars (results/stats.h), over
# the graphs on which every row of the panel has a valid result (paired).
# The rows' labels stand under the bottom panel of each column, turned, a
# slot each; a panel's title ends with n, the graphs it covers. A row whose
# mean is over 3x the panel's best is not drawn to the panel's scale: a
# triangle at the panel's top, with its mean, marks it. A row valid on fewer
# graphs than the others of its panel is left out of it and named, with its
# count, in the foot (FOOT, under the labels). bench plot lays the
# panels out (per size Cs columns, NPSs panels, SLOTSs rows shown, margins
# and gaps in inches, XTICSs the labels) and picks each panel's y range
# (Y0, Y1) and tic step (YSs) so that the tic labels fit.
# Data: stats.csv (panel, row, n, mean, lo, hi, ..., off_scale, ...).
do for [S in SIZES] { do for [F in FORMATS] {
  s = S + 0
  eval setup(s, F)
  ttl = title_of(s, F)
  C = s == 1 ? C1 : C2; NPS = s == 1 ? NPS1 : NPS2; NS = s == 1 ? SLOTS1 : SLOTS2
  L = sx(s, s == 1 ? L1 : L2); Rr = 1 - sx(s, s == 1 ? R1 : R2)
  B = sy(s, s == 1 ? B1 : B2)
  gx = sx(s, s == 1 ? GX1 : GX2); gy = sy(s, s == 1 ? GY1 : GY2)
  T = 1 - sy(s, (ttl eq "" ? 0 : TOP(s)) + (s == 1 ? T1 : T2))
  pw = (Rr - L - (C - 1) * gx) / C; R = ceil(NPS * 1.0 / C); ph = (T - B) / R - gy
  set datafile separator comma
  set multiplot title ttl
  set label 2 YLABEL at screen sx(s, 0.1), screen T + sy(s, 0.12) left
  fn = s == 1 ? FN1 : FN2
  do for [i=1:fn] { ft = s == 1 ? FOOT1[i] : FOOT2[i]; set label 10000 + i ft at screen sx(s, 0.1), screen sy(s, FOOTY(s, fn - i)) left }
  set border 3; set key off; set ytics nomirror; set format y '%g×'
  set grid ytics lc rgb '#dddddd' lw 0.5
  set y2range [0:1]; unset y2tics
  set xrange [0.5:NS + 0.5]
  do for [p=1:NPS] {
    cx = (p - 1) % C; ry = (p - 1) / C
    set lmargin at screen L + cx * (pw + gx); set rmargin at screen L + cx * (pw + gx) + pw
    set tmargin at screen T - ry * (ph + gy) - gy; set bmargin at screen T - ry * (ph + gy) - gy - ph
    if (p + C > NPS) { eval 'set xtics nomirror rotate by 90 right scale 0 ' . (s == 1 ? XTICS1 : XTICS2) } \
    else { set xtics nomirror scale 0 format '' }
    set label 1 (s == 1 ? PT1[p] : PT2[p]) at graph 1, graph 1 right offset 0, 0.7
    set yrange [Y0[p]:Y1[p]]; ys = s == 1 ? YS1[p] : YS2[p]
    set ytics ceil(Y0[p] / ys) * ys, ys
    plot for [i=1:NS] 'stats.csv' skip 1 using ($1 == p && $2 == i && $12 == 0 ? $2 : NaN):4:5:6 \
           with yerrorbars lc rgb col[i] pt pt[i] ps 0.6 lw 1.2, \
         'stats.csv' skip 1 using ($1 == p && $2 <= NS && $12 == 1 ? $2 : NaN):(0.97) axes x1y2 \
           with points pt 9 ps 0.7 lc rgb '#000000', \
         'stats.csv' skip 1 using ($1 == p && $2 <= NS && $12 == 1 ? $2 : NaN):(0.9):(sprintf('%.2f×', $4)) axes x1y2 \
           with labels rotate by 90 right
    unset label 2; do for [i=1:fn] { unset label 10000 + i }
  }
  unset multiplot; set output
}}
