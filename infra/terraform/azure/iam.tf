# The VM's identity: a user-assigned managed identity that may write blobs under its own results
# prefix and read the one image archive it loads (role assignments with ABAC conditions on the blob
# path), and deallocate this VM; nothing else (no listing, no deleting, no other prefix). On spot
# capacity it may also read and list its own prefix: a replacement downloads the run to resume it.
resource "azurerm_user_assigned_identity" "this" {
  name                = "${var.name}-id"
  location            = var.location
  resource_group_name = var.resource_group_name
  tags                = local.tags
}

data "azurerm_resource_group" "this" {
  name = var.resource_group_name
}

locals {
  blobs          = "Microsoft.Storage/storageAccounts/blobServices/containers/blobs"
  results_prefix = "${module.cloud_init.results_path}/"
  containers     = "${var.storage_account_id}/blobServices/default/containers"
  # Writes only under the prefix; reads only under it on spot (a replacement reads the run back by
  # name, listing nothing).
  results_condition = join("\nAND\n", concat([
    "((!(ActionMatches{'${local.blobs}/write'}) AND !(ActionMatches{'${local.blobs}/add/action'})) OR (@Resource[${local.blobs}:path] StringStartsWith '${local.results_prefix}'))",
    "(!(ActionMatches{'${local.blobs}/delete'}))",
    ], var.capacity == "spot" ? [
    "((!(ActionMatches{'${local.blobs}/read'})) OR (@Resource[${local.blobs}:path] StringStartsWith '${local.results_prefix}'))",
    ] : [
    "(!(ActionMatches{'${local.blobs}/read'}))",
  ]))
}

resource "azurerm_role_assignment" "results" {
  scope                = "${local.containers}/${var.results_container}"
  role_definition_name = "Storage Blob Data Contributor"
  principal_id         = azurerm_user_assigned_identity.this.principal_id
  principal_type       = "ServicePrincipal"
  description          = "perfzero ${var.name}: writes its results under ${local.results_prefix} only"
  condition_version    = "2.0"
  condition            = local.results_condition
}

resource "azurerm_role_assignment" "image_archive" {
  count                = module.cloud_init.image_archive_object == "" ? 0 : 1
  scope                = "${local.containers}/${module.cloud_init.image_archive_bucket}"
  role_definition_name = "Storage Blob Data Reader"
  principal_id         = azurerm_user_assigned_identity.this.principal_id
  principal_type       = "ServicePrincipal"
  description          = "perfzero ${var.name}: reads its image archive only"
  condition_version    = "2.0"
  condition            = "((!(ActionMatches{'${local.blobs}/read'})) OR (@Resource[${local.blobs}:path] StringEquals '${module.cloud_init.image_archive_object}'))"
}

# Powering off from inside leaves an Azure VM allocated and billed: the runner deallocates it
# through this one permission on this one VM (cloud-init's azure-deallocate.sh).
# Custom role names are unique in the whole tenant: the VM's resource id makes this one so.
resource "azurerm_role_definition" "deallocate_self" {
  name              = "${var.name}-deallocate-self-${substr(sha1(azurerm_linux_virtual_machine.this.id), 0, 12)}"
  scope             = data.azurerm_resource_group.this.id
  description       = "perfzero ${var.name}: deallocate itself when its run ends"
  assignable_scopes = [azurerm_linux_virtual_machine.this.id]
  permissions {
    actions = ["Microsoft.Compute/virtualMachines/read", "Microsoft.Compute/virtualMachines/deallocate/action"]
  }
}

resource "azurerm_role_assignment" "deallocate_self" {
  scope              = azurerm_linux_virtual_machine.this.id
  role_definition_id = azurerm_role_definition.deallocate_self.role_definition_resource_id
  principal_id       = azurerm_user_assigned_identity.this.principal_id
  principal_type     = "ServicePrincipal"
}
