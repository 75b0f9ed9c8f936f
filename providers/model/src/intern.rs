//! Interned object keys: every distinct key string is stored once per inventory.

/// A hash map keyed by text from the input (keys, types, ids), with a hasher seeded at
/// random: with a fixed hash (FxHash), keys built to collide made every insert scan all
/// the others (20,000 such keys of one object took 2.9 s to load; bench/README.md).
pub(crate) type TextMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// An interned key. Only meaningful with the [`Interner`] that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// Maps key strings to [`Sym`]s and back.
#[derive(Debug, Default, Clone)]
pub struct Interner {
    map: TextMap<Box<str>, Sym>,
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
        let sym = Sym(u32::try_from(self.names.len()).unwrap_or(u32::MAX));
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

    /// The number of distinct keys.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Every key, in the order of their symbols (`Sym(0)` first).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(|s| &**s)
    }
}
