# live.gp — bytes live at each step (grey), against each planner's arena
# (a line each); the byte ticks carry their unit. The legend has a strip of
# its own below the plot, KC columns of a fixed number of rows (gnuplot's own
# key below, or maxcols alone, falls back to one column, which ran off the
# strip: over the axis and past the page).
# Data: live.csv (step, live_bytes); the arenas are in the arrays above.
do for [S in SIZES] { do for [F in FORMATS] {
  s = S + 0
  eval setup(s, F)
  ttl = title_of(s, F)
  KC = s == 1 ? 2 : 3; NK = N + 1 + (REF > 0 ? 1 : 0)
  KH = ceil(NK * 1.0 / KC) * (s == 1 ? 0.15 : 0.17)
  set datafile separator comma
  set multiplot title ttl
  set lmargin at screen sx(s, s == 1 ? 0.62 : 0.8); set rmargin at screen 1 - sx(s, 0.15)
  set bmargin at screen sy(s, 0.45 + KH); set tmargin at screen 1 - sy(s, ttl eq "" ? 0.1 : TOP(s))
  set xlabel 'step' offset 0, 0.4
  set xrange [0:STEPS]; set yrange [0:YMAX]
  set xtics nomirror; set border 3
  eval 'set ytics nomirror ' . (s == 1 ? YT1 : YT2)
  set grid ytics lc rgb '#dddddd' lw 0.5
  set key off
  plot 'live.csv' skip 1 using 1:($2 / U) with fillsteps fs solid 0.3 noborder lc rgb '#999999', \
       '' skip 1 using 1:($2 / U) with steps lc rgb '#555555' lw 0.8, \
       for [i=1:N] ARENA[i] / U with lines lc rgb col[i] dt dt[i] lw 1.5@REFLINE@
  unset xlabel; unset border; unset tics; unset grid
  set xrange [0:1]; set yrange [0:1]
  set lmargin at screen sx(s, 0.1); set rmargin at screen 1 - sx(s, 0.1)
  set bmargin at screen sy(s, 0.06); set tmargin at screen sy(s, 0.08 + KH)
  set key inside center center vertical Left reverse maxrows ceil(NK * 1.0 / KC) samplen 1.5 width (s == 1 ? -3 : 0)
  plot NaN with boxes fs solid 0.3 noborder lc rgb '#999999' title 'live bytes', \
       for [i=1:N] NaN with lines lc rgb col[i] dt dt[i] lw 1.5 title name[i]@REFKEY@
  unset multiplot; set output
}}
