#!/usr/bin/env bash
# perfzero history site opened in a real headless Chromium with no network (issue 23, item 3): a
# history of 16 runs with a planted step is stored, the site is written, and Chromium renders its
# index, a series page and a run page: the sparklines, every trial as a dot, the change point with
# its commit, the compare with the previous run, the cost view. Every link on those pages is
# followed (its target exists and renders), nothing is fetched from anywhere, and screenshots are
# kept beside the site for a person to look at (docs/example-site/ holds a set).
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
# A latency that steps from 10 to 12 ms at the ninth run (commit c8...), spread by the trial number.
cat >"$work/latency.yaml" <<'YAML'
methods:
  - name: service.request
    command: [/bin/sh, -c, 'awk -v l="$LATENCY" -v t="$PERFZERO_TRIAL" "BEGIN{printf \"{\\\"metrics\\\":[{\\\"name\\\":\\\"latency_ms\\\",\\\"value\\\":%.3f,\\\"unit\\\":\\\"ms\\\",\\\"direction\\\":\\\"lower\\\"}]}\", l*(1+0.01*((t*3)%5-2))}" > "$PERFZERO_RESULT_FILE"']
YAML
for i in $(seq 0 15); do
  latency=10
  [ "$i" -ge 8 ] && latency=12
  commit=$(printf 'c%x%038d' "$i" 0)
  LATENCY=$latency "$perfzero" --config "$work/latency.yaml" --benchmark_num_trials=5 --instance_type=c7i.large \
    --execution_label=main --commit="$commit" --branch=main --output_dir "$work/runs/run$i" >/dev/null
done
# The values are planted: whatever a busy test machine flagged is cleared, then one trial is marked
# disturbed, to be drawn hollow and left out of its run's median.
for journal in "$work"/runs/*/journal.ndjson; do
  sed -i 's/"flags":\["[a-z_",]*"\]/"flags":[]/g' "$journal"
done
sed -i '0,/"flags":\[\]/s//"flags":["host_busy"]/' "$work/runs/run3/journal.ndjson"
runs=()
for i in $(seq 0 15); do runs+=("$work/runs/run$i"); done
"$perfzero" history ingest --db "$work/h.sqlite" "${runs[@]}" >/dev/null
"$perfzero" history site --db "$work/h.sqlite" --out "$work/site" --catalog "$source_dir/infra/pricing/catalog.yaml" \
  >"$work/site.log"
site=$work/site

# Nothing on any page may come from elsewhere, and no page runs a script but the index's filter and
# the cost pages' own (perfzero report's page, which sorts its tables), both inline.
if grep -rEio '<script|<link|<img|<iframe|@import|url\(|src=' "$site"/series "$site"/runs; then
  echo "FAIL: a page refers to an outside resource or runs a script"; exit 1
fi
if grep -rEio '<script[^>]*src|<link|<img|<iframe|@import|url\(|src=' "$site"/cost "$site"/index.html; then
  echo "FAIL: a cost page refers to an outside resource"; exit 1
fi
grep -qF "Content-Security-Policy" "$site/index.html" || { echo "FAIL: the index sets no Content-Security-Policy"; exit 1; }

flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --disable-extensions --proxy-server=127.0.0.1:9
       --user-data-dir="$work/profile" --hide-scrollbars)
dom() {  # the DOM Chromium builds from a page of the site
  timeout 120 "$chromium" "${flags[@]}" --dump-dom "file://$1" 2>>"$work/chromium.log"
}
need() {  # FILE NEEDLE...: each needle is in the rendered page
  local file=$1
  shift
  for needle in "$@"; do
    grep -qF -- "$needle" "$file" || { echo "FAIL: $(basename "$file") lacks $needle"; exit 1; }
  done
}
dom "$site/index.html" >"$work/index.dom"
need "$work/index.dom" '<svg class="overview"' '<svg class="spark"' '<h2>service.request</h2>' \
  'Main metric <b>latency_ms</b>' '>slower<' 'c8000000' 'c7i.large' 'href="series/' 'Cost per date' \
  '<input type="search" id="filter" placeholder'
# The filter's script ran (the box is shown), and a filter in the address hides what it does not match.
dom "$site/index.html?filter=no-such-method" >"$work/filtered.dom"
need "$work/filtered.dom" '0 of 1 methods' '<section class="method" id="m1" data-find="service.request'
grep -qE '<section class="method" id="m1" data-find="[^"]*" hidden' "$work/filtered.dom" ||
  { echo "FAIL: the filter hid nothing"; exit 1; }
# A filter that is not UTF-8 (bytes a link or a paste can carry, and a stray %): the script still runs
# and shows the box, and the words it cannot match hide the method rather than breaking the page.
dom "$site/index.html?filter=%FF%C3%28%zz+service" >"$work/hostile.dom"
need "$work/hostile.dom" '0 of 1 methods' '<input type="search" id="filter" placeholder'
grep -qF '<input type="search" id="filter" hidden' "$work/hostile.dom" &&
  { echo "FAIL: a filter that is not UTF-8 stopped the filter's script"; exit 1; }
# The latency's series (the harness's own counters and wall time are series too).
latency=$(grep -o 'href="series/[0-9a-f]*.html">latency_ms</a>' "$work/index.dom" |
  sed 's|href="series/\([0-9a-f]*\).html".*|\1|' | head -1)
[ -n "$latency" ] || { echo "FAIL: the index has no row for service.request latency_ms"; exit 1; }
dom "$site/series/$latency.html" >"$work/series.dom"
need "$work/series.dom" '<svg class="chart"' 'class="median"' 'class="cp"' 'c800000000 +20.' '<td class="n">8 / 8</td>' '>slower<' \
  'compare with the previous run'
# An unquoted attribute before "/>" takes the slash into its value (r="2/"), and nothing is drawn.
if grep -Eo '="[^"]*/"' "$work/series.dom" "$work/index.dom" | head -3 | grep .; then echo "FAIL: an attribute swallowed a slash"; exit 1; fi
dots=$(grep -o '<circle class="t"' "$work/series.dom" | wc -l)
hollow=$(grep -o '<circle class="td"' "$work/series.dom" | wc -l)
if [ "$dots" != 79 ] || [ "$hollow" != 1 ]; then
  echo "FAIL: $dots trials and $hollow disturbed drawn (79 and 1 planted)"; exit 1
fi

# Every link on the index, a series page and a run page leads to a page that exists and renders.
# The pages of the ninth run (commit c8..., the first after the step) and of the eighth.
ninth=$(basename "$(grep -l 'c800000000000000000000000000000000000000' "$site"/runs/*.html | head -1)" .html)
eighth=$(basename "$(grep -l 'c700000000000000000000000000000000000000' "$site"/runs/*.html | head -1)" .html)
/usr/bin/python3 - "$site" "$latency" "$ninth" <<'PY' >"$work/links"
import os, re, sys
site = sys.argv[1]
seen = set()
for page in ["index.html", f"series/{sys.argv[2]}.html", f"runs/{sys.argv[3]}.html"]:
    text = open(os.path.join(site, page), encoding="utf-8").read()
    for href in re.findall(r"href='([^']+)'", text):
        if href.startswith("#"):  # a place on the page itself: its id must be there
            if f"id={href[1:]}>" not in text and f"id={href[1:]} " not in text:
                sys.exit(f"FAIL: {page} links to {href}, which it does not hold")
            continue
        target = os.path.normpath(os.path.join(os.path.dirname(os.path.join(site, page)), href.split("#")[0]))
        if not os.path.isfile(target):
            sys.exit(f"FAIL: {page} links to {href}, which does not exist")
        seen.add(target)
print("\n".join(sorted(seen)))
PY
[ "$(wc -l <"$work/links")" -ge 20 ] || { echo "FAIL: too few links followed: $(wc -l <"$work/links")"; exit 1; }
while read -r target; do
  dom "$target" >"$work/followed.dom"
  grep -q '</html>' "$work/followed.dom" || { echo "FAIL: $target did not render"; exit 1; }
done < <(grep -E "runs/$eighth.html|cost/" "$work/links")
dom "$site/runs/$ninth.html" >"$work/run.dom"
need "$work/run.dom" 'Compared with the previous run' "href=\"$eighth.html\"" 'slower' 'c800000000'
dom "$(grep cost/ "$work/links" | head -1)" >"$work/cost.dom"
need "$work/cost.dom" 'c7i.large' 'service.request'

for page in index "series/$latency" "runs/$ninth"; do
  for width in 1400 700; do
    out="$site/screenshot-${page//\//-}-$width.png"
    timeout 120 "$chromium" "${flags[@]}" --window-size=$width,1400 --screenshot="$out" "file://$site/$page.html" \
      >"$work/chromium-shot.log" 2>&1
    size=$(stat -c %s "$out")
    [ "$size" -gt 20000 ] || { echo "FAIL: the screenshot of $page at $width px is $size bytes: blank?"; exit 1; }
  done
done
echo "history site rendered by $("$chromium" --version 2>/dev/null | head -1): screenshots in $site"
