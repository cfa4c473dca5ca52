# replay.gp — real allocators replaying the graph (bench --replay): each
# one's peak footprint in every frame, by its own statistics, on a log byte
# axis, against the best static arena of the selection and the lower bound.
# Data: replay.csv (row, frame, calls, footprint_peak, ...).
do for [S in SIZES] { do for [F in FORMATS] {
  s = S + 0
  eval setup(s, F)
  ttl = title_of(s, F)
  set datafile separator comma
  set multiplot title ttl
  if (ttl ne "") { set tmargin at screen 1 - sy(s, TOP(s) + 0.2) }
  set xlabel 'frame' offset 0, 0.4
  set label 1 sprintf('peak footprint (%s, log scale)', UNAME) at graph 0, graph 1 left offset 0, 0.8
  if (ttl eq '') { set tmargin 2 }
  set logscale y; set format y '%g'
  if (YMAX / YMIN < 100) { set ytics 2 }
  set yrange [YMIN / U / 1.6:YMAX / U * 1.6]
  set xrange [0.5:FRAMES + 0.5]
  set xtics nomirror; set ytics nomirror; set border 3
  set grid ytics lc rgb '#dddddd' lw 0.5
  set key below horizontal Left reverse maxcols (s == 1 ? 2 : 3) samplen 2
  plot LB / U with lines lc rgb '#777777' dt 2 lw 1 title 'lower bound'@BESTKEY@, \
       for [i=1:N] 'replay.csv' skip 1 using ($1 == i ? $2 : NaN):($4 > 0 ? $4 / U : NaN) \
           with linespoints lc rgb acol[i] dt adt[i] pt 7 ps (FRAMES > 30 ? 0 : 0.5) lw 1.5 title aname[i]
  unset multiplot; set output
}}
