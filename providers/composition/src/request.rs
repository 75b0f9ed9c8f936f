//! The request (`req.*`, contract section 2).

use crate::response::Requirements;
use crate::{Failure, Inputs};

pub(crate) struct Request {
    pub context: serde_json::Map<String, serde_json::Value>,
}

impl Request {
    pub(crate) fn new(inputs: &Inputs) -> Result<Request, Failure> {
        Ok(Request {
            context: inputs.context.clone(),
        })
    }

    pub(crate) fn answer(&mut self, requirements: &Requirements, inputs: &Inputs) {
        let _ = (requirements, inputs);
    }
}
