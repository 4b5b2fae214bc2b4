//! perfsyn's target corpus: the registered APIs a worker can run, and the worker binary.
//!
//! Each module registers a family of types with the
//! [`register_type!`](perfsyn_profiler_ipc::register_type) DSL; [`registry`] is the one list
//! that collects them. The corpus knows nothing of profiling, search or oracles.

pub mod concurrent;
pub mod controls;
pub mod export_fixtures;
pub mod groups;
pub mod hostile;
pub mod messages;
pub mod planted;
pub mod reltune;
/// Moved to the runtime crate; re-exported so exported tests naming `perfsyn_corpus::regress` still build.
pub use perfsyn_profiler_ipc::regress;
pub mod std_btree;
pub mod std_deque;
pub mod std_hash;
pub mod std_heap;
pub mod std_list;
pub mod std_string;
pub mod std_vec;
pub mod table32;
pub mod toddler;
pub mod tuning;

/// The probe keys live in the harness runtime; re-exported so corpus paths keep working.
pub use perfsyn_profiler_ipc::probe;

use perfsyn_profiler_ipc::Registry;

/// Every registered type of this corpus, one registration per line.
pub fn registry() -> Registry {
    Registry::new(vec![
        // Probe element types, by this crate's re-export: the path the registrations below
        // import them by.
        probe::key().imported_as(&["perfsyn_corpus::probe::Key"]),
        probe::name().imported_as(&["perfsyn_corpus::probe::Name"]),
        // std collections.
        std_vec::vec_key(),
        std_deque::vec_deque_key(),
        std_hash::hash_map_key_u64(),
        std_hash::hash_set_key(),
        std_btree::btree_map_key_u64(),
        std_btree::btree_set_key(),
        std_string::string(),
        std_heap::binary_heap_key(),
        std_list::linked_list_key(),
        // Planted bottlenecks (asymptotic oracle).
        planted::enumerated_distribution(),
        planted::tombstone_set(),
        planted::small_sort(),
        // Planted bottlenecks for `perfsyn bench search` only (disjoint from the suite).
        tuning::unique_log(),
        tuning::recent_list(),
        tuning::audit_ledger(),
        tuning::pivot_sorter(),
        tuning::shift_buffer(),
        // Version groups (relative oracle).
        groups::ordered_map_v1(),
        groups::ordered_map_v2(),
        groups::min_stack_v1(),
        groups::min_stack_v2(),
        // Version groups for `perfsyn bench search` only (relative tuning, disjoint from the suite).
        reltune::grade_book_old(),
        reltune::grade_book_new(),
        reltune::tag_index_old(),
        reltune::tag_index_new(),
        reltune::leaderboard_old(),
        reltune::leaderboard_new(),
        reltune::roster_old(),
        reltune::roster_new(),
        reltune::meter_old(),
        reltune::meter_new(),
        reltune::throttle_old(),
        reltune::throttle_new(),
        reltune::dial_old(),
        reltune::dial_new(),
        reltune::slot_table_old(),
        reltune::slot_table_new(),
        // Table 3.2 of the PerfSyn chapter (IDs 1-19 as version groups, 21-22 asymptotic;
        // ID 20 is planted::enumerated_distribution).
        table32::indices(),
        table32::array_utils_old(),
        table32::array_utils_new(),
        table32::char_set_utils_old(),
        table32::char_set_utils_new(),
        table32::string_utils_old(),
        table32::string_utils_new(),
        table32::identity_stack_old(),
        table32::identity_stack_new(),
        table32::list_ordered_map_old(),
        table32::list_ordered_map_new(),
        table32::list_ordered_set_old(),
        table32::list_ordered_set_new(),
        table32::vector_set_old(),
        table32::vector_set_new(),
        table32::tree_list_old(),
        table32::tree_list_new(),
        table32::filtered_navigable_map(),
        table32::sets(),
        // Listing 3.1's Messages and the Toddler loop bugs.
        messages::messages_old(),
        messages::messages_new(),
        toddler::candlestick_renderer(),
        toddler::java_hash_set(),
        // Negative controls for `perfsyn suite`.
        controls::ring_buffer_old(),
        controls::ring_buffer_new(),
        controls::sorted_keys_old(),
        controls::sorted_keys_new(),
        controls::prefix_sums(),
        // Thread-safe version pairs of SpeedGun's Table 2 (perfsyn compare).
        concurrent::emc_unsync(),
        concurrent::emc_locked(),
        concurrent::emc_atomic(),
        concurrent::emc_deadlock(),
        concurrent::emc_registry_volatile(),
        concurrent::emc_registry_synchronized(),
        concurrent::emc_properties(),
        concurrent::emc_properties_block(),
        concurrent::emc_expando_sync(),
        concurrent::emc_expando_rwlock(),
        concurrent::class_info_striped(),
        concurrent::class_info_concurrent(),
        concurrent::pool_coarse(),
        concurrent::pool_fine(),
        concurrent::pool_volatile(),
        concurrent::bucket_map(),
        concurrent::bucket_map_sync(),
        concurrent::date_time(),
        concurrent::date_time_sync(),
        concurrent::date_time_iso(),
        concurrent::iso_chronology(),
        concurrent::iso_chronology_cached(),
        // Sandbox tests only: targets that panic, abort, crash, hang, exit.
        hostile::hostile(),
    ])
}
