# shellcheck shell=bash
# Google Cloud Storage for perfzero-runner.sh, through gcloud and the instance's service account
# (Google's Ubuntu and Debian images ship gcloud).
storage_setup() {
  command -v gcloud > /dev/null && return 0
  snap install google-cloud-cli --classic
}
storage_url() { echo "gs://$PERFZERO_RESULTS_BUCKET/$1"; }
# storage_get BUCKET OBJECT FILE
storage_get() { gcloud storage cp --quiet "gs://$1/$2" "$3"; }
# storage_put_file FILE OBJECT (in the results bucket)
storage_put_file() { gcloud storage cp --quiet "$1" "gs://$PERFZERO_RESULTS_BUCKET/$2"; }
# storage_put_dir DIR PREFIX: copies the directory's contents (cp, not rsync: rsync lists the
# destination, which the instance may not do).
storage_put_dir() { gcloud storage cp --quiet --recursive "$1/*" "gs://$PERFZERO_RESULTS_BUCKET/$2/"; }
# storage_secret SECRET FILE: the latest version of a Secret Manager secret (projects/P/secrets/NAME),
# read with the service account (roles/secretmanager.secretAccessor on that secret only).
storage_secret() { gcloud secrets versions access latest --secret="$1" --quiet > "$2"; }
