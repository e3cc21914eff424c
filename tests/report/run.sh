#!/bin/bash
# run.sh — end-to-end test of `parlor replay` and `parlor report` (make test).
#
# Plays a small tournament (random against a small pimc on two-player
# Thirty-One, and a bot over the agent protocol that answers garbage after
# a few moves), then:
# - replays every game: each must print exactly the journal's number of
#   steps and the journal's returns, and say that it matches; the bot's
#   games replay up to its forfeit;
# - replays a game whose journal line was altered: it must fail loudly.
# Waits are for process exits only; `timeout` bounds hangs.
#
# Usage: tests/report/run.sh [PARLOR_BIN] (default build/parlor).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${1:-$repo/build/parlor}")
HANG=300 # seconds: anything longer is a hang
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "tests/report: FAIL: $*" >&2; exit 1; }

# A bot that plays the first legal action three times, then sends bytes
# that are not msgpack: it forfeits with its fourth move.
cat >"$tmp/garbage.py" <<'PY'
import os, zmq, zmq.auth, msgpack
# Connects as parlor tells a spawned bot to (protocol/PROTOCOL.md).
s = zmq.Context().socket(zmq.DEALER)
if os.environ.get('PARLOR_SERVER_KEY'):
    s.curve_serverkey = zmq.auth.load_certificate(
        os.environ['PARLOR_SERVER_KEY'])[0]
    s.curve_publickey, s.curve_secretkey = zmq.auth.load_certificate(
        os.environ['PARLOR_KEY'])
s.connect(os.environ['PARLOR_ENDPOINT'])
s.send(msgpack.packb({'v': 1, 'id': 0, 'type': 'hello', 'name': 'garbage',
                      'version': '0',
                      'secret': os.environ.get('PARLOR_SECRET', '')}))
moves = 0
while True:
    m = msgpack.unpackb(s.recv())
    if m['type'] == 'bye':
        break
    if m['type'] != 'act':
        continue
    moves += 1
    if moves > 3:
        s.send(b'\xc1 not msgpack')
    else:
        s.send(msgpack.packb({'v': 1, 'id': m['id'], 'type': 'action',
                              'action': m['legal'][0]}))
PY

timeout $HANG "$bin" tournament --game 'thirty_one(players=2)' \
    --agents "random,p=pimc(samples=2),bad=cmd:/usr/bin/python3 $tmp/garbage.py" \
    --deals 2 --jobs 1 --seed 5 --move-time 30 --out "$tmp/t" --quiet \
    >/dev/null || fail "the tournament failed"

# Prints "deal lineup rotation length forfeit returns..." per journal game.
games() {
    /usr/bin/python3 -c '
import json, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
for line in list(open(sys.argv[1]))[1:]:
    g = json.loads(line)
    print(g["deal"], g["lineup"], g["rotation"], g["length"],
          1 if g["end"] == "forfeit" else 0, *g["returns"])' "$1"
}

n=0 forfeits=0
while read -r deal lineup rotation length forfeit r0 r1; do
    out=$(timeout $HANG "$bin" replay "$tmp/t" "$deal" "$lineup" "$rotation") ||
        fail "replay $deal $lineup $rotation exited $?"
    steps=$(grep -cE '^seat [01] \((random|p|bad)\): ' <<<"$out" || true)
    [ "$steps" = "$length" ] ||
        fail "replay $deal $lineup $rotation printed $steps steps, journal $length"
    got=$(grep -E '^  seat [01] \(' <<<"$out" | sed 's/.*: //' | tr '\n' ' ')
    [ "$got" = "$r0 $r1 " ] ||
        fail "replay $deal $lineup $rotation ended with $got, journal $r0 $r1"
    grep -q '^replay matches the journal' <<<"$out" || fail "no match line"
    if [ "$forfeit" = 1 ]; then
        grep -q '^the recorded moves end here' <<<"$out" ||
            fail "forfeited game $deal $lineup $rotation: no end marker"
        forfeits=$((forfeits + 1))
    fi
    n=$((n + 1))
done < <(games "$tmp/t/journal.jsonl")
[ "$n" -eq 12 ] || fail "replayed $n games, want 12 (3 pairs x 2 deals x 2 seatings)"
[ "$forfeits" -eq 8 ] || fail "$forfeits forfeits, want 8 (the bad bot's games)"
echo "ok - replay: $n games replayed move for move, $forfeits up to a forfeit"

# An altered record (another length) must be refused loudly.
mkdir "$tmp/bad"
sed '2s/"length":\([0-9]*\)/"length":1\1/' "$tmp/t/journal.jsonl" >"$tmp/bad/journal.jsonl"
read -r deal lineup rotation _ < <(games "$tmp/bad/journal.jsonl")
if err=$(timeout $HANG "$bin" replay "$tmp/bad" "$deal" "$lineup" "$rotation" 2>&1 >/dev/null); then
    fail "an altered record replayed without complaint"
fi
grep -q MISMATCH <<<"$err" || fail "no MISMATCH message: $err"
echo "ok - replay: an altered record is refused"

# The report: written, self-contained, and in a real browser (headless
# Chromium) it loads without a console error and shows the numbers of
# `parlor rate --json`.
timeout $HANG "$bin" report "$tmp/t" >/dev/null || fail "parlor report failed"
page="$tmp/t/report.html"
[ -s "$page" ] || fail "no $page"
if grep -qiE '(src|href)="(https?:)?//' "$page"; then
    fail "the report loads something from elsewhere"
fi
timeout $HANG "$bin" rate --json "$tmp/t" >"$tmp/rate.json" || fail "parlor rate --json failed"

browser=$(command -v chromium || true)
if [ -z "$browser" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "tests/report: installing chromium (apt-get install -y chromium)"
    DEBIAN_FRONTEND=noninteractive timeout 1800 apt-get install -y chromium \
        >"$tmp/apt.log" 2>&1 || true
    browser=$(command -v chromium || true)
fi
if [ -z "$browser" ]; then
    echo "ok - report written # SKIP browser check: chromium is not installed (Debian: apt-get install chromium)"
    exit 0
fi
# --no-sandbox: the test may run as root, where Chromium's sandbox refuses.
timeout $HANG "$browser" --headless --no-sandbox --disable-gpu \
    --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
    --dump-dom "file://$page" >"$tmp/dom.html" 2>"$tmp/browser.log" ||
    fail "chromium failed: $(tail -5 "$tmp/browser.log")"
if grep -E 'CONSOLE|Uncaught' "$tmp/browser.log"; then
    fail "console messages while loading the report"
fi
/usr/bin/python3 - "$tmp/dom.html" "$tmp/rate.json" "$tmp/t/journal.jsonl" <<'PY' || fail "the page does not show parlor rate's numbers"
import json, re, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
from html.parser import HTMLParser

class Page(HTMLParser):
    """Cell texts of every table with an id, the text of every element
    with an id, and the summary and body of every <details> under the
    element with id games or forfeit-games."""
    def __init__(self):
        super().__init__()
        self.tables, self.texts, self.details = {}, {}, {}
        self.table, self.cell, self.open_ids = None, None, []
        self.section, self.detail, self.part = None, None, None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'table' and 'id' in a:
            self.table = self.tables.setdefault(a['id'], [])
        elif self.table is not None and tag == 'tr':
            self.table.append([])
        elif self.table is not None and tag in ('td', 'th'):
            self.cell = ''
        if 'id' in a:
            self.open_ids.append([tag, a['id'], ''])
            if a['id'] in ('games', 'forfeit-games'):
                self.section = self.details.setdefault(a['id'], [])
        if self.section is not None and tag == 'details':
            self.detail = {'summary': '', 'body': '', 'cmd': ''}
            self.section.append(self.detail)
        if self.detail is not None and tag == 'summary':
            self.part = 'summary'
        elif self.detail is not None and tag == 'pre':
            self.part = 'body'
        elif self.detail is not None and tag == 'code':
            self.part = 'cmd'
    def handle_endtag(self, tag):
        if tag == 'table':
            self.table = None
        elif self.table is not None and tag in ('td', 'th'):
            self.table[-1].append(self.cell)
            self.cell = None
        if tag in ('summary', 'pre', 'code'):
            self.part = None
        if tag == 'details':
            self.detail = None
        if self.open_ids and self.open_ids[-1][0] == tag:
            t, i, text = self.open_ids.pop()
            self.texts[i] = text
            if i in ('games', 'forfeit-games'):
                self.section = None
    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        for o in self.open_ids:
            o[2] += data
        if self.detail is not None and self.part:
            self.detail[self.part] += data

dom = open(sys.argv[1]).read()
p = Page()
p.feed(dom)
rate = json.load(open(sys.argv[2]))
journal = [json.loads(l) for l in open(sys.argv[3])]
header, games = journal[0], journal[1:]
fmt = lambda x: '%.1f' % x

# Settings: the tournament's numbers.
settings = p.texts['settings']
for want in ('%d deals' % rate['deals'], 'seed %d' % int(header['seed'], 16),
             '%d games in the schedule, %d played' % (header['games'],
                                                      rate['games'])):
    assert want in settings, (want, settings)

# Ratings: rank, agent, spec, elo, interval, games, forfeits.
rows = [r for r in p.tables['ratings'] if r and r[0] != 'rank']
assert len(rows) == len(rate['ratings']), (rows, rate['ratings'])
for row, a in zip(rows, rate['ratings']):
    assert row[0] == str(a['rank']) and row[1] == a['agent'], (row, a)
    assert row[2] == a['spec'], (row, a)
    assert row[3] == fmt(a['elo']), (row, a)
    assert row[4] == '[%s, %s]' % (fmt(a['lo']), fmt(a['hi'])), (row, a)
    assert int(row[5]) == a['games'] and int(row[6]) == a['forfeits'], (row, a)

# Crosstable: row's score / games against each column, and LOS.
table = p.tables['crosstable']
cols = table[0][1:]
by_name = {a['agent']: a for a in rate['ratings']}
assert sorted(cols) == sorted(by_name), cols
cells = 0
for row in table[1:]:
    a = by_name[row[0]]
    for col, cell in zip(cols, row[1:]):
        res = [x for x in a['results'] if x['opponent'] == col]
        if col == row[0] or not res:
            assert cell.strip() == '', (row[0], col, cell)
            continue
        want = '%s / %s' % (fmt(res[0]['score']), fmt(res[0]['games']))
        assert cell.startswith(want), (row[0], col, cell, want)
        assert 'LOS %.2f' % a['los'][col] in cell, (row[0], col, cell)
        cells += 1
assert cells == len(cols) * (len(cols) - 1), cells

# Forfeits: the count, and each forfeited game with its reason.
assert p.texts['forfeits'] == '%d of %d games ended by a forfeit.' % (
    rate['forfeits'], rate['games']), p.texts['forfeits']
ff = p.details.get('forfeit-games', [])
assert len(ff) == rate['forfeits'], len(ff)
assert all('; forfeit: seat ' in d['summary'] for d in ff), ff[:1]

# Games: every journal game, its length, and its moves replayed.
shown = p.details['games']
assert len(shown) == len(games), (len(shown), len(games))
names = [a['name'] for a in header['agents']]
for d, g in zip(shown, games):
    m = re.match(r'deal (\d+), line-up (\d+), rotation (\d+): .*; (\d+) steps',
                 d['summary'])
    assert ' %d:%d:%d' % (g['deal'], g['lineup'], g['rotation']) in d['cmd'], d
    assert m, d['summary']
    assert [int(x) for x in m.groups()] == [g['deal'], g['lineup'],
                                            g['rotation'], g['length']], (
        d['summary'], g)
    moves = d['body'].split('\n\n')[0]  # the moves, before the final state
    steps = len(re.findall(r'^seat \d+ \([^)]*\): ', moves, re.M))
    assert steps == g['length'], (d['summary'], steps)
assert dom.count('<svg') >= 3, 'plots missing'
print('ok - report in chromium: %d agents (elo %s), crosstable, %d forfeits, '
      '%d games with their replays, as parlor rate --json and the journal'
      % (len(rows), [r[3] for r in rows], len(ff), len(shown)))
PY
