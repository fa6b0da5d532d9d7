# A stand-in for a fresh cloud instance, to run the rendered perfzero-runner.sh for real
# (tests/infra/runner_s3_test.sh): Debian's awscli (S3 uploads through --endpoint-url) and the
# Docker client, which drives the host's daemon through its socket.
FROM debian:bookworm-slim
RUN apt-get update -q \
 && apt-get install -y -q --no-install-recommends awscli docker.io ca-certificates curl procps \
 && rm -rf /var/lib/apt/lists/*
