# replay.gp — real allocators replaying the graph (bench --replay): each
# one's peak footprint in every frame, by its own statistics, on a log byte
# axis, against the best static arena of the selection and the lower bound.
# Data: replay.csv (row, frame, calls, footprint_peak, ...).
do for [S in SIZES] { do for [F in FORMATS] {
  s = S + 0
  eval setup(s, F)
  ttl = title_of(s, F)
  KC = s == 1 ? KC1 : KC2; KH = ceil(NK * 1.0 / KC) * (s == 1 ? 0.15 : 0.17)
  set datafile separator comma
  set multiplot title ttl
  if (ttl ne "") { set tmargin at screen 1 - sy(s, TOP(s) + 0.2) }
  set bmargin at screen sy(s, 0.42 + KH)
  set xlabel 'frame' offset 0, 0.4
  set label 1 sprintf('peak footprint (%s, log scale)', UNAME) at graph 0, graph 1 left offset 0, 0.8
  if (ttl eq '') { set tmargin 2 }
  set logscale y; set format y '%g'
  if (YMAX / YMIN < 100) { set ytics 2 }
  set yrange [YMIN / U / 1.6:YMAX / U * 1.6]
  set xrange [0.5:FRAMES + 0.5]
  set xtics nomirror; set ytics nomirror; set border 3
  set grid ytics lc rgb '#dddddd' lw 0.5
  set key off
  plot LB / U with lines lc rgb '#777777' dt 2 lw 1@BESTLINE@, \
       for [i=1:N] 'replay.csv' skip 1 using ($1 == i ? $2 : NaN):($4 > 0 ? $4 / U : NaN) \
           with linespoints lc rgb acol[i] dt adt[i] pt 7 ps (FRAMES > 30 ? 0 : 0.5) lw 1.5
  # The legend: a strip of its own below the axis, KC entries a row.
  unset xlabel; unset border; unset tics; unset grid; unset label; unset logscale
  set xrange [0:1]; set yrange [0:1]
  set lmargin at screen sx(s, 0.1); set rmargin at screen 1 - sx(s, 0.1)
  set bmargin at screen sy(s, 0.04); set tmargin at screen sy(s, 0.06 + KH)
  set key inside center center vertical Left reverse maxrows ceil(NK * 1.0 / KC) samplen 2 width 1
  plot NaN with lines lc rgb '#777777' dt 2 lw 1 title 'lower bound'@BESTKEY@, \
       for [i=1:N] NaN with linespoints lc rgb acol[i] dt adt[i] pt 7 ps 0.5 lw 1.5 title aname[i]
  unset multiplot; set output
}}
