# configs.gp — the configurations of the problem side by side: per planner a
# group of horizontal bars, one per configuration it ran in (colour and fill
# by configuration, so a grey print tells them apart), each at the geometric
# mean of arena / the plain fixed-order bound (the graph untransformed) over
# the same graphs; a configuration's proven optimum is a black diamond on
# its bars; 1 (the plain fixed-order bound) is a dashed line.
# Data: configs-bars.csv (y, config, ratio, optimum, limit, names last).
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
  set xlabel 'arena / plain fixed-order bound' offset 0, 0.3
  set xrange [0:XMAX * (s == 1 ? 1.3 : 1.2)]
  set xtics 0, (s == 1 ? XSTEP1 : XSTEP2) nomirror out scale 0.5
  set format x '%g'
  set yrange [YMAX + 0.6:0.4]
  set ytics scale 0 @YTICS@
  set grid xtics lc rgb '#dddddd' lw 0.5
  set arrow 1 from first 1, graph 0 to first 1, graph 1 nohead dt 2 lw 1 lc rgb '#333333' back
  plot for [k=1:NC] 'configs-bars.csv' skip 1 using ($2 == k && CPAT[k] == 0 ? $3 / 2 : NaN):1:($3 / 2):(0.4) \
         with boxxyerror fs solid 0.9 border lc rgb 'black' lc rgb CCOL[k] notitle, \
       for [k=1:NC] '' skip 1 using ($2 == k && CPAT[k] > 0 ? $3 / 2 : NaN):1:($3 / 2):(0.4) \
         with boxxyerror fs pattern CPAT[k] border lc rgb 'black' lc rgb CCOL[k] notitle, \
       '' skip 1 using 4:1 with points pt 13 ps (s == 1 ? 0.6 : 0.8) lc rgb 'black' notitle, \
       '' skip 1 using 3:1:(sprintf('%.3f%s', $3, $5 > 0 ? ' (limit)' : '')) with labels left offset 1.2,0 notitle
  # The legend: a strip of its own below the axis, KC entries a row.
  unset xlabel; unset border; unset tics; unset grid; unset arrow
  set xrange [0:1]; set yrange [0:1]
  set lmargin at screen sx(s, 0.1); set rmargin at screen 1 - sx(s, 0.1)
  set bmargin at screen sy(s, 0.04); set tmargin at screen sy(s, 0.06 + KH)
  set key inside center center vertical Left reverse maxrows ceil(NK * 1.0 / KC) samplen 2.5 width 1
  plot for [k=1:NC] NaN with boxes fs solid 0.9 border lc rgb 'black' lc rgb CCOL[k] title (CPAT[k] == 0 ? CNAME[k] : ''), \
       for [k=1:NC] NaN with boxes fs pattern CPAT[k] border lc rgb 'black' lc rgb CCOL[k] title (CPAT[k] > 0 ? CNAME[k] : ''), \
       NaN with points pt 13 lc rgb 'black' title 'proven optimum', \
       NaN with lines dt 2 lw 1 lc rgb '#333333' title 'plain fixed-order bound'
  unset multiplot; set output
}}
