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
pub mod markup;
pub mod messages;
pub mod nested;
pub mod planted;
pub mod reltune;
pub mod template;
/// Moved to the runtime crate; re-exported so exported tests naming `perfsyn_corpus::regress` still build.
pub use perfsyn_profiler_ipc::regress;
pub mod memo;
pub mod std_btree;
pub mod std_deque;
pub mod std_hash;
pub mod std_heap;
pub mod std_list;
pub mod std_string;
pub mod std_vec;
pub mod table32;
pub mod toddler;
pub mod traversals;
pub mod traversals_heldout;
pub mod traversals_inner;
pub mod tuning;

/// The probe keys live in the harness runtime; re-exported so corpus paths keep working.
pub use perfsyn_profiler_ipc::probe;

use perfsyn_profiler_ipc::schema::Origin;
use perfsyn_profiler_ipc::Registry;

/// Every registered type of this corpus, one registration per line, with where it comes from
/// (std, the corpus, planted), which its imports cannot tell and `perfsyn list` shows.
pub fn registry() -> Registry {
    use Origin::{Corpus, Planted, Std};
    Registry::new(vec![
        // Probe element types, by this crate's re-export: the path the registrations below
        // import them by.
        probe::key()
            .imported_as(&["perfsyn_corpus::probe::Key"])
            .with_origin(Corpus),
        probe::name()
            .imported_as(&["perfsyn_corpus::probe::Name"])
            .with_origin(Corpus),
        // std collections.
        std_vec::vec_key().with_origin(Std),
        std_deque::vec_deque_key().with_origin(Std),
        std_hash::hash_map_key_u64().with_origin(Std),
        std_hash::hash_set_key().with_origin(Std),
        std_btree::btree_map_key_u64().with_origin(Std),
        std_btree::btree_set_key().with_origin(Std),
        std_string::string().with_origin(Std),
        std_heap::binary_heap_key().with_origin(Std),
        std_list::linked_list_key().with_origin(Std),
        // Planted bottlenecks (asymptotic oracle).
        planted::enumerated_distribution().with_origin(Planted),
        planted::tombstone_set().with_origin(Planted),
        planted::small_sort().with_origin(Planted),
        // A planted parser reached only through values mined from its tests (harness/mine).
        markup::markup_scanner().with_origin(Planted),
        // A planted parser whose token is rare among its tests' values (search/credit.rs).
        template::template_text().with_origin(Planted),
        // A planted parser that rejects all but balanced input (search/text.rs span shapes).
        nested::nested_doc().with_origin(Planted),
        // Planted bottlenecks for `perfsyn bench search` only (disjoint from the suite), the
        // corpus's own: `planted` names the suite's.
        tuning::unique_log().with_origin(Corpus),
        tuning::recent_list().with_origin(Corpus),
        tuning::audit_ledger().with_origin(Corpus),
        tuning::pivot_sorter().with_origin(Corpus),
        tuning::shift_buffer().with_origin(Corpus),
        // Version groups (relative oracle).
        groups::ordered_map_v1().with_origin(Corpus),
        groups::ordered_map_v2().with_origin(Corpus),
        groups::min_stack_v1().with_origin(Corpus),
        groups::min_stack_v2().with_origin(Corpus),
        // Version groups for `perfsyn bench search` only (relative tuning, disjoint from the suite).
        reltune::grade_book_old().with_origin(Corpus),
        reltune::grade_book_new().with_origin(Corpus),
        reltune::tag_index_old().with_origin(Corpus),
        reltune::tag_index_new().with_origin(Corpus),
        reltune::leaderboard_old().with_origin(Corpus),
        reltune::leaderboard_new().with_origin(Corpus),
        reltune::roster_old().with_origin(Corpus),
        reltune::roster_new().with_origin(Corpus),
        reltune::meter_old().with_origin(Corpus),
        reltune::meter_new().with_origin(Corpus),
        reltune::throttle_old().with_origin(Corpus),
        reltune::throttle_new().with_origin(Corpus),
        reltune::dial_old().with_origin(Corpus),
        reltune::dial_new().with_origin(Corpus),
        reltune::slot_table_old().with_origin(Corpus),
        reltune::slot_table_new().with_origin(Corpus),
        // Table 3.2 of the PerfSyn chapter (IDs 1-19 as version groups, 21-22 asymptotic;
        // ID 20 is planted::enumerated_distribution).
        table32::indices().with_origin(Corpus),
        table32::array_utils_old().with_origin(Corpus),
        table32::array_utils_new().with_origin(Corpus),
        table32::char_set_utils_old().with_origin(Corpus),
        table32::char_set_utils_new().with_origin(Corpus),
        table32::string_utils_old().with_origin(Corpus),
        table32::string_utils_new().with_origin(Corpus),
        table32::identity_stack_old().with_origin(Corpus),
        table32::identity_stack_new().with_origin(Corpus),
        table32::list_ordered_map_old().with_origin(Corpus),
        table32::list_ordered_map_new().with_origin(Corpus),
        table32::list_ordered_set_old().with_origin(Corpus),
        table32::list_ordered_set_new().with_origin(Corpus),
        table32::vector_set_old().with_origin(Corpus),
        table32::vector_set_new().with_origin(Corpus),
        table32::tree_list_old().with_origin(Corpus),
        table32::tree_list_new().with_origin(Corpus),
        table32::filtered_navigable_map().with_origin(Corpus),
        table32::sets().with_origin(Corpus),
        // Listing 3.1's Messages and the Toddler loop bugs.
        messages::messages_old().with_origin(Corpus),
        messages::messages_new().with_origin(Corpus),
        toddler::candlestick_renderer().with_origin(Corpus),
        toddler::java_hash_set().with_origin(Corpus),
        // The labeled loops of `perfsyn bench toddler` (repeated-traversal oracle).
        traversals::traversal_bugs().with_origin(Planted),
        traversals::traversal_non_bugs().with_origin(Planted),
        traversals_heldout::held_out_bugs().with_origin(Planted),
        traversals_heldout::held_out_non_bugs().with_origin(Planted),
        traversals_heldout::held_out_inner().with_origin(Planted),
        traversals_inner::inner_loops().with_origin(Planted),
        // The labeled helpers of `perfsyn bench memoize` (repeated computations).
        memo::memo_cases().with_origin(Planted),
        // Negative controls for `perfsyn suite`.
        controls::ring_buffer_old().with_origin(Corpus),
        controls::ring_buffer_new().with_origin(Corpus),
        controls::sorted_keys_old().with_origin(Corpus),
        controls::sorted_keys_new().with_origin(Corpus),
        controls::prefix_sums().with_origin(Corpus),
        // Thread-safe version pairs of SpeedGun's Table 2 (perfsyn compare).
        concurrent::emc_unsync().with_origin(Corpus),
        concurrent::emc_locked().with_origin(Corpus),
        concurrent::emc_atomic().with_origin(Corpus),
        concurrent::emc_deadlock().with_origin(Corpus),
        concurrent::emc_registry_volatile().with_origin(Corpus),
        concurrent::emc_registry_synchronized().with_origin(Corpus),
        concurrent::emc_properties().with_origin(Corpus),
        concurrent::emc_properties_block().with_origin(Corpus),
        concurrent::emc_expando_sync().with_origin(Corpus),
        concurrent::emc_expando_rwlock().with_origin(Corpus),
        concurrent::class_info_striped().with_origin(Corpus),
        concurrent::class_info_concurrent().with_origin(Corpus),
        concurrent::pool_coarse().with_origin(Corpus),
        concurrent::pool_fine().with_origin(Corpus),
        concurrent::pool_volatile().with_origin(Corpus),
        concurrent::bucket_map().with_origin(Corpus),
        concurrent::bucket_map_sync().with_origin(Corpus),
        concurrent::date_time().with_origin(Corpus),
        concurrent::date_time_sync().with_origin(Corpus),
        concurrent::date_time_iso().with_origin(Corpus),
        concurrent::iso_chronology().with_origin(Corpus),
        concurrent::iso_chronology_cached().with_origin(Corpus),
        // Sandbox tests only: targets that panic, abort, crash, hang, exit.
        hostile::hostile().with_origin(Corpus),
    ])
}
