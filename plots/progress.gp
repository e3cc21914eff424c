# progress.gp — ratings refitted as the deals accumulate, with bands for
# their 95% intervals: has the order settled?
#
# Reads progress.tsv (written by `parlor plot`: deals, then per agent, best
# first, its rating, interval low and high) and writes OUT.png and
# OUT.svg. Set with -e: data, out, best, game, n (agents), as ratings.gp.
# Agents are coloured by final rank, as in ratings.gp. ylo, yhi: the Elo
# axis.

set encoding utf8
set datafile separator "\t"
nrows = n + 0

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo noenhanced size 1100, 600 font "sans,11"
} else {
    set terminal png noenhanced size 1100, 600
}
set output out . ".png"

set title sprintf("Rating progression (95%% CI bands) — %s\n%s", \
                  best, game)
set xlabel "deals played"
# Deals are whole: no "1.5 deals" ticks on short runs.
stats data using 1 nooutput
if (STATS_max < 10) { set xtics 1 }
set format x "%.0f"
if (STATS_max == STATS_min) { set xrange [STATS_min - 1 : STATS_max + 1] }
# The Elo axis comes from parlor plot (ylo, yhi): room above and below,
# so the anchor's line at 0 does not hide in the frame, and a range even
# when every rating is 0.
set yrange [ylo : yhi]
clip(v) = v < ylo ? ylo : v > yhi ? yhi : v

set ylabel "Elo (Bradley-Terry)"
set key outside right top
set key autotitle columnheader
set grid lc rgb "#dddddd"
set style fill transparent solid 0.15 noborder

plot for [i=0:nrows-1] data using 1:(clip(column(3+3*i))):(clip(column(4+3*i))) \
         with filledcurves lc i+1 notitle, \
     for [i=0:nrows-1] data using 1:(column(2+3*i)) \
         with linespoints pt 7 lw 2 lc i+1 title columnheader(2+3*i)

set terminal svg noenhanced size 1100, 600 font "sans,11" \
    background rgb "white"
set output out . ".svg"
replot
set output
