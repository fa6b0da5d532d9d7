# The instance's identity: a dynamic group holding this instance only (instance principal), allowed
# to create objects under its results prefix in the results bucket and to read the one image
# archive it loads. On demand OBJECT_CREATE without OBJECT_OVERWRITE, OBJECT_READ or OBJECT_DELETE:
# it can neither read, replace nor remove anything, its own earlier uploads included. On spot it
# may also read and overwrite objects under its prefix (OBJECT_READ, OBJECT_OVERWRITE; never
# OBJECT_DELETE or OBJECT_INSPECT): the runner replaces the journal as the run goes, and a
# replacement reads the run back by name from the uploaded-files list, never listing the bucket.
resource "oci_identity_dynamic_group" "this" {
  compartment_id = var.tenancy_ocid
  name           = "${var.name}-perfzero"
  description    = "perfzero benchmark instance ${var.name}"
  matching_rule  = "ALL {instance.id = '${oci_core_instance.this.id}'}"
  freeform_tags  = local.tags
}

locals {
  dynamic_group = oci_identity_dynamic_group.this.name
  policy_statements = concat(
    ["Allow dynamic-group ${local.dynamic_group} to manage objects in compartment id ${var.compartment_ocid} where all {target.bucket.name = '${var.results_bucket}', request.permission = 'OBJECT_CREATE', target.object.name = /${module.cloud_init.results_path}/*/}"],
    var.capacity != "spot" ? [] : [
      for permission in ["OBJECT_READ", "OBJECT_OVERWRITE"] :
      "Allow dynamic-group ${local.dynamic_group} to manage objects in compartment id ${var.compartment_ocid} where all {target.bucket.name = '${var.results_bucket}', request.permission = '${permission}', target.object.name = /${module.cloud_init.results_path}/*/}"
    ],
    module.cloud_init.image_archive_object == "" ? [] : [
      "Allow dynamic-group ${local.dynamic_group} to read objects in compartment id ${var.compartment_ocid} where all {target.bucket.name = '${module.cloud_init.image_archive_bucket}', target.object.name = '${module.cloud_init.image_archive_object}'}"
    ],
  )
}

resource "oci_identity_policy" "this" {
  compartment_id = var.compartment_ocid
  name           = "${var.name}-perfzero"
  description    = "perfzero benchmark instance ${var.name}: writes its results only"
  statements     = local.policy_statements
  freeform_tags  = local.tags
}
