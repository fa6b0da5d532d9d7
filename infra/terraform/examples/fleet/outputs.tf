output "results" {
  description = "Per shape: where its results land (DONE or FAILED marks the end), its architecture and whether it has GPUs."
  value = merge(
    { for k, m in module.aws : k => { url = m.results_url, architecture = m.architecture, gpu = m.gpu } },
    { for k, m in module.gcp : k => { url = m.results_url, architecture = m.architecture, gpu = m.gpu } },
    { for k, m in module.oci : k => { url = m.results_url, architecture = m.architecture, gpu = m.gpu } },
    { for k, m in module.azure : k => { url = m.results_url, architecture = m.architecture, gpu = m.gpu } },
  )
}

output "sync_commands" {
  description = "Commands that copy every cloud's results into results/fleet/<prefix>/<cloud>/<system>/<execution_id>/ (run from the repository root)."
  value = compact([
    var.aws == null ? "" : "aws s3 sync s3://${var.aws.bucket}/${var.results_prefix}/aws/ results/fleet/${var.results_prefix}/aws/",
    var.gcp == null ? "" : "gcloud storage rsync --recursive gs://${var.gcp.bucket}/${var.results_prefix}/gcp results/fleet/${var.results_prefix}/gcp",
    var.oci == null ? "" : "oci os object bulk-download --namespace ${var.oci.namespace} --bucket-name ${var.oci.bucket} --prefix ${var.results_prefix}/oci/ --download-dir results/fleet",
    var.azure == null ? "" : "az storage blob download-batch --auth-mode login --account-name ${var.azure.storage_account_name} --source ${var.azure.container} --pattern '${var.results_prefix}/azure/*' --destination results/fleet",
  ])
}
