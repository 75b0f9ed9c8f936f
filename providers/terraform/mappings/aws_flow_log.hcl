# aws_flow_log -> aws:ec2:flow_log (DescribeFlowLogs).
type = "aws:ec2:flow_log"

locals {
  # AWS's default record format (the flow log's LogFormat when none is given).
  default_format = "$${version} $${account-id} $${interface-id} $${srcaddr} $${dstaddr} $${srcport} $${dstport} $${protocol} $${packets} $${bytes} $${start} $${end} $${action} $${log-status}"
}

object {
  literal "flow_log_id" {
    value = self.address
  }
  unknown "flow_log_status" {
    not_null = true
  }
  # The resource logged: whichever of these arguments is set (its address when it is a
  # resource of the configuration).
  transform "resource_id" {
    default {
      attr {
        name = "vpc_id"
      }
      attr {
        name = "subnet_id"
      }
      attr {
        name = "eni_id"
      }
      attr {
        name = "transit_gateway_id"
      }
      attr {
        name = "transit_gateway_attachment_id"
      }
    }
    result = id(nested)
  }
  attr "traffic_type" {
    type = string
  }
  attr "log_destination_type" {
    type    = string
    default = "cloud-watch-logs"
  }
  attr "log_destination" {
    type     = string
    computed = true
    not_null = true
    reason   = "log_destination is not set: the ARN of log_group_name"
  }
  transform "log_group_name" {
    object {
      attr "log_group_name" {
        type = string
      }
      attr "log_destination_type" {
        type    = string
        default = "cloud-watch-logs"
      }
    }
    result = nested.log_group_name != null ? nested.log_group_name : (nested.log_destination_type == "cloud-watch-logs" ? unknown("the log group of log_destination", true) : null)
  }
  unknown "deliver_logs_status" {}
  unknown "deliver_logs_error_message" {}
  attr "deliver_logs_permission_arn" {
    name = "iam_role_arn"
    type = string
  }
  attr "deliver_cross_account_role" {
    type = string
  }
  attr "log_format" {
    type    = string
    default = local.default_format
  }
  attr "max_aggregation_interval" {
    type    = number
    default = 600
  }
  # Without a destination_options block: AWS's defaults for an S3 destination, none else.
  default "destination_options" {
    block {
      object {
        attr "file_format" {
          type    = string
          default = "plain-text"
        }
        attr "hive_compatible_partitions" {
          type    = bool
          default = false
        }
        attr "per_hour_partition" {
          type    = bool
          default = false
        }
      }
    }
    transform {
      attr {
        name    = "log_destination_type"
        type    = string
        default = "cloud-watch-logs"
      }
      result = nested == "s3" ? unknown("AWS's default options for an S3 destination", true) : null
    }
  }
  unknown "creation_time" {
    not_null = true
  }
  transform "tags" {
    attr {
      type = map(string)
    }
    result = merge(self.default_tags, nested)
  }
}
