#!/usr/bin/env bash
# `terraform fmt -check -recursive infra/terraform`: every .tf file is formatted as Terraform
# formats it. Exit 77 (skipped) when terraform is not installed, except in CI.
set -uo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v terraform > /dev/null; then
  echo "terraform is not on the PATH (it is not a Debian package; infra/README.md)"
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
fi
export TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1
if terraform fmt -check -recursive -diff "$source_dir/infra/terraform"; then
  echo "ok: infra/terraform is formatted"
else
  echo "FAILED: the files above are not formatted (run: terraform fmt -recursive infra/terraform)"
  exit 1
fi
