# shellcheck shell=bash
# What the uploaders that speak a REST API with curl share (storage-azure.sh, storage-gcp.sh source
# it from their own folder): object names percent-encoded, the instance identity's token cached, and
# a directory uploaded one file at a time through the caller's storage_put_file.

# rest_curl ARGS...: curl with the limits every transfer has. A cut link or a peer that stops
# answering ends the call (and the caller's retry begins) instead of holding the billed instance
# forever. No overall time limit: an image archive may take long on a slow but moving link; only a
# stall (under 1 KiB/s for 60 s) ends it.
rest_curl() { curl --connect-timeout 10 --speed-limit 1024 --speed-time 60 "$@"; }

# percent_encode NAME [KEEP]: NAME percent-encoded byte by byte (UTF-8 too), but for unreserved
# characters and KEEP, one character (Azure's blob paths keep '/'; GCS's JSON API takes the name
# whole, '/' as %2F).
percent_encode() {
  local LC_ALL=C name=$1 keep=${2:-} out="" c i
  for ((i = 0; i < ${#name}; i++)); do
    c=${name:i:1}
    if [[ "$c" == [A-Za-z0-9._~-] ]] || [ "$c" = "$keep" ]; then
      out+=$c
    else
      out+=$(printf '%%%02X' "'$c")
    fi
  done
  printf '%s\n' "$out"
}

# cached_token FILE COMMAND...: the token COMMAND prints, asked at most every 10 minutes (metadata
# services rate-limit; tokens last an hour or more) and kept in FILE, which only root reads (the
# container mounts the results folder, not this one).
cached_token() {
  local cache=$1 token
  shift
  if [ -s "$cache" ] && [ $(($(date +%s) - $(stat -c %Y "$cache"))) -lt 600 ]; then
    cat "$cache"
    return 0
  fi
  token=$("$@")
  [ -n "$token" ] || return 1
  # Written aside and moved: downloads running side by side (fetch_run) may read it meanwhile.
  (umask 077 && printf '%s' "$token" > "$cache.$$" && mv -f "$cache.$$" "$cache")
  printf '%s' "$token"
}

# put_each_file DIR PREFIX: storage_put_file for every file under DIR, as PREFIX/<its path>; the
# first failure stops it (the caller retries the whole directory).
put_each_file() {
  local file
  while IFS= read -r -d '' file; do
    storage_put_file "$file" "$2/${file#"$1"/}" || return 1
  done < <(find "$1" -type f -print0)
}
