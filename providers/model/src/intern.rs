//! Interned object keys: every distinct key string is stored once per inventory.

use std::collections::HashMap;

/// An interned key. Only meaningful with the [`Interner`] that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// Maps key strings to [`Sym`]s and back.
#[derive(Debug, Default, Clone)]
pub struct Interner {
    map: HashMap<Box<str>, Sym>,
    names: Vec<Box<str>>,
}

impl Interner {
    pub fn new() -> Self {
        Self::default()
    }

    /// The symbol for `name`, creating it when new.
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(sym) = self.map.get(name) {
            return *sym;
        }
        let sym = Sym(self.names.len() as u32);
        self.names.push(name.into());
        self.map.insert(name.into(), sym);
        sym
    }

    /// The symbol for `name` if any key of the inventory is spelled so.
    pub fn get(&self, name: &str) -> Option<Sym> {
        self.map.get(name).copied()
    }

    /// The text of a symbol.
    pub fn resolve(&self, sym: Sym) -> &str {
        self.names.get(sym.0 as usize).map(|s| &**s).unwrap_or("")
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}
