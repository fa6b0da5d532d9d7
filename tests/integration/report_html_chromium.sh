#!/usr/bin/env bash
# perfzero report's HTML page opened in a real headless Chromium with no network: it renders, its
# tables and charts are in the DOM Chromium built, a click-sort works, it loads nothing from
# anywhere, and screenshots at two widths (1400 and 700 px) are kept beside the report for a person
# to look at (issue 19, item 7: overlapping headers, clipped labels, colliding scatter labels).
# Exit 77 (skipped) when Chromium is not installed, except with CI=true, where that fails.
set -euo pipefail
perfzero=$1 source_dir=$2 work=$3
chromium=$(command -v chromium || true)
if [ -z "$chromium" ]; then
  echo "chromium is not installed (scripts/install-deps.sh installs it)"
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
# A rate the command reports, spread by the trial number (+-8%), so that intervals are real; and
# one that every shape reports exactly alike, so that only the price tells them apart.
cat >"$work/rates.yaml" <<'EOF'
methods:
  - name: work.points
    command: [/bin/sh, -c, 'awk -v r="$RATE" -v t="$PERFZERO_TRIAL" "BEGIN{printf \"{\\\"metrics\\\":[{\\\"name\\\":\\\"points_per_second\\\",\\\"value\\\":%.1f,\\\"unit\\\":\\\"points/s\\\"}]}\", r*(1+0.08*((t*3)%5-2)/2)}" > "$PERFZERO_RESULT_FILE"']
  - name: work.same_everywhere
    command: [/bin/sh, -c, 'echo "{\"metrics\":[{\"name\":\"items_per_second\",\"value\":1000,\"unit\":\"items/s\"}]}" > "$PERFZERO_RESULT_FILE"']
EOF
# One machine, labelled as six shapes (long OCI names included); one is clearly faster on work.points:
# twice the rest, past the default between-run noise (25%) that one run per shape is compared beyond.
for shape_rate in c7i.large:4.44e8 c7g.large:4.5e8 VM.Standard.E4.Flex:4.3e8 VM.Standard.E5.Flex:9.0e8 \
                  my-laptop:2.0e8 n2-standard-8:4.4e8; do
  shape=${shape_rate%%:*}
  RATE=${shape_rate#*:} "$perfzero" --config "$work/rates.yaml" --benchmark_num_trials=5 --instance_type="$shape" \
    --output_dir "$work/runs/$shape-rates" >/dev/null
  "$perfzero" --benchmark_methods=sanity.Sanity.benchmark_noop,sanity.Sanity.benchmark_sleep \
    --benchmark_num_trials=3 --instance_type="$shape" --output_dir "$work/runs/$shape" >/dev/null
done
"$perfzero" --benchmark_methods=sanity.Sanity.benchmark_crash --instance_type=c7g.large \
  --output_dir "$work/runs/crash" >/dev/null || true
# The rates are synthetic: whatever a busy test machine flagged is cleared, then one trial the
# host_busy sampler would have flagged is planted: left out of every figure, and said so.
for journal in "$work"/runs/*/journal.ndjson; do
  sed -i 's/"flags":\["[a-z_",]*"\]/"flags":[]/g' "$journal"
done
sed -i '0,/"flags":\[\]/s//"flags":["host_busy"]/' "$work/runs/c7i.large-rates/journal.ndjson"
"$perfzero" report "$work/runs" --catalog "$source_dir/infra/pricing/catalog.yaml" --out "$work/report" \
  --baseline c7i.large --today 2026-11-22 2>"$work/report.log"
page=$work/report/report.html

# Nothing on the page may come from elsewhere: no script, stylesheet, image, font or frame source.
if grep -Eio '<script[^>]*src|<link|<img|<iframe|@import|url\(|src=' "$page"; then
  echo "FAIL: the page refers to an outside resource"; exit 1
fi
[ "$(grep -o '<script' "$page" | wc -l)" = 1 ] || { echo "FAIL: the page holds a script besides its own"; exit 1; }
grep -qF "Content-Security-Policy" "$page" || { echo "FAIL: the page sets no Content-Security-Policy"; exit 1; }

flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --disable-extensions --proxy-server=127.0.0.1:9
       --user-data-dir="$work/profile" --hide-scrollbars)
timeout 120 "$chromium" "${flags[@]}" --dump-dom "file://$page" >"$work/dom.html" 2>"$work/chromium-dom.log"
for needle in 'class="heatmap"' 'class="bars"' 'class="scatter"' 'id="configurations"' 'class="front"' \
              'c7i.large' 'my-laptop' 'crashed 1/1' 'system info' 'class="tag fast"' 'class="tag cheap"' \
              'class="tag tie"' '1 of 5 trials host busy, left out' 'not the catalog' 'class="tick"' \
              'M points/s' 'tie: '; do
  grep -qF -- "$needle" "$work/dom.html" || { echo "FAIL: the rendered page lacks $needle"; exit 1; }
done
# People's numbers: no 4.44e+08, no $4.85e-06 in what the page shows (its data-v attributes keep them).
grep -qE 'per (thousand|million|billion) runs' "$work/dom.html" || { echo "FAIL: no cost per runs"; exit 1; }
if perl -0pe 's/<pre>.*?<\/pre>//gs; s/data-v="[^"]*"//g' "$work/dom.html" | grep -Eo '[0-9]e[+-][0-9]+' | grep .; then
  echo "FAIL: the page shows a number in e-notation"; exit 1
fi
# Sorting, in the browser: the configurations by $ per hour (column 6), from a link to that view.
timeout 120 "$chromium" "${flags[@]}" --dump-dom "file://$page#sort=configurations:6" >"$work/sorted.html" \
  2>>"$work/chromium-dom.log"
/usr/bin/python3 - "$work/sorted.html" <<'EOF'
import sys
from html.parser import HTMLParser

class Rows(HTMLParser):  # the body rows of table#configurations: each cell's data-v, and the headers
    def __init__(self):
        super().__init__()
        self.depth, self.rows, self.sorted_headers, self.in_body = 0, [], [], False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and (self.depth or a.get("id") == "configurations"):
            self.depth += 1
        if not self.depth:
            return
        if tag == "th" and a.get("aria-sort"):
            self.sorted_headers.append(a["aria-sort"])
        if tag == "tbody":
            self.in_body = True
        if tag == "tr" and self.in_body and self.depth == 1:
            self.rows.append([])
        if tag == "td" and self.in_body and self.depth == 1:
            self.rows[-1].append(a.get("data-v"))
    def handle_endtag(self, tag):
        if tag == "table" and self.depth:
            self.depth -= 1
            self.in_body = self.in_body and self.depth > 0

rows = Rows()
rows.feed(open(sys.argv[1], encoding="utf-8").read())
assert rows.sorted_headers == ["ascending"], f"the price column was not marked sorted: {rows.sorted_headers}"
prices = [float(r[6]) if r[6] else None for r in rows.rows]
priced = [p for p in prices if p is not None]
assert len(priced) >= 4 and priced == sorted(priced), f"rows not in price order: {prices}"
assert prices[len(priced):] == [None] * (len(prices) - len(priced)), f"unpriced rows not last: {prices}"
EOF
for width in 1400 700; do
  timeout 120 "$chromium" "${flags[@]}" --window-size=$width,6000 --screenshot="$work/report/screenshot-$width.png" \
    "file://$page" >"$work/chromium-shot-$width.log" 2>&1
  size=$(stat -c %s "$work/report/screenshot-$width.png")
  # A blank page compresses to a few kB; the report's tables and charts make far more.
  [ "$size" -gt 40000 ] || { echo "FAIL: the $width px screenshot is $size bytes: blank?"; exit 1; }
done
echo "report HTML rendered by $("$chromium" --version 2>/dev/null | head -1): screenshots" \
  "$work/report/screenshot-1400.png and screenshot-700.png"
