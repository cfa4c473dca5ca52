# quality.gp — arena / lower bound (or / best proven bound) across graphs,
# a horizontal box per planner: box from the first to the third quartile,
# a bar at the median, whiskers to the furthest ratio within 1.5 IQR (the
# quartiles are computed by bench plot, in the arrays above), every graph's
# ratio a small circle; a result that stopped at its search budget is a
# cross. Only graphs on which every planner shown has a valid result count
# (paired): see the caption above. A planner valid on fewer graphs than the
# others is left out and named, with its count, in the foot (FOOT).
# Points past the axis are not drawn, nor those of a planner drawn as an
# arrow (its median stands for them).
# Data: DATA, quality.csv (row, ratio, limit, ...); fixed.csv draws with it
# (arena / fixed-order bound, which may be below XMIN's 1).
do for [S in SIZES] { do for [F in FORMATS] {
  s = S + 0
  eval setup(s, F)
  ttl = title_of(s, F)
  set datafile separator comma
  set multiplot title ttl
  if (ttl ne "") { set tmargin at screen 1 - sy(s, TOP(s)) }
  set key off; set border 1
  set xlabel XLABEL offset 0, 0.4
  set xtics nomirror out scale 0.5
  if (LOGX) { set logscale x; set xrange [XMIN * 0.97:QMAX * 1.25]; eval 'set xtics ' . (s == 1 ? LOGTICS1 : LOGTICS2) } \
  else { set xrange [RLO:RHI]; xstep = s == 1 ? XSTEP1 : XSTEP2; set xtics xstep }
  set grid xtics lc rgb '#dddddd' lw 0.5
  set arrow 1000 from first 1, graph 0 to first 1, graph 1 nohead dt 2 lc rgb '#333333' lw 0.8 back
  fn = s == 1 ? FN1 : FN2
  do for [i=1:fn] { ft = s == 1 ? FOOT1[i] : FOOT2[i]; set label 10000 + i ft at screen sx(s, 0.1), screen sy(s, FOOTY(s, fn - i)) left }
  set origin 0, sy(s, FOOTH(s)); set size 1, 1 - sy(s, FOOTH(s))
  set yrange [N + 0.6:0.4]
  set ytics scale 0 @YTICS@
  h = 0.3
  # A planner whose median lies past the axis (CUT: --range, or the band
  # bench plot chose) is an arrow at its right end with its median; a
  # whisker past it ends in an arrowhead there.
  do for [i=1:N] {
    if (CUT && OFF[i]) {
      set arrow 4 * i from graph 0.86, first i to graph 1, first i head filled size char 0.8, 25 lc rgb col[i] lw 2
      set label 4 * i sprintf('%.3g', MED[i]) at graph 0.85, first i right
    } else {
      set object i rect from Q1[i], i - h to (CUT ? (Q3[i] < RHI ? Q3[i] : RHI) : Q3[i]), i + h fc rgb col[i] fs solid 0.6 border lc rgb 'black' lw 0.8 back
      set arrow 4 * i from LO[i], i to Q1[i], i nohead lc rgb 'black' lw 0.8
      if (CUT && CUTHI[i]) {
        set arrow 4 * i + 1 from (Q3[i] < RHI ? Q3[i] : RHI), i to RHI, i head filled size char 0.6, 25 lc rgb 'black' lw 0.8
      } else {
        set arrow 4 * i + 1 from Q3[i], i to HI[i], i nohead lc rgb 'black' lw 0.8
        set arrow 4 * i + 500 from HI[i], i - 0.1 to HI[i], i + 0.1 nohead lc rgb 'black' lw 0.8
      }
      set arrow 4 * i + 2 from MED[i], i - h to MED[i], i + h nohead lc rgb 'black' lw 2
      set arrow 4 * i + 3 from LO[i], i - 0.1 to LO[i], i + 0.1 nohead lc rgb 'black' lw 0.8
    }
  }
  plot DATA skip 1 using ($3 == 1 || OFF[int($1)] ? NaN : $2):1 with points pt 6 ps 0.45 lc rgb '#222222', \
       '' skip 1 using ($3 == 1 && !OFF[int($1)] ? $2 : NaN):1 with points pt 2 ps 0.7 lc rgb '#D55E00'
  unset multiplot; set output
}}
