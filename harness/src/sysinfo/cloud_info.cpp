#include "common/files.hpp"
#include "sysinfo/system_info.hpp"

namespace perfzero::sysinfo {

CloudInfo read_cloud_info(const std::filesystem::path& dmi_dir) {
  CloudInfo cloud;
  auto read = [&](const char* name) { return files::read_line(dmi_dir / name).value_or(""); };
  cloud.sys_vendor = read("sys_vendor");
  cloud.product_name = read("product_name");
  const std::string asset_tag = read("chassis_asset_tag");
  const std::string bios_vendor = read("bios_vendor");
  // The markers each cloud documents for its VMs (docs/system_info.md lists the sources).
  if (cloud.sys_vendor == "Amazon EC2" || bios_vendor == "Amazon EC2") {
    cloud.vendor = "aws";
    // Nitro instances put the instance type in product_name (e.g. m6i.large).
    if (!cloud.product_name.empty() && cloud.product_name.find(' ') == std::string::npos) {
      cloud.instance_type = cloud.product_name;
    }
  } else if (cloud.product_name == "Google Compute Engine" || cloud.sys_vendor == "Google") {
    cloud.vendor = "gcp";
  } else if (asset_tag == "7783-7084-3265-9085-8269-3286-77") {
    cloud.vendor = "azure";
  } else if (asset_tag == "OracleCloud.com") {
    cloud.vendor = "oci";
  }
  return cloud;
}

}  // namespace perfzero::sysinfo
