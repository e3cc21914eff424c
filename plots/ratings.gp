# ratings.gp — Elo ratings with their 95% intervals, best agent on top.
#
# Reads ratings.tsv (written by `parlor plot`: rank agent elo lo hi games
# score forfeits, best first; an agent that forfeited is labelled with
# how often, so a broken bot does not pass for a weak one) and writes OUT.png and OUT.svg. Set with -e:
#   data    the TSV file          out    output path without extension
#   best    the title's verdict, e.g. "best: pimc" or "tied at the top: a, b"
#   top     agents sharing the top rating (1: a sole best)
#   game    the game spec         n      number of agents
#   games   games in the journal
#   anchor  what is rated 0, e.g. "random = 0"
#   xlo, xhi  the Elo axis
# A sole winner is named in the title, drawn larger and labelled "best",
# so the plot answers "who won?" on its own; exact ties name no winner.
# Each agent keeps its colour (by rank: line type 1 for the best) in
# every plot of a tournament.

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

ntop = top + 0
# The axis comes from parlor plot (xlo, xhi): at least 100 Elo wide, so
# equal ratings (a pure-chance game) get one; unbounded interval ends
# (inf in the table) are drawn to the axis' edge.
set xrange [xlo : xhi]
clip(v) = v < xlo ? xlo : v > xhi ? xhi : v
label(a, f, g) = column(f) > 0 ? \
    sprintf("%s\n%d of %d games forfeited", strcol(a), column(f), column(g)) : \
    strcol(a)

set title sprintf("Elo ratings (95%% CI) — %s\n%s, %s games; %s", \
                  best, game, games, anchor)
set xlabel "Elo (Bradley-Terry, 95% bootstrap intervals)"
set yrange [nrows + 0.6 : 0.4]
set ytics scale 0 nomirror
set xtics nomirror
set grid xtics lc rgb "#dddddd"
set key off
set border 3
set arrow 1 from 0, graph 0 to 0, graph 1 nohead dt 2 lc rgb "#888888"

plot data using ($1 > 1 || ntop != 1 ? $3 : NaN):1:(clip($4)):(clip($5)):1:\
         yticlabels(label(2, 8, 6)) skip 1 with xerrorbars pt 7 ps 1.2 lw 2 lc variable, \
     data using ($1 == 1 && ntop == 1 ? $3 : NaN):1:(clip($4)):(clip($5)):1 \
         skip 1 \
         with xerrorbars pt 7 ps 1.7 lw 4 lc variable, \
     data using ($1 == 1 && ntop == 1 ? clip($5) : NaN):1:("  best") skip 1 \
         with labels left font ",12", \
     data using 3:1:(sprintf("%.0f", $3)) skip 1 \
         with labels offset 0, 1 font ",9"

set terminal svg noenhanced size 1000, height font "sans,11" \
    background rgb "white"
set output out . ".svg"
replot
set output
