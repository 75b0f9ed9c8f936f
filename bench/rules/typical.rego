# The ten rules of typical.cloudspec in Rego, for the side-by-side run with Regorus
# (bench/report.sh). The input is the cloudspec inventory itself (shared/design/inventory.md):
# associations are {"$ref": "type/id"} objects, looked up in `by_ref`.
#
# `results[rule]` gives each rule's resources in scope (`scope`, a count) and the ids of
# those that fail (`fail`), which bench/report.sh compares with cloudspec's JSON report.
# The semantics follow docs/language.md where Rego's differ: a missing or null value never
# satisfies a comparison (Rego orders null below numbers), and a reference that leads
# nowhere fails an Assert.
package bench

import rego.v1

by_ref[ref] := r if {
	some r in input.resources
	ref := concat("/", [r.type, r.id])
}

of_type(t) := [r | some r in input.resources; r.type == t]

volumes := of_type("aws:ec2:volume")

instances := of_type("aws:ec2:instance")

security_groups := of_type("aws:ec2:security_group")

subnets := of_type("aws:ec2:subnet")

verdict(scope, fail) := {"scope": count(scope), "fail": fail}

# EBS / Volumes are encrypted
results["Volumes are encrypted"] := verdict(volumes, {r.id |
	some r in volumes
	r.properties.encrypted != true
})

# EBS / Attached volumes are in use: With attachments ( state == "attached" )
attached_volumes := [r |
	some r in volumes
	some a in r.properties.attachments
	a.state == "attached"
]

results["Attached volumes are in use"] := verdict(attached_volumes, {r.id |
	some r in attached_volumes
	object.get(r.properties, "state", null) != "in-use"
})

# EC2 / Instances require IMDSv2
results["Instances require IMDSv2"] := verdict(instances, {r.id |
	some r in instances
	object.get(r.properties, ["metadata_options", "http_tokens"], null) != "required"
})

# EC2 / Production instances use approved types
approved_types := {"m5.large", "m5.xlarge", "t3.large"}

production := [r |
	some r in instances
	object.get(r.properties, ["tags", "environment"], null) == "production"
]

results["Production instances use approved types"] := verdict(production, {r.id |
	some r in production
	not approved_types[object.get(r.properties, "instance_type", null)]
})

# EC2 / Instance volumes are encrypted gp3 of at least 8 GiB
good_volume(ref) if {
	v := by_ref[ref].properties
	v.volume_type == "gp3"
	is_number(v.size)
	v.size >= 8
	v.encrypted == true
}

results["Instance volumes are encrypted gp3 of at least 8 GiB"] := verdict(instances, {r.id |
	some r in instances
	some m in r.properties.block_device_mappings
	not good_volume(object.get(m, ["ebs", "volume", "$ref"], ""))
})

# EC2 / Instances in public subnets have no public address
public_subnet(ref) if by_ref[ref].properties.map_public_ip_on_launch == true

in_public_subnets := [r |
	some r in instances
	public_subnet(object.get(r.properties, ["subnet", "$ref"], ""))
]

results["Instances in public subnets have no public address"] := verdict(in_public_subnets, {r.id |
	some r in in_public_subnets
	object.get(r.properties, "public_ip_address", null) != null
})

# The permission opens `port` to the whole internet.
open_to_world(p, port) if {
	is_number(p.from_port)
	is_number(p.to_port)
	p.from_port <= port
	p.to_port >= port
	some range in p.ip_ranges
	range.cidr_ip == "0.0.0.0/0"
}

exposes(ref, port) if {
	some p in by_ref[ref].properties.ip_permissions
	open_to_world(p, port)
}

# EC2 / Instance security groups do not expose RDP
results["Instance security groups do not expose RDP"] := verdict(instances, {r.id |
	some r in instances
	some g in r.properties.security_groups
	exposes(g["$ref"], 3389)
})

# EC2 / Instances carry a cost centre
cost_centre(r) if startswith(r.properties.tags.cost_center, "cc-")

results["Instances carry a cost centre"] := verdict(instances, {r.id |
	some r in instances
	not cost_centre(r)
})

# Network / No security group allows SSH from the internet
results["No security group allows SSH from the internet"] := verdict(security_groups, {r.id |
	some r in security_groups
	some p in r.properties.ip_permissions
	open_to_world(p, 22)
})

# Network / Subnets lie inside the corporate range
corporate(r) if net.cidr_contains("10.0.0.0/8", r.properties.cidr_block)

results["Subnets lie inside the corporate range"] := verdict(subnets, {r.id |
	some r in subnets
	not corporate(r)
})
