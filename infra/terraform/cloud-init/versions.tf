# The template family needs no provider: it renders text only, so `terraform console` can render it
# offline (tests/infra/render_cloud_init.sh does).
terraform {
  required_version = ">= 1.5.0, < 2.0.0"
}
