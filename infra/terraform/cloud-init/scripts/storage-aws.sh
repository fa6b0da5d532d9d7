# shellcheck shell=bash
# Amazon S3 for perfzero-runner.sh, through the AWS CLI and the instance profile (IMDSv2).
# PERFZERO_S3_ENDPOINT_URL points it at another S3-compatible store (the runner's test uses one).
storage_setup() {
  command -v aws > /dev/null && return 0
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -q && apt-get install -y -q --no-install-recommends awscli; } ||
    snap install aws-cli --classic
}
aws_cli() { aws ${PERFZERO_S3_ENDPOINT_URL:+--endpoint-url "$PERFZERO_S3_ENDPOINT_URL"} "$@"; }
storage_url() { echo "s3://$PERFZERO_RESULTS_BUCKET/$1"; }
# storage_get BUCKET OBJECT FILE
storage_get() { aws_cli s3 cp --only-show-errors "s3://$1/$2" "$3"; }
# storage_put_file FILE OBJECT (in the results bucket)
storage_put_file() { aws_cli s3 cp --only-show-errors "$1" "s3://$PERFZERO_RESULTS_BUCKET/$2"; }
# storage_put_dir DIR PREFIX: uploads only (no listing, which the instance may not do).
storage_put_dir() { aws_cli s3 cp --only-show-errors --recursive "$1" "s3://$PERFZERO_RESULTS_BUCKET/$2/"; }
# storage_absent ERRFILE: whether storage_get's error says the object does not exist (S3 says 404 only
# to an identity that may list the prefix: iam.tf grants that listing on spot; else it says 403).
storage_absent() { grep -qE "\(404\)|Not Found|NoSuchKey" "$1"; }
# storage_secret SECRET_ARN FILE: a Secrets Manager secret's string (a cluster's munge key), in the
# secret's own region; PERFZERO_SECRETS_ENDPOINT_URL points it at another endpoint (a test's stub).
storage_secret() {
  aws ${PERFZERO_SECRETS_ENDPOINT_URL:+--endpoint-url "$PERFZERO_SECRETS_ENDPOINT_URL"} --region "$(cut -d: -f4 <<< "$1")" \
    secretsmanager get-secret-value --secret-id "$1" --query SecretString --output text > "$2"
}
