# The instance's identity: a service account of its own that may create objects under its results
# prefix and read the one image archive it loads (IAM conditions; the bucket needs uniform
# bucket-level access). No project-level roles. On spot capacity it may also read, replace and so
# delete objects under its prefix (Storage Object User there: GCS needs delete to overwrite): the
# runner replaces the journal as the run goes, and a replacement reads the run back by name from
# the uploaded-files list, never listing the bucket (a listing is a bucket-level request, which a
# prefix condition refuses).
resource "google_service_account" "this" {
  project      = var.project
  account_id   = "pz-${substr(sha1(var.name), 0, 16)}"
  display_name = "perfzero benchmark instance ${var.name}"
  description  = "Writes results under ${module.cloud_init.results_path}/ only"
}

resource "google_storage_bucket_iam_member" "write_results" {
  bucket = var.results_bucket
  role   = var.capacity == "spot" ? "roles/storage.objectUser" : "roles/storage.objectCreator"
  member = "serviceAccount:${google_service_account.this.email}"
  condition {
    title      = "perfzero-${var.name}-results"
    expression = "resource.name.startsWith(\"projects/_/buckets/${var.results_bucket}/objects/${module.cloud_init.results_path}/\")"
  }
}

resource "google_storage_bucket_iam_member" "read_image_archive" {
  count  = module.cloud_init.image_archive_object == "" ? 0 : 1
  bucket = module.cloud_init.image_archive_bucket
  role   = "roles/storage.objectViewer"
  member = "serviceAccount:${google_service_account.this.email}"
  condition {
    title      = "perfzero-${var.name}-image"
    expression = "resource.name == \"projects/_/buckets/${module.cloud_init.image_archive_bucket}/objects/${module.cloud_init.image_archive_object}\""
  }
}

# A cluster node reads the cluster's munge key (that one secret) and the perfzero packages (each
# object by name).
resource "google_secret_manager_secret_iam_member" "munge_key" {
  count     = var.cluster == null ? 0 : 1
  project   = var.project
  secret_id = var.cluster.munge_key_secret
  role      = "roles/secretmanager.secretAccessor"
  member    = "serviceAccount:${google_service_account.this.email}"
}

resource "google_storage_bucket_iam_member" "read_package" {
  for_each = toset(module.cloud_init.package_objects)
  bucket   = module.cloud_init.image_archive_bucket
  role     = "roles/storage.objectViewer"
  member   = "serviceAccount:${google_service_account.this.email}"
  condition {
    title      = "perfzero-${var.name}-package-${substr(sha1(each.value), 0, 8)}"
    expression = "resource.name == \"projects/_/buckets/${module.cloud_init.image_archive_bucket}/objects/${each.value}\""
  }
}
