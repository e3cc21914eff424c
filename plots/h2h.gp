# h2h.gp — head-to-head matrix: each cell is the row agent's share of the
# points against the column agent (a win 1, a draw 1/2), written in with
# the number of pairwise results below it; agents by rank, best first (top
# row, left column).
#
# Reads h2h.tsv (written by `parlor plot`: row col agent opponent score
# games) and writes OUT.png and OUT.svg. Set with -e: data, out, best,
# game, n (agents), as ratings.gp.

set encoding utf8
set datafile separator "\t"
nrows = n + 0
side = 260 + 90 * nrows

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo noenhanced size side + 260, side font "sans,11"
} else {
    set terminal png noenhanced size side + 260, side
}
set output out . ".png"

set title sprintf("Head-to-head score, row against column — %s\n%s", \
                  best, game)
set xrange [0.5 : nrows + 0.5]
set yrange [nrows + 0.5 : 0.5]
set link x2
unset xtics
set x2tics scale 0 rotate by 30 left
set ytics scale 0
set cbrange [0:100]
set cblabel "row's score (%)"
set palette defined (0 "#b2182b", 50 "#f7f7f7", 100 "#2166ac")
set size ratio -1
set key off
set style fill solid 1.0 noborder
# The diagonal: an agent does not play itself.
do for [i=1:nrows] {
    set object i rect center i, i size 1, 1 fc rgb "#dddddd" fs solid \
        noborder back
}

plot data using 2:1:(0.5):(0.5):($5 * 100):x2ticlabels(4):yticlabels(3) \
         skip 1 with boxxyerror fc palette, \
     data using 2:1:(sprintf("%.1f%%\n(%d)", $5 * 100, $6)) skip 1 \
         with labels font ",10"

set terminal svg noenhanced size side + 260, side font "sans,11" \
    background rgb "white"
set output out . ".svg"
replot
set output
