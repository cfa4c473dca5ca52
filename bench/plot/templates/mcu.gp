# mcu.gp — the whole arena TensorFlow Lite Micro needs, per network (a
# group, its name above it) and planner (a bar): the plan's arena (solid
# blue), the scratch TFLM places beyond it (orange, hatched), TFLM's head
# (grey, cross-hatched), stacked in KiB; the SRAM of common parts are
# dashed vertical lines named at the top, so a grey print tells the parts
# apart by their fills and a reader sees which bar passes which line.
# Data: mcu-bars.csv (y, mid, scratch, head, whole; KiB).
do for [S in SIZES] { do for [F in FORMATS] {
  s = S + 0
  eval setup(s, F)
  ttl = title_of(s, F)
  KH = s == 1 ? 0.17 : 0.19
  set datafile separator comma
  set multiplot title ttl
  set tmargin at screen 1 - sy(s, (ttl ne "" ? TOP(s) : 0) + 0.45)
  set bmargin at screen sy(s, 0.42 + KH)
  set border 1; set key off
  set xlabel 'KiB' offset 0, 0.3
  set xrange [0:XMAX]
  set xtics 0, (s == 1 ? XSTEP1 : XSTEP2) nomirror out scale 0.5
  set format x '%g'
  set yrange [YMAX + 0.4:0.4]
  set ytics scale 0 @YTICS@
  set grid xtics lc rgb '#dddddd' lw 0.5
  @GROUPS@
  do for [k=1:NSRAM] {
    if (SRAM[k] <= XMAX) {
      set arrow 10 + k from first SRAM[k], graph 0 to first SRAM[k], graph 1 nohead dt 2 lw 1 lc rgb '#333333' back
      set label 20 + k SRAMN[k] at first SRAM[k], graph 1 center offset 0, 0.6 + (k - 1) % 3 tc rgb '#333333'
    }
  }
  plot 'mcu-bars.csv' skip 1 using ($2 / 2):1:($2 / 2):(0.38) \
         with boxxyerror fs solid 0.9 border lc rgb 'black' lc rgb '#0072B2' notitle, \
       '' skip 1 using ($2 + $3 / 2):1:($3 / 2):(0.38) \
         with boxxyerror fs pattern 2 border lc rgb 'black' lc rgb '#D55E00' notitle, \
       '' skip 1 using ($2 + $3 + $4 / 2):1:($4 / 2):(0.38) \
         with boxxyerror fs pattern 4 border lc rgb 'black' lc rgb '#555555' notitle
  # The legend: a strip of its own below the axis.
  unset xlabel; unset border; unset tics; unset grid; unset arrow; unset label
  set xrange [0:1]; set yrange [0:1]
  set lmargin at screen sx(s, 0.1); set rmargin at screen 1 - sx(s, 0.1)
  set bmargin at screen sy(s, 0.04); set tmargin at screen sy(s, 0.06 + KH)
  set key inside center center horizontal Left reverse samplen 2.5 width 1
  plot NaN with boxes fs solid 0.9 border lc rgb 'black' lc rgb '#0072B2' title "plan's arena", \
       NaN with boxes fs pattern 2 border lc rgb 'black' lc rgb '#D55E00' title 'scratch by TFLM', \
       NaN with boxes fs pattern 4 border lc rgb 'black' lc rgb '#555555' title "TFLM's head", \
       NaN with lines dt 2 lw 1 lc rgb '#333333' title 'SRAM'
  unset multiplot; set output
}}
