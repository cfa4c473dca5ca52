# common.gp — page set-up shared by every figure of bench plot.
# One column is 3.3 in wide, two columns 7 in; every text is set in one
# font size, 7 pt at one column and 8 pt at two (no text is smaller), the
# same points in PDF, SVG (72 units an inch) and PNG (dpi / 72 pixels a point).
# The cairo terminals draw a font of size F at F x fontscale x 4/3 points
# (pixels at 96 dpi), so fontscale 0.75 sets PDF text at exactly F points
# and dpi / 96 sets PNG text at F points of its dpi; the SVG terminal
# writes font-size F in a page of 72 units an inch. No text is rotated.
# Every format names the figure's configuration and selection (suite,
# graphs or the graph, runs) at the top, on one line or two (CONF1, CONF2;
# TL1, TL2 count them with the title); the PNG puts its title (for a
# README) above them. The long
# caption is NAME.caption.tex's (papers caption their figures).
W(s) = s == 1 ? 3.3 : 7.0
Ht(s) = s == 1 ? H1 : H2
FS(s) = s == 1 ? 7 : 8
term(s, f) = f eq 'png' ? \
    sprintf("set terminal pngcairo size %d,%d noenhanced font 'DejaVu Sans,%d' fontscale %.4f linewidth %.4f pointscale %.4f", \
            int(W(s) * dpi + 0.5), int(Ht(s) * dpi + 0.5), FS(s), dpi / 96.0, dpi / 72.0, dpi / 72.0) : \
  f eq 'pdf' ? \
    sprintf("set terminal pdfcairo size %gin,%gin noenhanced font 'DejaVu Sans,%d' fontscale 0.75", W(s), Ht(s), FS(s)) : \
    sprintf("set terminal svg size %d,%d noenhanced font 'DejaVu Sans,%d' background 'white'", \
            int(W(s) * 72 + 0.5), int(Ht(s) * 72 + 0.5), FS(s))
setup(s, f) = 'reset; ' . term(s, f) . sprintf("; set output '%s-%dcol.%s'", NAME, s, f)
title_of(s, f) = (f eq 'png' ? TITLE . "\n" : '') . (s == 1 ? CONF1 : CONF2)
# Byte units (U) are written as floats: gnuplot divides integers as integers.
# Inches as a fraction of the page, across and up.
sx(s, inch) = inch / W(s)
sy(s, inch) = inch / Ht(s)
# Inches the title takes at the top (TL1, TL2: the PNG's lines at each size;
# PDF and SVG one less, the configuration's and selection's alone) in format F.
TOP(s) = ((s == 1 ? TL1 : TL2) - (F eq 'png' ? 0 : 1)) * FS(s) * 1.2 / 72 + 0.1
# A figure's foot (bench plot's FOOT1/FOOT2, FN1/FN2 lines): what a reader
# must see in PDF and SVG too, at the bottom left; FOOTH(s) inches it takes,
# FOOTY(s, k) the middle of its k-th line from the bottom (0 first).
LH(s) = FS(s) * 1.25 / 72
FOOTH(s) = (s == 1 ? FN1 : FN2) == 0 ? 0 : (s == 1 ? FN1 : FN2) * LH(s) + 0.1
FOOTY(s, k) = 0.06 + (k + 0.5) * LH(s)
