//! The one place that knows the wire encoding (bincode 2.x, pinned), so it can be swapped.
//!
//! Wire types are kept plain (no serde flatten, skip, tag or untagged: bincode 2 mishandles
//! them). Persistent files use JSON, never this encoding.

use serde::{de::DeserializeOwned, Serialize};

/// Encoding or decoding failed: a protocol bug or a message from a foreign binary.
#[derive(Debug, thiserror::Error)]
#[error("wire format error: {0}")]
pub struct WireError(String);

fn config() -> bincode::config::Configuration {
    bincode::config::standard()
}

/// Encodes `v` into a fresh buffer.
pub fn encode<T: Serialize>(v: &T) -> Result<Vec<u8>, WireError> {
    bincode::serde::encode_to_vec(v, config()).map_err(|e| WireError(e.to_string()))
}

/// Encodes `v` into `buf`, returning the number of bytes written; a value that does not fit
/// is an error, never a truncation.
pub fn encode_into<T: Serialize>(v: &T, buf: &mut [u8]) -> Result<usize, WireError> {
    bincode::serde::encode_into_slice(v, buf, config()).map_err(|e| WireError(e.to_string()))
}

/// Decodes a `T` that must span all of `bytes`.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, WireError> {
    let (v, used) =
        bincode::serde::decode_from_slice(bytes, config()).map_err(|e| WireError(e.to_string()))?;
    if used != bytes.len() {
        return Err(WireError(format!(
            "{} trailing bytes after the message",
            bytes.len() - used
        )));
    }
    Ok(v)
}
