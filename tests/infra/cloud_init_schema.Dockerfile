# Debian's cloud-init, to check rendered documents with `cloud-init schema --config-file`
# (tests/infra/cloud_init_schema_test.sh builds it from the local debian:bookworm-slim).
FROM debian:bookworm-slim
RUN apt-get update -q \
 && apt-get install -y -q --no-install-recommends cloud-init \
 && rm -rf /var/lib/apt/lists/*
