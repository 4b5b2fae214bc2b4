//! `perfsyn check`: explore the methods a change touched, riskiest first, and gate on
//! confirmed regressions. `risk.rs` ranks the touched methods (PerfScope's analysis).

pub mod risk;
