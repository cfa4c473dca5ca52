# layout.gp — memory layout of each plan: a panel per planner, a rectangle
# per tensor over steps [first, last+1) and bytes [offset, offset+size).
# Each panel has its own byte scale (a common one would flatten every good
# plan under naive's), ticked with its unit; the lower bound is dashed, the
# best proven figure dash-dotted. bench plot lays the panels out (above:
# per size Cs columns, NPSs panels shown, margins Ls, Rs, Bs and gaps GXs,
# GYs in inches) and picks the tics so that their labels fit (XSTEPs, YTs).
# Data: layout.csv (panel, tensor, size, first, last, offset, x, dx, y, dy,
# ...: the rectangle's centre and half sizes, in steps and in the panel's
# unit U[i]); panel i is rows ROW0[i] to ROW1[i]. The plans a size has no
# room for are named in its foot (FOOT, common.gp's FOOTY), under the panels.
do for [S in SIZES] { do for [F in FORMATS] {
  s = S + 0
  eval setup(s, F)
  ttl = title_of(s, F)
  C = s == 1 ? C1 : C2; NPS = s == 1 ? NPS1 : NPS2; R = ceil(NPS * 1.0 / C)
  L = sx(s, s == 1 ? L1 : L2); Rr = 1 - sx(s, s == 1 ? R1 : R2)
  B = sy(s, s == 1 ? B1 : B2); T = 1 - sy(s, ttl eq "" ? 0.06 : TOP(s))
  gx = sx(s, s == 1 ? GX1 : GX2); gy = sy(s, s == 1 ? GY1 : GY2)
  pw = (Rr - L - (C - 1) * gx) / C; ph = (T - B - (R - 1) * gy) / R
  set datafile separator comma
  set multiplot title ttl
  set xrange [0:STEPS]; set key off
  set xtics 0, (s == 1 ? XSTEP1 : XSTEP2) nomirror out scale 0.5
  set style fill solid 0.8 border lc rgb '#222222'
  set format x '%g'; set border 3
  fn = s == 1 ? FN1 : FN2
  do for [k=1:fn] { ft = s == 1 ? FOOT1[k] : FOOT2[k]; set label 10000 + k ft at screen sx(s, 0.1), screen sy(s, FOOTY(s, fn - k)) left }
  do for [i=1:NPS] {
    cx = (i - 1) % C; ry = (i - 1) / C
    set yrange [0:(s == 1 ? YMAX1[i] : YMAX2[i])]
    eval 'set ytics nomirror out scale 0.5 ' . (s == 1 ? YT1[i] : YT2[i])
    set lmargin at screen L + cx * (pw + gx); set rmargin at screen L + cx * (pw + gx) + pw
    set tmargin at screen T - ry * (ph + gy) - sy(s, 0.14); set bmargin at screen T - ry * (ph + gy) - ph
    if (i + C > NPS) { set format x '%g'; set xlabel 'step' } else { set format x ''; unset xlabel }
    set label 1 (s == 1 ? LT1[i] : LT2[i]) at graph 1, graph 1 right offset 0, 0.7
    set arrow 1 from 0, LB / U[i] to STEPS, LB / U[i] nohead dt 2 lc rgb '#333333' lw 0.8 front
    if (REF > 0 && REF != LB) { set arrow 2 from 0, REF / U[i] to STEPS, REF / U[i] nohead dt 4 lc rgb '#000000' lw 0.8 front }
    plot 'layout.csv' skip 1 every ::ROW0[i]::ROW1[i] using 7:9:8:10 with boxxyerror lw 0.2 fc rgb col[i]
    do for [k=1:fn] { unset label 10000 + k }
  }
  unset multiplot; set output
}}
