# live.gp — bytes live at each step (grey), against the arenas of the K
# best plans (K1 at one column, K2 at two; smallest arena first), a line
# each with its own dash and points, the points of each line set apart
# from the others' so that lines of equal arenas can all be seen. The
# legend has a strip of its own below the plot, KC columns of a fixed
# number of rows (gnuplot's own key below, or maxcols alone, falls back to
# one column, which ran off the strip); below it, the plans not drawn, with
# their arenas (RESTs lines). The byte ticks carry their unit.
# Data: live.csv (step, live_bytes, live: the same in unit U); the arenas
# are in the arrays above.
do for [S in SIZES] { do for [F in FORMATS] {
  s = S + 0
  eval setup(s, F)
  ttl = title_of(s, F)
  KN = s == 1 ? K1 : K2; KC = s == 1 ? KC1 : KC2; NK = KN + 1 + (REF > 0 ? 1 : 0)
  RN = s == 1 ? REST1N : REST2N; LH = (s == 1 ? 7 : 8) * 1.2 / 72
  KH = ceil(NK * 1.0 / KC) * (s == 1 ? 0.15 : 0.17); RH = RN * LH + (RN > 0 ? 0.04 : 0)
  M = 6
  set datafile separator comma
  set multiplot title ttl
  set lmargin at screen sx(s, s == 1 ? 0.62 : 0.8); set rmargin at screen 1 - sx(s, 0.15)
  set bmargin at screen sy(s, 0.45 + KH + RH); set tmargin at screen 1 - sy(s, ttl eq "" ? 0.1 : TOP(s))
  set xlabel 'step' offset 0, 0.4
  set xrange [0:STEPS]; set yrange [0:(s == 1 ? YMAX1 : YMAX2)]
  set xtics nomirror; set border 3
  eval 'set ytics nomirror ' . (s == 1 ? YT1 : YT2)
  set grid ytics lc rgb '#dddddd' lw 0.5
  set key off
  plot 'live.csv' skip 1 using 1:3 with fillsteps fs solid 0.3 noborder lc rgb '#999999', \
       '' skip 1 using 1:3 with steps lc rgb '#555555' lw 0.8, \
       for [i=1:KN] ARENA[i] / U with lines lc rgb col[i] dt dt[i] lw 1.5, \
       for [i=1:KN] [j=0:M - 1:1] '+' using ((j + (i - 0.5) / KN) * STEPS / M):(ARENA[i] / U) \
           with points lc rgb col[i] pt pt[i] ps 0.75@REFLINE@
  unset xlabel; unset border; unset tics; unset grid
  set xrange [0:1]; set yrange [0:1]
  set lmargin at screen sx(s, 0.1); set rmargin at screen 1 - sx(s, 0.1)
  set bmargin at screen sy(s, 0.06 + RH); set tmargin at screen sy(s, 0.08 + KH + RH)
  do for [j=1:RN] {
    eval sprintf("set label %d (s == 1 ? REST1[%d] : REST2[%d]) at screen sx(s, 0.1), screen sy(s, 0.06 + RH - (%d - 0.5) * LH) left", 10 + j, j, j, j)
  }
  set key inside center center vertical Left reverse maxrows ceil(NK * 1.0 / KC) samplen 3 width (s == 1 ? -2 : 0)
  plot NaN with boxes fs solid 0.3 noborder lc rgb '#999999' title 'live bytes', \
       for [i=1:KN] NaN with linespoints lc rgb col[i] dt dt[i] pt pt[i] ps 0.75 lw 1.5 title name[i]@REFKEY@
  unset multiplot; set output
}}
