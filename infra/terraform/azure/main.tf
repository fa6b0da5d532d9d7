# One Azure VM that runs the perfzero container once, uploads its results to Blob Storage and
# deallocates itself (a VM that only powers off stays allocated, and billed).
module "cloud_init" {
  source = "../cloud-init"

  cloud                 = "azure"
  shape                 = var.vm_size
  system_name           = var.system_name
  image_reference       = var.image_reference
  image_archive_object  = var.image_archive_object
  image_archive_bucket  = var.image_archive_container
  suite_yaml            = file(var.suite_path)
  execution_id          = var.execution_id
  execution_label       = var.execution_label
  results_bucket        = var.results_container
  results_prefix        = var.results_prefix
  time_limit_minutes    = var.time_limit_minutes
  capacity              = var.capacity
  azure_storage_account = var.storage_account_name
}

locals {
  tags = merge(var.tags, {
    "perfzero-run"       = var.name
    "perfzero-execution" = var.execution_id
    "perfzero-system"    = module.cloud_init.system_name
  })
  arm = module.cloud_init.architecture == "arm64"
  gpu = module.cloud_init.gpu
}

resource "azurerm_network_security_group" "this" {
  name                = "${var.name}-nsg"
  location            = var.location
  resource_group_name = var.resource_group_name
  tags                = local.tags
}

# SSH only when a CIDR is given; without this rule Azure's defaults deny all inbound traffic from
# the internet.
resource "azurerm_network_security_rule" "ssh" {
  count                       = var.ssh_cidr == null ? 0 : 1
  name                        = "ssh-from-operator"
  priority                    = 100
  direction                   = "Inbound"
  access                      = "Allow"
  protocol                    = "Tcp"
  source_port_range           = "*"
  destination_port_range      = "22"
  source_address_prefix       = var.ssh_cidr
  destination_address_prefix  = "*"
  resource_group_name         = var.resource_group_name
  network_security_group_name = azurerm_network_security_group.this.name
}

resource "azurerm_public_ip" "this" {
  count               = var.associate_public_ip ? 1 : 0
  name                = "${var.name}-ip"
  location            = var.location
  resource_group_name = var.resource_group_name
  allocation_method   = "Static"
  sku                 = "Standard"
  tags                = local.tags
}

resource "azurerm_network_interface" "this" {
  name                = "${var.name}-nic"
  location            = var.location
  resource_group_name = var.resource_group_name
  tags                = local.tags
  ip_configuration {
    name                          = "primary"
    subnet_id                     = var.subnet_id
    private_ip_address_allocation = "Dynamic"
    public_ip_address_id          = var.associate_public_ip ? azurerm_public_ip.this[0].id : null
  }
}

resource "azurerm_network_interface_security_group_association" "this" {
  network_interface_id      = azurerm_network_interface.this.id
  network_security_group_id = azurerm_network_security_group.this.id
}

resource "azurerm_linux_virtual_machine" "this" {
  name                            = var.name
  location                        = var.location
  resource_group_name             = var.resource_group_name
  size                            = var.vm_size
  admin_username                  = "perfzero"
  disable_password_authentication = true
  network_interface_ids           = [azurerm_network_interface.this.id]
  custom_data                     = base64encode(module.cloud_init.user_data)

  admin_ssh_key {
    username   = "perfzero"
    public_key = var.admin_ssh_public_key
  }

  identity {
    type         = "UserAssigned"
    identity_ids = [azurerm_user_assigned_identity.this.id]
  }

  # Spot: evicted by deletion, at most the on-demand price (-1); the runner watches Scheduled Events
  # and a relaunch with the same execution_id resumes the run (iam.tf grants the read it needs).
  priority        = var.capacity == "spot" ? "Spot" : "Regular"
  eviction_policy = var.capacity == "spot" ? "Delete" : null
  max_bid_price   = var.capacity == "spot" ? -1 : null

  # Trusted launch on x86 (Azure offers it for Gen2 x86 images); Secure Boot would refuse an
  # unsigned NVIDIA driver built on the VM.
  secure_boot_enabled = !local.arm && !local.gpu
  vtpm_enabled        = !local.arm

  os_disk {
    caching                = "ReadWrite"
    storage_account_type   = "StandardSSD_LRS"
    disk_size_gb           = var.os_disk_gb
    disk_encryption_set_id = var.disk_encryption_set_id # null: encrypted at rest with platform keys
  }

  source_image_reference {
    publisher = "Canonical"
    offer     = "0001-com-ubuntu-server-jammy"
    sku       = local.arm ? "22_04-lts-arm64" : "22_04-lts-gen2"
    version   = "latest"
  }

  tags = local.tags
}
