# curve.gp — a training run's learning curve: the learner's mean return
# per update against env steps, with the built-in bots' levels against
# random as reference lines.
#
# Reads curve.tsv (written by train.py: env_steps phase opponent
# mean_return episodes wall_s) and levels.tsv (written by run.py: agent
# mean_return games, each bot's mean return playing random) and writes
# OUT.png and OUT.svg. Set with -e:
#   data    curve.tsv        levels  levels.tsv
#   out     output path without extension
#   game    the game spec

set encoding utf8
set datafile separator "\t"

stats data using 1 skip 1 nooutput
xmax = STATS_max

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo noenhanced size 1000, 560 font "sans,11"
} else {
    set terminal png noenhanced size 1000, 560
}
set output out . ".png"

set title sprintf("Learning curve (PPO, masked actions) — %s\n" . \
                  "mean return of the episodes ended in each update; " . \
                  "dashed: each bot's level against random", game)
set xlabel "env steps"
set ylabel "mean return per episode"
set xrange [0 : xmax * 1.25]
set grid lc rgb "#dddddd"
set key outside below horizontal

plot data using 1:(strcol(3) eq "self" ? $4 : NaN) skip 1 \
         with points pt 6 ps 0.6 lc rgb "#aaaaaa" \
         title "learner against its past selves (self-play)", \
     data using 1:(strcol(3) eq "random" ? $4 : NaN) skip 1 \
         with linespoints pt 7 ps 0.6 lw 2 lc rgb "#4a6fa5" \
         title "learner against random", \
     data using 1:(strcol(3) ne "random" && strcol(3) ne "self" ? $4 : NaN) \
         skip 1 with linespoints pt 5 ps 0.6 lw 2 lc rgb "#2e8b57" \
         title "learner against a built-in bot (training opponent)", \
     levels using (0):2:(xmax):(0) skip 1 with vectors nohead dt 2 lw 2 \
         lc rgb "#c0392b" title "built-in bot against random", \
     levels using (xmax):2:(sprintf(" %s vs random", strcol(1))) skip 1 \
         with labels left offset 0.5, 0 tc rgb "#c0392b" notitle

set terminal svg noenhanced size 1000, 560 font "sans,11" \
    background rgb "white"
set output out . ".svg"
replot
set output
