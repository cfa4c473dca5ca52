# live.gp — bytes live at each step (grey), against each planner's arena
# (a line each, named in the legend below the plot); the byte ticks carry
# their unit.
# Data: live.csv (step, live_bytes); the arenas are in the arrays above.
do for [S in SIZES] { do for [F in FORMATS] {
  s = S + 0
  eval setup(s, F)
  ttl = title_of(s, F)
  set datafile separator comma
  set title ttl
  set xlabel 'step' offset 0, 0.4
  set xrange [0:STEPS]; set yrange [0:YMAX]
  set xtics nomirror; set border 3
  eval 'set ytics nomirror ' . (s == 1 ? YT1 : YT2)
  set grid ytics lc rgb '#dddddd' lw 0.5
  set key below horizontal Left reverse maxcols (s == 1 ? 2 : 3) samplen 2 width (s == 1 ? -1 : 0)
  plot 'live.csv' skip 1 using 1:($2 / U) with fillsteps fs solid 0.3 noborder lc rgb '#999999' title 'live bytes', \
       '' skip 1 using 1:($2 / U) with steps lc rgb '#555555' lw 0.8 notitle, \
       for [i=1:N] ARENA[i] / U with lines lc rgb col[i] dt dt[i] lw 1.5 title name[i]@REFKEY@
  unset multiplot; set output
}}
