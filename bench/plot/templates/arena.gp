# arena.gp — arena per planner: a horizontal bar each (names stay readable),
# the lower bound, naive bytes and the best proven figure as vertical lines
# named in the legend. A graph planned in its best execution order (bench
# --order best) names its lower bound so, and when the order search stopped
# at its budget draws its proven best-order bound too (OB; 0 otherwise). A plan that stopped at its search budget is hatched
# and its name says "(limit)"; a failed or invalid plan has no bar.
# Data: arena.csv (row, ok, limit, arena_bytes, ...; names in ytics below).
# The text plots give every row a point and an empty text where nothing is to
# be said: gnuplot 5.4.4 crashes (SIGSEGV) on a `with labels` plot whose only
# row is undefined (one planner shown, say).
do for [S in SIZES] { do for [F in FORMATS] {
  s = S + 0
  eval setup(s, F)
  ttl = title_of(s, F)
  KC = s == 1 ? KC1 : KC2; KH = ceil(NK * 1.0 / KC) * (s == 1 ? 0.15 : 0.17)
  set datafile separator comma
  set multiplot title ttl
  if (ttl ne "") { set tmargin at screen 1 - sy(s, TOP(s)) }
  set bmargin at screen sy(s, 0.42 + KH)
  set border 1; set key off
  set xlabel sprintf('arena (%s)', UNAME) offset 0, 0.3
  set xrange [0:XMAX / U * (s == 1 ? 1.04 : 1.5)]
  set xtics 0, (s == 1 ? XSTEP1 : XSTEP2) nomirror out scale 0.5
  set format x '%g'
  set yrange [N + 0.6:0.4]
  set ytics scale 0 @YTICS@
  set grid xtics lc rgb '#dddddd' lw 0.5
  set style fill solid 0.9 border lc rgb 'black'
  set arrow 1 from first LB / U, graph 0 to first LB / U, graph 1 nohead dt 2 lw 1 lc rgb '#333333' back
  set arrow 2 from first NAIVE / U, graph 0 to first NAIVE / U, graph 1 nohead dt 3 lw 1 lc rgb '#333333' back
  if (OB > 0) { set arrow 4 from first OB / U, graph 0 to first OB / U, graph 1 nohead dt 5 lw 1 lc rgb '#333333' back }
  if (REF > 0) { set arrow 3 from first REF / U, graph 0 to first REF / U, graph 1 nohead dt 4 lw 1.2 lc rgb '#000000' back }
  plot 'arena.csv' skip 1 using ($2 == 1 ? $4 / 2 / U : NaN):1:($4 / 2 / U):(0.32):(col[int($1)]) with boxxyerror lc rgb variable notitle, \
       '' skip 1 using ($2 == 1 && $3 == 1 ? $4 / 2 / U : NaN):1:($4 / 2 / U):(0.32) with boxxyerror fs pattern 4 transparent lc rgb 'white' notitle, \
       '' skip 1 using (0):1:($2 == 1 ? '' : 'failed or invalid') with labels left offset 0.5,0 notitle, \
       '' skip 1 using ($2 == 1 ? $4 / U : 0):1:(s == 2 && $2 == 1 ? sprintf('%.3g %s  x%.3f', $4 / U, UNAME, $7) : '') with labels left offset 0.5,0 notitle
  # The legend: a strip of its own below the axis, KC entries a row.
  unset xlabel; unset border; unset tics; unset grid; unset arrow
  set xrange [0:1]; set yrange [0:1]
  set lmargin at screen sx(s, 0.1); set rmargin at screen 1 - sx(s, 0.1)
  set bmargin at screen sy(s, 0.04); set tmargin at screen sy(s, 0.06 + KH)
  set key inside center center vertical Left reverse maxrows ceil(NK * 1.0 / KC) samplen 2.5 width 1
  plot NaN with lines dt 2 lw 1 lc rgb '#333333' title LBTITLE, \
       NaN with lines dt 3 lw 1 lc rgb '#333333' title 'naive'@REFKEY@@OBKEY@
  unset multiplot; set output
}}
