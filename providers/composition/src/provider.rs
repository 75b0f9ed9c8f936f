//! The `--composition` source of `cloudspec run` (contract section 6): renders, then loads
//! every desired resource and the XR as `k8s:<group>:<Kind>` resources.
