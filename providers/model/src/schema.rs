//! Resource schemas: what members a resource type has, their types and associations.
//! Providers declare them; the engine checks specs against them before anything runs.

use std::collections::BTreeMap;

/// The type of a member's value.
#[derive(Debug, Clone, PartialEq)]
pub enum MemberType {
    String,
    Integer,
    /// Integer or decimal.
    Number,
    Bool,
    /// Anything (a parsed policy document, a free-form value).
    Any,
    /// A list of elements of one type.
    List(Box<MemberType>),
    /// A nested property with declared members.
    Object(Vec<Member>),
    /// A key-value property such as tags: any string key, values of one type.
    Map(Box<MemberType>),
    /// An association to resources of `target`.
    Association {
        target: String,
    },
}

/// One member of a resource type or nested property.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub name: String,
    pub ty: MemberType,
    /// One line for `cloudspec schema`.
    pub doc: String,
}

impl Member {
    pub fn new(name: impl Into<String>, ty: MemberType) -> Self {
        Member {
            name: name.into(),
            ty,
            doc: String::new(),
        }
    }

    pub fn doc(mut self, doc: impl Into<String>) -> Self {
        self.doc = doc.into();
        self
    }
}

/// The schema of one resource type.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceSchema {
    /// `aws:ec2:instance`.
    pub type_name: String,
    pub doc: String,
    pub members: Vec<Member>,
}

impl ResourceSchema {
    pub fn member(&self, name: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.name == name)
    }
}

/// The schemas of one provider, by type name.
#[derive(Debug, Clone, Default)]
pub struct SchemaSet {
    pub provider: String,
    pub types: BTreeMap<String, ResourceSchema>,
}

impl SchemaSet {
    pub fn new(provider: impl Into<String>) -> Self {
        SchemaSet {
            provider: provider.into(),
            types: BTreeMap::new(),
        }
    }

    pub fn add(&mut self, schema: ResourceSchema) {
        self.types.insert(schema.type_name.clone(), schema);
    }

    pub fn get(&self, type_name: &str) -> Option<&ResourceSchema> {
        self.types.get(type_name)
    }
}

/// Helpers for declaring schemas tersely.
pub mod dsl {
    use super::{Member, MemberType};

    pub fn string(name: &str) -> Member {
        Member::new(name, MemberType::String)
    }
    pub fn integer(name: &str) -> Member {
        Member::new(name, MemberType::Integer)
    }
    pub fn number(name: &str) -> Member {
        Member::new(name, MemberType::Number)
    }
    pub fn boolean(name: &str) -> Member {
        Member::new(name, MemberType::Bool)
    }
    pub fn any(name: &str) -> Member {
        Member::new(name, MemberType::Any)
    }
    pub fn tags(name: &str) -> Member {
        Member::new(name, MemberType::Map(Box::new(MemberType::String)))
    }
    pub fn strings(name: &str) -> Member {
        Member::new(name, MemberType::List(Box::new(MemberType::String)))
    }
    pub fn object(name: &str, members: Vec<Member>) -> Member {
        Member::new(name, MemberType::Object(members))
    }
    pub fn list_of(name: &str, members: Vec<Member>) -> Member {
        Member::new(
            name,
            MemberType::List(Box::new(MemberType::Object(members))),
        )
    }
    pub fn assoc(name: &str, target: &str) -> Member {
        Member::new(
            name,
            MemberType::Association {
                target: target.into(),
            },
        )
    }
    pub fn assocs(name: &str, target: &str) -> Member {
        Member::new(
            name,
            MemberType::List(Box::new(MemberType::Association {
                target: target.into(),
            })),
        )
    }
}
