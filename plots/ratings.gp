# ratings.gp — Elo ratings with their 95% intervals, best agent on top.
#
# Reads ratings.tsv (written by `parlor plot`: rank agent elo lo hi games
# score, best first) and writes OUT.png and OUT.svg. Set with -e:
#   data    the TSV file          out    output path without extension
#   best    the best agent        game   the game spec
#   n       number of agents      games  games in the journal
#   anchor  what is rated 0, e.g. "random = 0"
# The winner is named in the title, drawn in its own colour and labelled
# "best", so the plot answers "who won?" on its own.

set encoding utf8
set datafile separator "\t"
nrows = n + 0
height = 170 + 48 * nrows

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo noenhanced size 1000, height font "sans,11"
} else {
    set terminal png noenhanced size 1000, height
}
set output out . ".png"

set title sprintf("Elo ratings (95%% CI) — best: %s\n%s, %s games; %s", \
                  best, game, games, anchor)
set xlabel "Elo (Bradley-Terry, 95% bootstrap intervals)"
set yrange [nrows + 0.6 : 0.4]
set ytics scale 0 nomirror
set xtics nomirror
set grid xtics lc rgb "#dddddd"
set key off
set offsets graph 0.12, graph 0.22, 0, 0
set border 3
set arrow 1 from 0, graph 0 to 0, graph 1 nohead dt 2 lc rgb "#888888"

plot data using ($1 > 1 ? $3 : NaN):1:4:5:yticlabels(2) skip 1 \
         with xerrorbars pt 7 ps 1.2 lw 2 lc rgb "#4a6fa5", \
     data using ($1 == 1 ? $3 : NaN):1:4:5 skip 1 \
         with xerrorbars pt 7 ps 1.6 lw 3 lc rgb "#c0392b", \
     data using ($1 == 1 ? $5 : NaN):1:("  best") skip 1 \
         with labels left tc rgb "#c0392b" font ",12", \
     data using 3:1:(sprintf("%.0f", $3)) skip 1 \
         with labels offset 0, 1 font ",9"

set terminal svg noenhanced size 1000, height font "sans,11" \
    background rgb "white"
set output out . ".svg"
replot
set output
